"""Swiss seating: tables by the standings, the best ranked together.

Strict (`swiss_tables`): ranks 1-4 at table 1, 5-8 at table 2 ..., whoever they are (a Swiss final).
Keeping apart (`swiss_apart`): the same groups of four, then players swapped with the nearest groups so that no
table seats two members of a team/club and as few as possible seat two players who met before; each player's
distance from the table of their rank costs its square, so a swap reaches no further than it must.

A player with a fixed table (access needs) plays at that number whatever their rank: the tables are numbered
around them afterwards (`fixed.place_fixed_tables`), so the group they are ranked in sits at their number.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from . import search
from .field import Field, History, wind_costs
from .model import Table
from .winds import best_seating

SWISS_STEP = 300  # cost per squared table of distance from the table of a player's rank: below any repeat
SWISS_TABU_ITERS = 2_000
SWISS_TABU_STALL = 200  # iterations without improvement before the search stops
SWISS_TABU_EVALS = 300_000


def _swiss_order(field: Field, ranking: Sequence[int]) -> list[int]:
    """Internal indices best first: the ranked players present, then the others."""
    order = [field.index[int(p)] for p in ranking if int(p) in field.index]
    seen = set(order)
    return list(dict.fromkeys(order)) + [i for i in range(field.n) if i not in seen]


def _groups_of_four(field: Field, ranking: Sequence[int]) -> list[list[int]]:
    """Tables of internal indices by rank; substitutes, never ranked, take one seat each at the last tables."""
    order = [i for i in _swiss_order(field, ranking) if not field.subs_flag[i]]
    subs = [i for i in range(field.n) if field.subs_flag[i]]
    tables = field.n // 4
    per = [0] * tables
    for i in range(len(subs)):
        per[tables - 1 - i % tables] += 1
    out = []
    at = 0
    for t in range(tables):
        out.append(order[at:at + 4 - per[t]] + [subs.pop() for _ in range(per[t])])
        at += 4 - per[t]
    return out


def _seated(field: Field, state: History, rnd: Sequence[Sequence[int]], sessions_left: int) -> list[Table]:
    """Each table's seat order: the one that keeps its players' winds best balanced."""
    cost_of = wind_costs(field, state, sessions_left)
    return [tuple(field.ids[p] for p in best_seating(t, cost_of)[1]) for t in rnd]  # type: ignore[misc]


def swiss_tables(field: Field, state: History, ranking: Sequence[int], sessions_left: int) -> list[Table]:
    """Strictly by the standings: ranks 1-4 at table 1, 5-8 at table 2 ... (repeats allowed: that is a Swiss
    final). Substitutes, never ranked, take one seat each at the last tables; each table's seat order is the
    one that keeps its players' winds best balanced."""
    return _seated(field, state, _groups_of_four(field, ranking), sessions_left)


def swiss_apart(field: Field, state: History, ranking: Sequence[int], sessions_left: int,
                rng: random.Random) -> list[Table]:
    """By the standings, keeping apart: the groups of `swiss_tables`, then swaps (a descent, then a short tabu
    search) that put no two teammates/clubmates at a table (weighted above repeats, whatever the tournament's
    priority), then as few pairs who met before, each player moved as few tables from their rank as that
    allows."""
    rnd = _groups_of_four(field, ranking)
    home = {p: ti for ti, t in enumerate(rnd) for p in t}
    tables = len(rnd)
    affinity = [[SWISS_STEP * (ti - home[p]) ** 2 for ti in range(tables)] for p in range(field.n)]
    pc = dataclasses.replace(field, teams_first=True).pair_costs()
    for past in state.fixed:
        for t in past:
            pc.add_table(t)
    for t in rnd:
        pc.add_table(t)
    r = len(state.fixed)
    sched = search.Schedule(pc, [*state.fixed, rnd], mutable=[r], affinity={r: affinity})
    search.descent(sched, r)
    search.tabu(sched, rng, max_iter=SWISS_TABU_ITERS, stall=SWISS_TABU_STALL, evals=SWISS_TABU_EVALS)
    search.descent(sched, r)
    # the groups in the order of their best ranked player: table 1 stays the top table
    rank = {p: i for i, p in enumerate(_swiss_order(field, ranking))}
    ordered = sorted(sched.rounds[r], key=lambda t: min(rank[p] for p in t))
    return _seated(field, state, ordered, sessions_left)
