"""Tile fans: the fans decided by the tile kinds of the whole hand alone (flushes, ranks, honours,
greens, reversible tiles, All Types), cached on a few facts of the kinds (:func:`tile_facts`)."""

from __future__ import annotations

from functools import lru_cache, reduce
from itertools import compress
from operator import or_

from .tiles import DRAGONS, GREEN_TILES, REVERSIBLE_TILES, WINDS, is_terminal_or_honor, tile_mask

_SUIT_MASKS = tuple(tile_mask(range(9 * s, 9 * s + 9)) for s in range(3))
_HONOR_MASK = tile_mask(range(27, 34))
_WIND_MASK = tile_mask(WINDS)
_DRAGON_MASK = tile_mask(DRAGONS)
_TERM_HONOR_MASK = tile_mask(t for t in range(34) if is_terminal_or_honor(t))
_GREEN_MASK = tile_mask(GREEN_TILES)
_REVERSIBLE_MASK = tile_mask(REVERSIBLE_TILES)


def _ranks(*ranks: int) -> int:
    """The suited tiles of these ranks, as a mask."""
    return tile_mask(t for t in range(27) if t % 9 + 1 in ranks)


# tile fans of hands without honours, by the ranks they may use
_RANK_FANS = (
    ("Upper Tiles", _ranks(7, 8, 9)),
    ("Middle Tiles", _ranks(4, 5, 6)),
    ("Lower Tiles", _ranks(1, 2, 3)),
    ("Upper Four", _ranks(6, 7, 8, 9)),
    ("Lower Four", _ranks(1, 2, 3, 4)),
    ("All Simples", _ranks(2, 3, 4, 5, 6, 7, 8)),
    ("All Terminals", _ranks(1, 9)),
)


# What decides the tile fans: for each of these masks, whether the hand holds a tile in it. These
# facts of a hand are the OR of the same facts of its tile kinds (``_TILE_FACTS``), and a handful of
# combinations recur, so the fans are cached on them.
SUIT_FACTS = 0b111  # bits 0-2: the suits present
_SUITED_MASK = _SUIT_MASKS[0] | _SUIT_MASKS[1] | _SUIT_MASKS[2]
_ALL_MASK = _SUITED_MASK | _HONOR_MASK
_FACT_MASKS = (
    *_SUIT_MASKS,
    _HONOR_MASK,  # bit 3
    _WIND_MASK,  # bit 4
    _DRAGON_MASK,  # bit 5
    _ALL_MASK & ~_GREEN_MASK,  # bit 6: a tile that is not green
    _ALL_MASK & ~_TERM_HONOR_MASK,  # bit 7: a simple
    _ALL_MASK & ~_REVERSIBLE_MASK,  # bit 8: a tile that is not reversible
    *(_SUITED_MASK & ~allowed for _, allowed in _RANK_FANS),  # bits 9-15: a rank outside the fan's
)
_TILE_FACTS = tuple(sum(1 << j for j, m in enumerate(_FACT_MASKS) if m >> t & 1) for t in range(34))
_HONOR, _WIND, _DRAGON, _NOT_GREEN, _SIMPLE, _NOT_REVERSIBLE = (1 << j for j in range(3, 9))
HONOR_FACT = _HONOR
_RANK_FAN_FACTS = tuple((name, 1 << (9 + j)) for j, (name, _) in enumerate(_RANK_FANS))


def tile_facts(counts: tuple[int, ...]) -> int:
    """The facts (bits, see ``_FACT_MASKS``) of a hand's tile counts."""
    return reduce(or_, compress(_TILE_FACTS, counts), 0)


@lru_cache(maxsize=4096)
def tile_fans(facts: int) -> tuple[str, ...]:
    """Fans decided by the tile kinds of the whole hand alone (given as :func:`tile_facts`), except
    Tile Hog."""
    out = []
    n_suits = (facts & 1) + (facts >> 1 & 1) + (facts >> 2 & 1)
    if not facts & _NOT_GREEN:
        out.append("All Green")
    if not facts & _HONOR:
        if n_suits == 1:
            out.append("Full Flush")
        out.append("No Honors")
        for name, outside in _RANK_FAN_FACTS:
            if not facts & outside:
                out.append(name)
    else:
        if n_suits == 1:
            out.append("Half Flush")
        if not n_suits:
            out.append("All Honors")
    if n_suits == 2:
        out.append("One Voided Suit")
    if not facts & _SIMPLE:
        out.append("All Terminals and Honors")
    if not facts & _NOT_REVERSIBLE:
        out.append("Reversible Tiles")
    if n_suits == 3 and facts & _WIND and facts & _DRAGON:
        out.append("All Types")
    return tuple(out)

