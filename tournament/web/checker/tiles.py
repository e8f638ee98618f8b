"""Tile codes as people read them, for the result templates (the scripts have the same tables).

The names are English, marked for the catalogues with N_; the functions answer in the reader's language.
"""

from __future__ import annotations

from flask_babel import gettext

from tournament.i18n import N_

SUIT_NAMES = {"m": N_("characters"), "p": N_("dots"), "s": N_("bamboo")}
HONOUR_NAMES = {
    "E": N_("East wind"), "S": N_("South wind"), "W": N_("West wind"), "N": N_("North wind"),
    "C": N_("Red dragon"), "F": N_("Green dragon"), "P": N_("White dragon"),
}
HONOUR_SHORT = {
    "E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North"),
    "C": N_("Red"), "F": N_("Green"), "P": N_("White"),
}
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
        return gettext(HONOUR_NAMES[code])
    return _ranks_of_suit(code[:-1], code[-1])


def _ranks_of_suit(ranks: str, suit: str) -> str:
    if suit not in SUIT_NAMES:
        return f"{ranks} {suit}"
    # TRANSLATORS: tile numbers then their suit, "1 2 3 characters"
    return gettext("%(ranks)s %(suit)s", ranks=ranks, suit=gettext(SUIT_NAMES[suit]))


def tile_class(code: str) -> str:
    if code in HONOUR_NAMES:
        return f"tile-honour tile-{code}"
    return f"tile-{code[-1]}"


def tile_face(code: str) -> tuple[str, str]:
    """(the big mark, the small caption) drawn on a tile."""
    if code in HONOUR_SHORT:
        return code, gettext(HONOUR_SHORT[code])
    return code[:-1], code[-1]


def set_label(group: str) -> str:
    """'123m' -> '1 2 3 characters', 'EEE' -> 'East wind ×3'."""
    codes = tile_codes(group)
    if not codes:
        return group
    if all(c == codes[0] for c in codes) and len(codes) > 1:
        return f"{tile_label(codes[0])} ×{len(codes)}"
    if all(c[-1] == codes[0][-1] and c not in HONOUR_NAMES for c in codes):
        return _ranks_of_suit(" ".join(c[:-1] for c in codes), codes[0][-1])
    return ", ".join(tile_label(c) for c in codes)
