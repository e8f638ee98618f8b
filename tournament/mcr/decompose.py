"""Every legal winning form of a hand's concealed tiles (pure, cached on tile counts).

Counts are 34-tuples (see :mod:`tiles`). A set is ``(kind, tile)`` with kind ``CHOW`` (tile = the
lowest tile) or ``PUNG``; a standard decomposition is ``(pair_tile, sets)`` with ``sets`` sorted.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import permutations, product

from .tiles import NUM_KINDS, TERMINALS_HONORS

CHOW, PUNG = 0, 1

# The six knitted straights: suits (m, s, p) take 1-4-7, 2-5-8, 3-6-9 in some order.
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(s * 9 + start + step for s, start in zip((0, 1, 2), perm, strict=True) for step in (0, 3, 6)))
    for perm in permutations((0, 1, 2))
)
_KNITTED_SETS = tuple(frozenset(p) for p in KNITTED_PATTERNS)
_ORPHANS = frozenset(TERMINALS_HONORS)


@cache
def _group_sets(key: tuple[int, ...], base: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every split of one group (a suit's nine counts, or the seven honours) into sets, in the
    depth-first order pung before chow; tiles are offset by ``base``."""
    i = 0
    n = len(key)
    while i < n and key[i] == 0:
        i += 1
    if i == n:
        return ((),)
    out: list[tuple[tuple[int, int], ...]] = []
    if key[i] >= 3:
        for rest in _group_sets(key[:i] + (key[i] - 3,) + key[i + 1:], base):
            out.append(((PUNG, base + i),) + rest)
    if base < 27 and i <= 6 and key[i + 1] and key[i + 2]:
        for rest in _group_sets(key[:i] + (key[i] - 1, key[i + 1] - 1, key[i + 2] - 1) + key[i + 3:], base):
            out.append(((CHOW, base + i),) + rest)
    return tuple(out)


_BOUNDS = ((0, 9), (9, 18), (18, 27), (27, 34))


@lru_cache(maxsize=65536)
def standard(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every (pair, sets) split of the concealed tiles into sets and one pair, pairs in tile order."""
    if sum(counts) % 3 != 2:
        return ()
    keys = [counts[lo:hi] for lo, hi in _BOUNDS]
    splits = [_group_sets(k, lo) for k, (lo, _) in zip(keys, _BOUNDS, strict=True)]
    out = []
    for g, (lo, hi) in enumerate(_BOUNDS):
        if any(not splits[x] for x in range(4) if x != g):
            continue
        key = keys[g]
        for r in range(hi - lo):
            if key[r] < 2:
                continue
            own = _group_sets(key[:r] + (key[r] - 2,) + key[r + 1:], lo)
            if not own:
                continue
            parts = [own if x == g else splits[x] for x in range(4)]
            for combo in product(*parts):
                out.append((lo + r, combo[0] + combo[1] + combo[2] + combo[3]))
    return tuple(out)


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    return sum(counts) == 14 and all(c in (0, 2, 4) for c in counts)


def is_thirteen_orphans(counts: tuple[int, ...]) -> bool:
    if sum(counts) != 14:
        return False
    return all((counts[t] >= 1) if t in _ORPHANS else counts[t] == 0 for t in range(NUM_KINDS))


def honors_knitted_pattern(counts: tuple[int, ...]) -> int | None:
    """Index of the knitted pattern of an Honors and Knitted hand, or None."""
    if sum(counts) != 14 or any(c > 1 for c in counts):
        return None
    suited = frozenset(t for t in range(27) if counts[t])
    for i, pat in enumerate(_KNITTED_SETS):
        if suited <= pat:
            return i
    return None


def knitted_straight_rests(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each knitted straight fully present, (pattern index, remaining counts)."""
    out = []
    if sum(1 for t in range(27) if counts[t]) < 9:
        return ()
    for i, pat in enumerate(KNITTED_PATTERNS):
        if all(counts[t] for t in pat):
            sub = list(counts)
            for t in pat:
                sub[t] -= 1
            out.append((i, tuple(sub)))
    return tuple(out)


@cache
def _can_split(key: tuple[int, ...]) -> bool:
    """Whether one suit's nine counts split entirely into chows and pungs."""
    i = 0
    while i < 9 and key[i] == 0:
        i += 1
    if i == 9:
        return True
    if key[i] >= 3 and _can_split(key[:i] + (key[i] - 3,) + key[i + 1:]):
        return True
    return i <= 6 and key[i + 1] > 0 and key[i + 2] > 0 and _can_split(
        key[:i] + (key[i] - 1, key[i + 1] - 1, key[i + 2] - 1) + key[i + 3:]
    )


@cache
def _suit_flags(key: tuple[int, ...]) -> int:
    """For one suit's nine counts: bit 1 when they split into sets only, bit 2 when into sets and
    exactly one pair."""
    n = sum(key)
    if n % 3 == 0:
        return 1 if _can_split(key) else 0
    if n % 3 == 2:
        for p in range(9):
            if key[p] >= 2 and _can_split(key[:p] + (key[p] - 2,) + key[p + 1:]):
                return 2
    return 0


def _honor_flags(key: tuple[int, ...]) -> int:
    pairs = 0
    for c in key:
        if c == 2:
            pairs += 1
        elif c not in (0, 3):
            return 0
    return 1 if pairs == 0 else 2 if pairs == 1 else 0


def _group_flags(counts: tuple[int, ...]) -> list[int]:
    return [_suit_flags(counts[0:9]), _suit_flags(counts[9:18]), _suit_flags(counts[18:27]),
            _honor_flags(counts[27:34])]


def _complete(flags: list[int]) -> bool:
    """Standard form from per-group flags: all groups sets-only but one that has the pair."""
    pair_groups = 0
    for f in flags:
        if f & 1:
            continue
        if f & 2:
            pair_groups += 1
        else:
            return False
    return pair_groups == 1


def is_standard(counts: tuple[int, ...]) -> bool:
    return _complete(_group_flags(counts))


def _special(counts: tuple[int, ...], declared: int) -> bool:
    if declared == 0 and (
        is_seven_pairs(counts) or is_thirteen_orphans(counts) or honors_knitted_pattern(counts) is not None
    ):
        return True
    if declared <= 1:
        for _, rest in knitted_straight_rests(counts):
            if is_standard(rest):
                return True
    return False


def is_winning(counts: tuple[int, ...], declared: int) -> bool:
    """Whether concealed ``counts`` plus ``declared`` declared sets form any legal winning hand."""
    return is_standard(counts) or _special(counts, declared)


def _special_waits(counts13: tuple[int, ...], declared: int) -> set[int]:
    """Tiles completing the 13 tiles as Seven Pairs, Thirteen Orphans, Honors and Knitted or a
    Knitted Straight hand."""
    out: set[int] = set()
    kinds = [t for t in range(NUM_KINDS) if counts13[t]]
    if declared == 0 and sum(counts13) == 13:
        odd = [t for t in kinds if counts13[t] % 2]
        if len(odd) == 1:
            out.add(odd[0])
        if all(t in _ORPHANS for t in kinds):
            for t in TERMINALS_HONORS:
                c = list(counts13)
                c[t] += 1
                if is_thirteen_orphans(tuple(c)):
                    out.add(t)
        suited = frozenset(t for t in kinds if t < 27)
        if len(kinds) == 13 and all(counts13[t] == 1 for t in kinds) and any(suited <= p for p in _KNITTED_SETS):
            for t in range(NUM_KINDS):
                if not counts13[t]:
                    c = list(counts13)
                    c[t] += 1
                    if honors_knitted_pattern(tuple(c)) is not None:
                        out.add(t)
    if declared <= 1:
        for pat in KNITTED_PATTERNS:
            missing = [t for t in pat if not counts13[t]]
            if len(missing) > 1:
                continue
            c = list(counts13)
            for t in pat:
                if c[t]:
                    c[t] -= 1
            if missing:
                c[missing[0]] += 0  # the missing tile itself completes the straight
                if is_standard(tuple(c)):
                    out.add(missing[0])
            else:
                for t in range(NUM_KINDS):
                    c[t] += 1
                    if is_standard(tuple(c)):
                        out.add(t)
                    c[t] -= 1
    return out


@cache
def _suit_add_flags(key: tuple[int, ...]) -> tuple[int, ...]:
    """For one suit's nine counts: the group flags after adding one tile of each rank."""
    out = []
    for r in range(9):
        near = key[r] or (r > 0 and key[r - 1]) or (r > 1 and key[r - 2]) or (r < 8 and key[r + 1]) or (
            r < 7 and key[r + 2])
        out.append(_suit_flags(key[:r] + (key[r] + 1,) + key[r + 1:]) if near else 0)
    return tuple(out)


@cache
def _honor_add_flags(key: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(_honor_flags(key[:r] + (key[r] + 1,) + key[r + 1:]) for r in range(7))


@lru_cache(maxsize=65536)
def waits(counts13: tuple[int, ...], declared: int, full: tuple[int, ...]) -> tuple[int, ...]:
    """Tiles completing a 13-tile hand. ``full`` are the counts of the whole hand (declared sets too):
    a tile it already holds four of is not a wait (pass zeros to count every structural wait)."""
    keys = (counts13[0:9], counts13[9:18], counts13[18:27], counts13[27:34])
    flags = [_suit_flags(keys[0]), _suit_flags(keys[1]), _suit_flags(keys[2]), _honor_flags(keys[3])]
    not_sets = [g for g in range(4) if not flags[g] & 1]
    found = _special_waits(counts13, declared)
    for g in range(4):
        others = [x for x in not_sets if x != g]
        if not others:
            need = 2  # the new group must hold the pair
        elif len(others) == 1 and flags[others[0]] & 2:
            need = 1  # another group holds the pair: the new group must split into sets
        else:
            continue
        adds = _suit_add_flags(keys[g]) if g < 3 else _honor_add_flags(keys[3])
        base = g * 9
        for r, f in enumerate(adds):
            if f & need:
                found.add(base + r)
    return tuple(t for t in sorted(found) if full[t] < 4)
