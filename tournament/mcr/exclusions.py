"""Exclusions (Non-Repeat, GB 3.9.1.5): which detected fans survive in a ruleset, and a reading's total.

A reading's fans are a dict ``name -> (count, sets)``; the exclusion step depends only on which fans were
detected, so its outcome is cached on that set of names (:func:`plan`)."""

from __future__ import annotations

from functools import lru_cache

from .fans import FAN_BY_NAME
from .rulesets import Ruleset, lookup

_FAN_ORDER = {f.name: f.id for f in FAN_BY_NAME.values()}

def _points_or_none(rs: Ruleset, name: str) -> int | None:
    """Points of a fan, None when the ruleset lacks it (such a fan is never detected there)."""
    try:
        return rs.points(name)
    except KeyError:
        return None


@lru_cache(maxsize=64)  # one entry per ruleset (and per audit variant)
def _rules(ruleset: str) -> dict[str, tuple[frozenset[str], int | None, tuple]]:
    """fan -> (fans it excludes, points, partial exclusions) in a ruleset."""
    rs = lookup(ruleset)
    return {n: (rs.excludes(n), _points_or_none(rs, n), tuple(rs.reduce_counts.get(n, ()))) for n in FAN_BY_NAME}


@lru_cache(maxsize=64)  # one entry per ruleset (and per audit variant)
def _rules_by_name(ruleset: str) -> tuple[dict, dict, dict]:
    """name -> the names it excludes; name -> its survivor entry (name, points); name -> its partial
    exclusions (only the fans that have some)."""
    rules = _rules(ruleset)
    excl = {n: ex for n, (ex, _, _) in rules.items()}
    entry = {n: (n, p) for n, (_, p, _) in rules.items()}
    red = {n: partial for n, (_, _, partial) in rules.items() if partial}
    return excl, entry, red


_ID_OF = _FAN_ORDER.__getitem__


@lru_cache(maxsize=16384)
def plan(ruleset: str, detected: frozenset[str]) -> tuple:
    """Exclusions for a set of detected fans: (the surviving fans as (name, points) in table order,
    their count reductions as {name: n} or None, every fan an exclusion removed). A fan still alive
    when its turn comes (in table order) removes what it excludes."""
    excl, entry, red = _rules_by_name(ruleset)
    order = sorted(detected, key=_ID_OF)
    removed: set[str] = set()
    reduced = None
    for n in order:
        if n not in removed:
            removed |= excl[n]
            if n in red:
                if reduced is None:
                    reduced = {}
                for x, k in red[n]:
                    reduced[x] = reduced.get(x, 0) + k
    alive = []  # (a loop, not a list comprehension: a new set of fans comes with most readings)
    for n in order:
        if n not in removed:
            alive.append(entry[n])
    return tuple(alive), reduced, removed  # never changed later


@lru_cache(maxsize=64)
def single_wait_inert(ruleset: str) -> bool:
    """Whether Single Wait excludes no fan and is never partly reduced (see _Hand._single_wait)."""
    rules = _rules(ruleset)
    return not rules["Single Wait"][0] and all(x != "Single Wait" for rule in rules.values() for x, _ in rule[2])


def finish(d: dict, rs: Ruleset, form: str, detected: bool):
    """Apply the exclusions to a reading's fans ``d`` (name -> (count, sets)) and add up.
    Returns (fan_points, fans, form, found): ``found`` names every fan found before exclusions when
    ``detected`` (else it is empty)."""
    alive, reduced, _ = plan(rs.name, frozenset(d))
    if reduced is None:
        # one loop, no list comprehension (a function call of its own): this runs for every reading
        out = []
        total = 0
        for e in alive:
            f = e + d[e[0]]  # (name, points) + (count, sets)
            out.append(f)
            total += f[1] * f[2]
    else:
        out = []
        total = 0
        for n, pts in alive:
            cnt, sets = d[n]
            cnt -= reduced.get(n, 0)
            if cnt > 0:
                total += pts * cnt
                out.append((n, pts, cnt, sets))
    found = tuple(sorted(d, key=_ID_OF)) if detected else ()
    if not out:
        pts = rs.points("Chicken Hand")
        return pts, (("Chicken Hand", pts, 1, ()),), form, found
    return total, tuple(out), form, found
