"""Tile kinds and their predicates.

A tile kind is an int 0..33: 0-8 characters (m) 1-9, 9-17 bamboo (s), 18-26 dots (p),
27-30 winds E S W N, 31-33 dragons C (red) F (green) P (white).
"""

from __future__ import annotations

SUITS = "msp"
HONOR_CODES = "ESWNCFP"
NUM_KINDS = 34
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
WIND_INDEX = {"E": 0, "S": 1, "W": 2, "N": 3}


def code(t: int) -> str:
    """Notation of one tile kind: '5m', 'E', 'C'."""
    if t < 27:
        return f"{t % 9 + 1}{SUITS[t // 9]}"
    return HONOR_CODES[t - 27]


def from_code(s: str) -> int:
    """Inverse of :func:`code` (also accepts '1z'..'7z')."""
    if len(s) == 1 and s in HONOR_CODES:
        return 27 + HONOR_CODES.index(s)
    if len(s) == 2 and s[0] in "123456789":
        if s[1] in SUITS:
            return SUITS.index(s[1]) * 9 + int(s[0]) - 1
        if s[1] == "z" and s[0] in "1234567":
            return 26 + int(s[0])
    raise ValueError(f"not a tile code: {s!r}")


ALL_CODES = tuple(code(t) for t in range(NUM_KINDS))


def is_terminal_or_honor(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


GREEN_TILES = frozenset({10, 11, 12, 14, 16, GREEN})  # 2 3 4 6 8 bamboo, green dragon
REVERSIBLE_TILES = frozenset(
    {18, 19, 20, 21, 22, 25, 26}  # dots 1 2 3 4 5 8 9
    | {10, 12, 13, 14, 16, 17}  # bamboo 2 4 5 6 8 9
    | {WHITE}
)
TERMINALS_HONORS = tuple(t for t in range(NUM_KINDS) if is_terminal_or_honor(t))  # the 13 orphans


def tile_mask(tiles) -> int:
    """A set of tile kinds as a bit mask (bit t for tile t)."""
    m = 0
    for t in tiles:
        m |= 1 << t
    return m
