"""Tile codes as people read them, for the result templates (the scripts have the same tables)."""

from __future__ import annotations

SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
HONOUR_NAMES = {
    "E": "East wind", "S": "South wind", "W": "West wind", "N": "North wind",
    "C": "Red dragon", "F": "Green dragon", "P": "White dragon",
}
HONOUR_SHORT = {"E": "East", "S": "South", "W": "West", "N": "North", "C": "Red", "F": "Green", "P": "White"}
_Z = "ESWNCFP"


def tile_codes(group: str) -> list[str]:
    """'123m' -> ['1m', '2m', '3m']; 'EEEE' -> ['E', 'E', 'E', 'E']; '1z' -> ['E'] (one set, as the engine
    writes it in a fan's sets)."""
    out: list[str] = []
    digits = ""
    for ch in group:
        if ch.isdigit():
            digits += ch
        elif ch == "z":
            out += [_Z[int(d) - 1] for d in digits if "1" <= d <= "7"]
            digits = ""
        elif ch in SUIT_NAMES:
            out += [d + ch for d in digits]
            digits = ""
        elif ch in HONOUR_NAMES:
            out.append(ch)
    return out


def tile_label(code: str) -> str:
    """'5p' -> '5 dots', 'C' -> 'Red dragon'."""
    if code in HONOUR_NAMES:
        return HONOUR_NAMES[code]
    return f"{code[:-1]} {SUIT_NAMES.get(code[-1], code[-1])}"


def tile_class(code: str) -> str:
    if code in HONOUR_NAMES:
        return f"tile-honour tile-{code}"
    return f"tile-{code[-1]}"


def tile_face(code: str) -> tuple[str, str]:
    """(the big mark, the small caption) drawn on a tile."""
    if code in HONOUR_SHORT:
        return code, HONOUR_SHORT[code]
    return code[:-1], code[-1]


def set_label(group: str) -> str:
    """'123m' -> '1 2 3 characters', 'EEE' -> 'East wind ×3'."""
    codes = tile_codes(group)
    if not codes:
        return group
    if all(c == codes[0] for c in codes) and len(codes) > 1:
        return f"{tile_label(codes[0])} ×{len(codes)}"
    if all(c[-1] == codes[0][-1] and c not in HONOUR_NAMES for c in codes):
        return " ".join(c[:-1] for c in codes) + " " + SUIT_NAMES[codes[0][-1]]
    return ", ".join(tile_label(c) for c in codes)
