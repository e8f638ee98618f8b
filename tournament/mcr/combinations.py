"""Sets as the scorer sees them (notations) and the chow and pung combination fans: the only
place where Non-Separation, Non-Identical and Account-Once matter (GB 3.9.1.5), as cached pure functions
of the sorted chow (pung) tiles."""

from __future__ import annotations

from functools import lru_cache

from .fans import FAN_BY_NAME
from .notation import format_tiles
from .setkinds import CHOW, KONG, PAIR, PUNG


def _notation_table(kind: int) -> tuple[str | None, ...]:
    if kind == CHOW:
        return tuple(format_tiles((t, t + 1, t + 2)) if t < 27 and t % 9 <= 6 else None for t in range(34))
    n = {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    return tuple(format_tiles((t,) * n) for t in range(34))


# NOTA[kind][tile]: the notation of every set, computed once ("123m", "555p", "EEEE", "55p")
NOTA = tuple(_notation_table(k) for k in (CHOW, PUNG, KONG, PAIR))


# --------------------------------------------------------------------------- chow / pung families

# A tile's suit is t // 9 and its rank t % 9 + 1; the detectors write them out (t % 9 for the rank
# less one) rather than call helpers: they run for every new combination of sets, and a Python call
# costs more than the arithmetic.


def _three_chow_fan(a: int, b: int, c: int) -> str | None:
    a, b, c = sorted((a, b, c))
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if a == b == c:
            return "Pure Triple Chow"
        if b - a == 3 and c - b == 3 and a % 9 == 0:
            return "Pure Straight"
        if b - a == c - b and b - a in (1, 2):
            return "Pure Shifted Chows"
        return None
    if len({sa, sb, sc}) != 3:
        return None
    ra, rb, rc = sorted((a % 9, b % 9, c % 9))
    if ra == rb == rc:
        return "Mixed Triple Chow"
    if (ra, rb, rc) == (0, 3, 6):
        return "Mixed Straight"
    if rb == ra + 1 and rc == rb + 1:
        return "Mixed Shifted Chows"
    return None


def _two_chow_fan(a: int, b: int) -> str | None:
    if a // 9 == b // 9:
        if a == b:
            return "Pure Double Chow"
        if abs(a - b) == 3:
            return "Short Straight"
        if abs(a - b) == 6:
            return "Two Terminal Chows"
        return None
    if a % 9 == b % 9:
        return "Mixed Double Chow"
    return None


def _three_pung_fan(a: int, b: int, c: int) -> str | None:
    a, b, c = sorted((a, b, c))
    sa, sb, sc = a // 9, b // 9, c // 9
    if sa == sb == sc:
        if b == a + 1 and c == b + 1:
            return "Pure Shifted Pungs"
        return None
    if len({sa, sb, sc}) != 3:
        return None
    ra, rb, rc = sorted((a % 9, b % 9, c % 9))
    if ra == rb == rc:
        return "Triple Pung"
    if rb == ra + 1 and rc == rb + 1:
        return "Mixed Shifted Pungs"
    return None


def _two_pung_fan(a: int, b: int) -> str | None:
    if a // 9 != b // 9 and a % 9 == b % 9:
        return "Double Pung"
    return None


_EMA_POINTS = {f.name: f.points.get("ema") for f in FAN_BY_NAME.values()}
# the order in which combination fans are preferred: more (ema) points first, then table order
_fan_key = {f.name: (-(f.points.get("ema") or 0), f.id) for f in FAN_BY_NAME.values()}.__getitem__


def _pairwise(items: tuple[int, ...], two) -> list[tuple[str, tuple[int, ...]]]:
    """Account-Once for pairs: choose pair fans greedily (best fan first) so that every chosen fan
    brings in a set not yet linked to the others (the chosen pairs form a forest)."""
    edges = []
    n = len(items)
    for i in range(n - 1):
        a = items[i]
        for j in range(i + 1, n):
            f = two(a, items[j])
            if f:
                edges.append((_fan_key(f), i, j, f))
    if len(edges) < 3:  # it takes three pairs to close a cycle: every one is kept
        if len(edges) == 2:
            edges.sort()
        return [(f, (items[i], items[j])) for _, i, j, f in edges]
    edges.sort()
    comp = list(range(n))  # component label of each set (at most four sets)
    out = []
    for _, i, j, f in edges:
        ci, cj = comp[i], comp[j]
        if ci != cj:
            comp = [ci if c == cj else c for c in comp]
            out.append((f, (items[i], items[j])))
    return out


def _combine(items: tuple[int, ...], four, three, two) -> tuple[tuple[str, tuple[int, ...]], ...]:
    n = len(items)
    if n == 2:
        f2 = two(*items)
        return ((f2, items),) if f2 else ()
    if n == 4:
        f4 = four(items)
        if f4:  # reported together with the lesser fans of the same sets, which it excludes
            return ((f4, items),) + _combine_trios(items, three, two)
    return _combine_trios(items, three, two)


def _combine_trios(items: tuple[int, ...], three, two) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Three or four sets: the best trio fan (with, among four sets, the best pair fan of the set
    left out and a set of the trio), else the pair fans."""
    if len(items) == 3:
        f3 = three(*items)
        return ((f3, items),) if f3 else tuple(_pairwise(items, two))
    best = None
    a, b, c, d = items
    for skip, trio in ((a, (b, c, d)), (b, (a, c, d)), (c, (a, b, d)), (d, (a, b, c))):
        f3 = three(*trio)
        if not f3:
            continue
        cand = [(f3, trio)]
        score = _EMA_POINTS[f3] * 100
        extra = None
        for t in trio:
            f2 = two(skip, t)
            if f2 and (extra is None or _fan_key(f2) < _fan_key(extra[0])):
                extra = (f2, (skip, t) if skip <= t else (t, skip))
        if extra:
            cand.append(extra)
            score += _EMA_POINTS[extra[0]]
        if best is None or score > best[0]:
            best = (score, cand)
    if best:
        return tuple(best[1])
    return tuple(_pairwise(items, two))


def _four_chow_fan(c: tuple[int, ...]) -> str | None:
    a, b, x, d = c
    if a // 9 != d // 9:
        return None
    if a == b == x == d:
        return "Quadruple Chow"
    step = b - a
    if step in (1, 2) and x - b == step and d - x == step:
        return "Four Pure Shifted Chows"
    return None


def _four_pung_fan(p: tuple[int, ...]) -> str | None:
    a, b, c, d = p
    if a // 9 == d // 9 and b == a + 1 and c == b + 1 and d == c + 1:
        return "Four Pure Shifted Pungs"
    return None


# the pair and trio verdicts recur across many chow (pung) combinations: cache them
_two_chow = lru_cache(maxsize=4096)(_two_chow_fan)
_three_chow = lru_cache(maxsize=16384)(_three_chow_fan)
_two_pung = lru_cache(maxsize=4096)(_two_pung_fan)
_three_pung = lru_cache(maxsize=16384)(_three_pung_fan)


def chow_fans(chows: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Combination fans of sorted chow tiles: (fan, the chows it uses) in the order found."""
    return _combine(chows, _four_chow_fan, _three_chow, _two_chow)


def pung_fans(pungs: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Combination fans of sorted suited pung (or kong) tiles."""
    return _combine(pungs, _four_pung_fan, _three_pung, _two_pung)


def _as_hits(found, kind: int) -> tuple[tuple[str, tuple[int, tuple[str, ...]]], ...]:
    """(fan, used sets) pairs -> dict items ``name -> (count, notations)``, repeats merged in order."""
    merged: dict[str, tuple[int, tuple[str, ...]]] = {}
    nota = NOTA[kind]
    for name, used in found:
        sets = tuple(map(nota.__getitem__, used))
        e = merged.get(name)
        merged[name] = (1, sets) if e is None else (e[0] + 1, e[1] + sets)
    return tuple(merged.items())


@lru_cache(maxsize=16384)
def chow_hits(chows: tuple[int, ...]):
    return _as_hits(chow_fans(chows), CHOW)


@lru_cache(maxsize=16384)
def pung_hits(pungs: tuple[int, ...]):
    return _as_hits(pung_fans(pungs), PUNG)

