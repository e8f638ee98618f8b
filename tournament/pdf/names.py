"""A person's name as the printed documents write it: family name first where the name's script or the
player's country writes it so, given name first elsewhere.

- A name written in Chinese characters, Japanese kana or Korean Hangul: family name first, and no space
  when both parts are in those scripts (张伟, 山田太郎, 김민준), as those languages write a full name.
- A player of a country whose people write the family name first (China, Taiwan, Hong Kong, Macao, Japan,
  Korea, Hungary, Vietnam), whatever the script: "Zhang Wei", "Kovács János", "Nguyễn Văn An".
- Everyone else: "Aino Järvinen".

Which part is the family name is never guessed: the forms ask for the given name and the family name apart.
Sorting stays by family name everywhere (`sort_name`). Pure: no Flask, no database, no ReportLab."""

from __future__ import annotations

# ISO 3166-1 alpha-2 codes (Player.country) of the countries whose names are written family name first.
FAMILY_NAME_FIRST = frozenset({"CN", "TW", "HK", "MO", "JP", "KR", "KP", "HU", "VN"})

# Han ideographs (and their extensions and compatibility forms), Japanese kana, Korean Hangul.
_EAST_ASIAN = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF),
               (0x20000, 0x3134F), (0xAC00, 0xD7AF), (0x1100, 0x11FF), (0x3130, 0x318F))


def _east_asian(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _EAST_ASIAN)


def east_asian_script(text: str) -> bool:
    """Whether `text` has a Chinese character, a kana or a Hangul syllable."""
    return any(_east_asian(char) for char in text)


def _only_east_asian(text: str) -> bool:
    letters = [char for char in text if not char.isspace()]
    return bool(letters) and all(_east_asian(char) or char in "・·" for char in letters)


def family_name_first(first_name: str, last_name: str, country: str = "") -> bool:
    return (east_asian_script(first_name) or east_asian_script(last_name)
            or (country or "").strip().upper() in FAMILY_NAME_FIRST)


def printed_name(first_name: str, last_name: str, country: str = "") -> str:
    """The full name in the order its script or its country writes it (see the module)."""
    first, last = " ".join(first_name.split()), " ".join(last_name.split())
    if not first or not last:
        return first or last
    if not family_name_first(first, last, country):
        return f"{first} {last}"
    if _only_east_asian(first) and _only_east_asian(last):
        return f"{last}{first}"
    return f"{last} {first}"
