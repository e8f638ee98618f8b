"""Every legal winning form of a hand's concealed tiles (pure, cached on tile counts).

Counts are 34-tuples (see :mod:`tiles`). A set is ``(kind, tile)`` with kind ``CHOW`` (tile = the
lowest tile) or ``PUNG``; a standard decomposition is ``(pair_tile, sets)`` with ``sets`` sorted.

Speed notes: the work is done per group (one suit's nine counts, or the seven honours) and cached on
the group's counts, which repeat far more across hands than whole hands do; the whole-hand checks use
``tuple.count`` / ``itemgetter`` so they run in C. Every cache is bounded (a web process lives long).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations, product
from operator import itemgetter, mul

from .setkinds import CHOW, PUNG
from .tiles import TERMINALS_HONORS, tile_mask

# The six knitted straights: suits (m, s, p) take 1-4-7, 2-5-8, 3-6-9 in some order.
KNITTED_PATTERNS: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(s * 9 + start + step for s, start in zip((0, 1, 2), perm, strict=True) for step in (0, 3, 6)))
    for perm in permutations((0, 1, 2))
)
_ORPHANS = frozenset(TERMINALS_HONORS)
# itemgetters pick the counts of a tile list in one C call
_GET_ORPHANS = itemgetter(*TERMINALS_HONORS)
_GET_SIMPLES = itemgetter(*(t for t in range(27) if t not in _ORPHANS))
_GET_PATTERN = tuple(itemgetter(*p) for p in KNITTED_PATTERNS)
# for Honors and Knitted: the suited tiles outside each pattern (all must be absent)
_GET_NOT_PATTERN = tuple(itemgetter(*(t for t in range(27) if t not in p)) for p in KNITTED_PATTERNS)


_ORPHANS_MASK = tile_mask(TERMINALS_HONORS)
_HONORS_MASK = tile_mask(range(27, 34))
_PATTERN_MASKS = tuple(tile_mask(p) for p in KNITTED_PATTERNS)

_BASES = (0, 9, 18, 27)  # the first tile of each group: m, s, p, honours
_CACHE = 65536


@lru_cache(maxsize=_CACHE)
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


def _pair_start(key: tuple[int, ...]) -> int:
    """Every set's ranks add up to 0 mod 3 (3r for a pung, 3r + 3 for a chow), so a pair of rank p
    can complete the group only if p = 2 * sum(rank * count) mod 3: ranks p, p + 3, p + 6 are the only
    candidates."""
    return 2 * sum(map(mul, range(len(key)), key)) % 3


@lru_cache(maxsize=_CACHE)
def _group_pair_sets(key: tuple[int, ...], base: int) -> tuple[tuple[int, tuple], ...]:
    """The group holding the pair: (pair tile, its splits of the rest) for each pair in tile order."""
    out = []
    for r in range(_pair_start(key), len(key), 3):
        c = key[r]
        if c >= 2:
            own = _group_sets(key[:r] + (c - 2,) + key[r + 1:], base)
            if own:
                out.append((base + r, own))
    return tuple(out)


@lru_cache(maxsize=_CACHE)
def standard(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Every (pair, sets) split of the concealed tiles into sets and one pair, pairs in tile order."""
    keys = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    # exactly one group (tile count 2 mod 3) holds the pair; every other must split into sets
    rests = (sum(keys[0]) % 3, sum(keys[1]) % 3, sum(keys[2]) % 3, sum(keys[3]) % 3)
    if rests.count(0) != 3 or 2 not in rests:
        return ()
    pair_g = rests.index(2)
    parts: list = [None, None, None, None]
    for g in range(4):
        if g != pair_g:
            parts[g] = own = _group_sets(keys[g], _BASES[g])
            if not own:
                return ()
    out = []
    for pair, own in _group_pair_sets(keys[pair_g], _BASES[pair_g]):
        parts[pair_g] = own
        for a, b, c, d in product(*parts):
            out.append((pair, a + b + c + d))
    return tuple(out)


def is_seven_pairs(counts: tuple[int, ...]) -> bool:
    return sum(counts) == 14 and counts.count(0) + counts.count(2) + counts.count(4) == len(counts)


def is_thirteen_orphans(counts: tuple[int, ...]) -> bool:
    return sum(counts) == 14 and 0 not in _GET_ORPHANS(counts) and not any(_GET_SIMPLES(counts))


def honors_knitted_pattern(counts: tuple[int, ...]) -> int | None:
    """Index of the knitted pattern of an Honors and Knitted hand, or None."""
    if sum(counts) != 14 or counts.count(0) + counts.count(1) != len(counts):
        return None
    for i, outside in enumerate(_GET_NOT_PATTERN):
        if not any(outside(counts)):
            return i
    return None


def knitted_straight_rests(counts: tuple[int, ...]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each knitted straight fully present, (pattern index, remaining counts)."""
    if 27 - counts[:27].count(0) < 9:
        return ()
    out = []
    for i, get in enumerate(_GET_PATTERN):
        if 0 not in get(counts):
            sub = list(counts)
            for t in KNITTED_PATTERNS[i]:
                sub[t] -= 1
            out.append((i, tuple(sub)))
    return tuple(out)


@lru_cache(maxsize=_CACHE)
def _can_split(key: tuple[int, ...]) -> bool:
    """Whether one suit's nine counts split entirely into chows and pungs. Greedy and exact: three
    equal chows are three pungs, so at the lowest rank left, (count mod 3) chows must start there."""
    back1 = back2 = 0  # chows started one and two ranks below, which still take a tile here
    for c in key:
        c -= back1 + back2
        if c < 0:
            return False
        back2, back1 = back1, c % 3
    return not back1 and not back2


@lru_cache(maxsize=_CACHE)
def _suit_flags(key: tuple[int, ...]) -> int:
    """For one suit's nine counts: bit 1 when they split into sets only, bit 2 when into sets and
    exactly one pair."""
    n = sum(key)
    if n % 3 == 0:
        return 1 if _can_split(key) else 0
    if n % 3 == 2:
        for p in range(_pair_start(key), 9, 3):
            if key[p] >= 2 and _can_split(key[:p] + (key[p] - 2,) + key[p + 1:]):
                return 2
    return 0


@lru_cache(maxsize=_CACHE)
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


def _standard_waits(counts: tuple[int, ...]) -> int:
    """Bit mask of every tile t such that counts + t is a standard hand, decided per group: only the
    group that receives t changes its flags (bit 1 = splits into sets, bit 2 = sets and the pair)."""
    keys = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    flags = (_suit_flags(keys[0]), _suit_flags(keys[1]), _suit_flags(keys[2]), _honor_flags(keys[3]))
    # the groups that do not split into sets alone; at most two may remain before the last tile
    bad = [g for g in (0, 1, 2, 3) if not flags[g] & 1]
    if len(bad) == 1:
        # the new tile makes that group's pair, or (when it already has the pair) completes another group
        g = bad[0]
        found = _add_masks(keys, g)[1] << (9 * g)
        if flags[g] & 2:
            for x in (0, 1, 2, 3):
                if x != g:
                    found |= _add_masks(keys, x)[0] << (9 * x)
        return found
    if len(bad) == 2:
        # one group holds the pair, the new tile must complete the other one into sets
        a, b = bad
        found = 0
        if flags[b] & 2:
            found |= _add_masks(keys, a)[0] << (9 * a)
        if flags[a] & 2:
            found |= _add_masks(keys, b)[0] << (9 * b)
        return found
    if not bad:  # every group splits into sets: the new tile must make a pair
        found = 0
        for x in (0, 1, 2, 3):
            found |= _add_masks(keys, x)[1] << (9 * x)
        return found
    return 0


def _add_masks(keys, g: int) -> tuple[int, int]:
    return _suit_add_masks(keys[g]) if g < 3 else _honor_add_masks(keys[3])


def _special_waits(counts13: tuple[int, ...], declared: int) -> int:
    """Bit mask of the tiles completing the 13 tiles as Seven Pairs, Thirteen Orphans, Honors and
    Knitted or a Knitted Straight hand."""
    out = 0
    suited_kinds = 27 - counts13[:27].count(0)
    if declared == 0 and sum(counts13) == 13:
        # Seven Pairs: exactly one kind held an odd number of times
        ones, threes = counts13.count(1), counts13.count(3)
        if ones + threes == 1:
            out |= 1 << (counts13.index(1) if ones else counts13.index(3))
        # Thirteen Orphans: only orphans held (at most six suited kinds), at most one of them missing
        if suited_kinds <= 6 and not any(_GET_SIMPLES(counts13)):
            missing = [t for t, c in zip(TERMINALS_HONORS, _GET_ORPHANS(counts13), strict=True) if not c]
            if not missing:
                out |= _ORPHANS_MASK
            elif len(missing) == 1:
                out |= 1 << missing[0]
        # Honors and Knitted: 13 single kinds, the suited ones inside a knitted pattern; any new honour
        # or a suited tile of a pattern holding them all completes it
        if ones == 13:
            knitted = 0
            for i, outside in enumerate(_GET_NOT_PATTERN):
                if not any(outside(counts13)):
                    knitted |= _HONORS_MASK | _PATTERN_MASKS[i]
            if knitted:
                out |= knitted & ~tile_mask(t for t in range(34) if counts13[t])
    # Knitted Straight: needs at least eight of a pattern's nine kinds
    if declared <= 1 and suited_kinds >= 8:
        for pi, get in enumerate(_GET_PATTERN):
            present = get(counts13)
            n_missing = present.count(0)
            if n_missing > 1:
                continue
            pat = KNITTED_PATTERNS[pi]
            c = list(counts13)
            for t in pat:
                if c[t]:
                    c[t] -= 1
            if n_missing:
                if is_standard(tuple(c)):  # the missing tile itself completes the straight
                    out |= 1 << pat[present.index(0)]
            else:
                out |= _standard_waits(tuple(c))
    return out


def _split_from(k, i: int, back1: int, back2: int) -> bool:
    """:func:`_can_split`'s greedy walk over the counts ``k`` from rank ``i`` on, given the chows
    still open when it reaches rank ``i``."""
    for j in range(i, 9):
        c = k[j] - back1 - back2
        if c < 0:
            return False
        back2, back1 = back1, c % 3
    return not back1 and not back2


@lru_cache(maxsize=_CACHE)
def _suit_add_masks(key: tuple[int, ...]) -> tuple[int, int]:
    """For one suit's nine counts: (ranks whose addition makes the suit split into sets, ranks whose
    addition makes it split into sets and one pair), as 9-bit masks.

    The same verdicts as :func:`_suit_flags` on each key with one more tile, computed without building
    (and caching) those keys: the greedy walk of :func:`_can_split` is shared by every variant up to the
    lowest changed rank, so each variant is walked from there (``prefix[i]`` = the open chows when the
    walk of ``key`` reaches rank ``i``, None once it has failed)."""
    m = (sum(key) + 1) % 3
    if m == 1:  # the suit then holds 3n + 1 tiles: neither sets nor sets and a pair
        return 0, 0
    prefix = [None] * 10
    back1 = back2 = 0
    for i in range(9):
        prefix[i] = (back1, back2)
        c = key[i] - back1 - back2
        if c < 0:
            break
        back2, back1 = back1, c % 3
    k = list(key)
    sets = pair = 0
    if m == 2:
        weighted = sum(map(mul, range(9), key))
    for r in range(9):
        # a tile with no neighbour within two ranks can join no set and no pair
        if not (key[r] or (r > 0 and key[r - 1]) or (r > 1 and key[r - 2]) or (r < 8 and key[r + 1]) or (
                r < 7 and key[r + 2])):
            continue
        k[r] += 1
        if m == 0:
            st = prefix[r]
            if st is not None and _split_from(k, r, *st):
                sets |= 1 << r
        else:
            for p in range(2 * (weighted + r) % 3, 9, 3):  # _pair_start of the key with the tile
                if k[p] >= 2:
                    k[p] -= 2
                    lo = r if r < p else p
                    st = prefix[lo]
                    found = st is not None and _split_from(k, lo, *st)
                    k[p] += 2
                    if found:
                        pair |= 1 << r
                        break
        k[r] -= 1
    return sets, pair


@lru_cache(maxsize=_CACHE)
def _honor_add_masks(key: tuple[int, ...]) -> tuple[int, int]:
    sets = pair = 0
    for r in range(7):
        f = _honor_flags(key[:r] + (key[r] + 1,) + key[r + 1:])
        if f & 1:
            sets |= 1 << r
        elif f & 2:
            pair |= 1 << r
    return sets, pair


@lru_cache(maxsize=_CACHE)
def structural_waits(counts13: tuple[int, ...], declared: int) -> tuple[int, ...]:
    """Tiles completing a 13-tile hand (concealed ``counts13`` plus ``declared`` sets), in tile order,
    whatever the hand already holds of them."""
    found = _special_waits(counts13, declared) | _standard_waits(counts13)
    out = []
    while found:
        low = found & -found
        out.append(low.bit_length() - 1)
        found ^= low
    return tuple(out)


def waits(counts13: tuple[int, ...], declared: int, full: tuple[int, ...]) -> tuple[int, ...]:
    """Tiles completing a 13-tile hand. ``full`` are the counts of the whole hand (declared sets too):
    a tile it already holds four of is not a wait."""
    return tuple([t for t in structural_waits(counts13, declared) if full[t] < 4])
