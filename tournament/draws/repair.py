"""Repairing the plan in force when the field changes: who left gives their seats to who came, a table fewer
dissolves one table; or a fresh plan of the remaining sessions when that has fewer flaws. And finding the plan
in force from the sessions drawn so far and their seeds."""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Sequence

from . import search
from .ahead import ahead_cached, seat_ahead
from .budgets import LOOKAHEAD_EVALS, PLAN_EVALS, scaled_evals, tabu_iters
from .field import Apart, Field, History, draw_field, history_costs, load_history, seated_ids
from .fixed import place_fixed_tables
from .model import DrawError, Entrants, Plan, RoundList, Rounds, Table
from .winds import wind_misses

REPAIR_EXACT = 6  # newcomers placed by trying every assignment to the seats left free (6! = 720)
FEWER_TABLES_EVALS = 400_000  # a second search of a flawed plan in force once the field lost a table


def session_flaws(tables: Sequence[Sequence[int]], history: Rounds, apart: Apart, field: Field) -> int:
    """Repeats and team/club or substitute pairs at the tables of one session, the first concern (repeats, or
    teams with ``teams_first``) weighted above everything."""
    met = {frozenset((int(a), int(b))) for rnd in history for t in rnd for i, a in enumerate(t) for b in t[i + 1:]}
    subs = {p for p in field.ids if field.subs_flag[field.index[p]]}
    groups = apart.group_map()
    repeat, clash = field.flaw_weights()
    bad = 0
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1:]:
                met_before = frozenset((a, b)) in met and a not in subs and b not in subs
                together = (groups.get(a) is not None and groups.get(a) == groups.get(b)) or (a in subs and b in subs)
                bad += max(repeat if met_before else 0, clash if together else 0)
    return bad


def _plan_flaws(rounds: Rounds, history: Rounds, apart: Apart, field: Field) -> int:
    """session_flaws of every remaining session, plus players who end with a seat wind off floor/ceil."""
    past = [list(r) for r in history]
    bad = 0
    for rnd in rounds:
        bad += session_flaws(rnd, past, apart, field)
        past.append(list(rnd))
    counts: dict[int, list[int]] = {}
    for rnd in past:
        for t in rnd:
            for w, p in enumerate(t):
                counts.setdefault(int(p), [0, 0, 0, 0])[w] += 1
    for p in field.ids:
        c = counts.get(p, [0, 0, 0, 0])
        m = sum(c)
        if not field.subs_flag[field.index[p]] and (min(c) < m // 4 or max(c) > -(-m // 4)):
            bad += 10
    return bad


def _same(a: Sequence[Sequence[int]], b: Sequence[Sequence[int]]) -> bool:
    return {frozenset(t) for t in a} == {frozenset(int(p) for p in t) for t in b}


def plan_in_force(history: Rounds, seeds: Sequence[int], entrants: Entrants, total: int) -> Plan | None:
    """The plan (every session 1..total) the history has followed so far, or None.

    Session j was drawn from the players seated in it and seed j: either it is the next session of the plan
    in force before it (kept), or the first of a new plan of the remaining sessions with sessions 1..j-1
    fixed (made again here, from the same inputs). A swapped, Swiss or otherwise unknown session leaves no
    plan in force until a later session starts one."""
    if len(seeds) != len(history) or not history:
        return None
    substitutes, groups, fixed = entrants.substitutes, entrants.groups, entrants.fixed
    subs = {int(s) for s in substitutes}
    apart = Apart.of(entrants)
    plan: Plan | None = None

    def drawn(planned: Sequence[Table], j: int) -> bool:
        # a session as published: players with fixed tables moved apart if the plan seated two together
        return _same(planned, history[j]) or bool(fixed) and _same(
            place_fixed_tables(planned, fixed, history[:j], groups, substitutes, strict=False), history[j])

    for j, (tables, seed) in enumerate(zip(history, seeds, strict=True)):
        if plan is not None and drawn(plan[j], j):
            continue
        seated = [int(p) for t in tables for p in t]
        actives = tuple(sorted(p for p in seated if p not in subs))
        used = tuple(sorted(p for p in seated if p in subs))
        past = tuple(tuple(tuple(int(p) for p in t) for t in rnd) for rnd in history[:j])
        try:
            rounds = replan_cached(plan[j:] if plan is not None else None, actives, used, past, int(seed), apart,
                                   total)
        except DrawError:
            rounds = None
        plan = past + rounds if rounds is not None and drawn(rounds[0], j) else None  # type: ignore[operator]
    return plan


@functools.lru_cache(maxsize=64)
def replan_cached(prior: Plan | None, actives: tuple[int, ...], used: tuple[int, ...], past: Plan, seed: int,
                  apart: Apart, total: int) -> Plan:
    """Sessions len(past)+1..total drawn from this field when ``prior`` (the same sessions of the plan in force,
    or None) no longer does: the plan in force repaired where the field changed (who left gives their seats to
    who came), or a fresh plan of the remaining sessions, whichever has fewer flaws over all of them (repeats,
    then team/club and substitute pairs, then players whose winds end off floor/ceil); the plan in force kept
    as it is when the field is the same and no fresh plan does better. When the field seats fewer tables than
    a played session, a flawed plan in force is first searched again (`_search_again`)."""
    field = draw_field(actives, used, past, apart)
    repaired = None
    if prior is not None:
        if seated_ids(prior[0]) == set(field.ids):
            repaired = prior
        else:
            state = load_history(past, field)
            rounds = _repair_plan(prior, field, state, random.Random(seed))
            if rounds is not None:
                repaired = tuple(tuple(tuple(field.ids[p] for p in t) for t in rnd)  # type: ignore[misc]
                                 for rnd in rounds)
        if repaired is not None and not _plan_flaws(repaired, past, apart, field):
            return repaired
        if repaired is not None and _fewer_tables(past, field):
            again = _search_again(repaired, field, load_history(past, field), random.Random(seed))
            if again is not None and _plan_flaws(again, past, apart, field) < _plan_flaws(
                    repaired, past, apart, field):
                repaired = again
    fresh = ahead_cached(actives, used, past, seed, apart, total)
    if repaired is not None and _plan_flaws(repaired, past, apart, field) <= _plan_flaws(
            fresh[:len(repaired)], past, apart, field):
        return repaired
    return fresh


def _fewer_tables(past: Rounds, field: Field) -> bool:
    """The field seats fewer tables than a session already played (players left and no substitute was called)."""
    return any(len(rnd) > field.n // 4 for rnd in past)


def _searched(rounds: RoundList, field: Field, state: History, rng: random.Random, evals: int) -> RoundList:
    """The planned `rounds` (field indices) after a tabu search of them with the played sessions fixed, or as
    they are when their cost is already the lower bound."""
    pc = history_costs(field, state)
    target = search.cost_lower_bound(pc, len(rounds))
    for rnd in rounds:
        for t in rnd:
            pc.add_table(t)
    first = len(state.fixed)
    sched = search.Schedule(pc, state.fixed + rounds, mutable=range(first, first + len(rounds)))
    if sched.cost() > target:
        search.tabu(sched, rng, max_iter=tabu_iters(field.n, len(rounds)), target=target,
               evals=scaled_evals(field.n, evals))
    return sched.rounds[first:]


def _search_again(rounds: Rounds, field: Field, state: History, rng: random.Random) -> Plan | None:
    """The remaining sessions of a plan searched again from where they are (the played sessions fixed), then
    seated for the winds; None when some player's winds would end off floor/ceil. A field that lost a table is
    a tight fit: when four of 32 players in teams of 4 leave after 2 of 7 sessions, searches 30 times as long
    find no plan of the 28 free of both repeats and teammates. Searching the plan in force again at each draw
    whose next session has a flaw (a plan with fewer flaws is kept) leaves fewer excess repeats than the one
    search made when the table was dissolved (27 -> 22 over seeds 0-19 of bench/draws.py), for about as many
    tables with teammates (302 -> 306); a longer search (1 M swaps: 19 repeats, 309 tables) made every draw of
    a worker without the cached plans 70% slower, this one 20%."""
    new = [[[field.index[int(p)] for p in t] for t in rnd] for rnd in rounds]
    seated = _searched(new, field, state, rng, FEWER_TABLES_EVALS)
    if wind_misses(seated, state.counts, state.played, field.subs_flag):
        seated = seat_ahead(field, state, seated, rng, recolour=False)
        if wind_misses(seated, state.counts, state.played, field.subs_flag):
            return None  # fewer repeats are not worth a player's seat winds off floor/ceil
    return tuple(tuple(tuple(field.ids[p] for p in t) for t in rnd) for rnd in seated)  # type: ignore[misc]


def _slot_cost(pc: search.PairCosts, rounds: Rounds, player: int, slot: int) -> int:
    """Pair cost of ``player`` taking the seats marked ``slot`` in every planned round: repeats of the history
    and of these rounds, team/club and substitute pairs (the other slots' occupants left out)."""
    n = pc.n
    met: dict[int, int] = {}
    cost = 0
    for rnd in rounds:
        for t in rnd:
            if slot not in t:
                continue
            for q in t:
                if q < 0:
                    continue
                i = player * n + q
                c = pc.cnt[i] + met.get(q, 0)
                cost += pc.clash[i] + (pc.wrep[i] + pc.sec[i] * (2 * c - 1) if c >= 1 else 0)
                met[q] = met.get(q, 0) + 1
    return cost


def _repair_plan(prior: Rounds, field: Field, state: History, rng: random.Random) -> RoundList | None:
    """The remaining sessions of the plan in force over this field's indices, each seat of a player who left
    (withdrawn, absent, a substitute no longer needed or not their turn) taken by one who came (a late
    arrival, a returning player, the substitute whose turn it is), or None when the number of tables changed.

    Everyone else keeps their table and seat, so what the plan promised them (no repeats, teams apart, winds
    ending within floor/ceil) still holds. Who takes which seats is the assignment of least pair cost; a
    tabu search then removes what the newcomers still cause where it can, and their winds are settled."""
    seated = [seated_ids(rnd) for rnd in prior]
    if any(s != seated[0] for s in seated):
        return None
    departed = sorted(seated[0] - set(field.ids))
    arrivals = sorted(field.index[p] for p in set(field.ids) - seated[0])
    fewer = len(departed) - len(arrivals)
    if not departed or fewer < 0 or fewer % 4:
        return None
    slot_of = {p: -1 - i for i, p in enumerate(departed)}
    rounds = [[[field.index[int(p)] if int(p) in field.index else slot_of[int(p)] for p in t] for t in rnd]
              for rnd in prior]
    if fewer:
        rounds = _dissolve_tables(rounds, fewer // 4, arrivals, history_costs(field, state))
    else:
        cost = [[_slot_cost(state.pc, rounds, f, -1 - i) for i in range(len(departed))] for f in arrivals]
        order = _assign(cost)
        taker = {-1 - i: arrivals[a] for a, i in enumerate(order)}
        rounds = [[[taker[p] if p < 0 else p for p in t] for t in rnd] for rnd in rounds]
    rounds = _searched(rounds, field, state, rng, PLAN_EVALS * 4 if fewer else LOOKAHEAD_EVALS)
    if not wind_misses(rounds, state.counts, state.played, field.subs_flag):
        return rounds
    return seat_ahead(field, state, rounds, rng, recolour=False)


def _assign(cost: Sequence[Sequence[int]]) -> list[int]:
    """For each row (a newcomer) the column (a free seat) it takes: least total cost, exactly for a few rows,
    else the cheapest seat for each in turn."""
    if len(cost) <= REPAIR_EXACT:
        return list(min(itertools.permutations(range(len(cost[0]))),
                        key=lambda perm: sum(cost[a][i] for a, i in enumerate(perm))))
    free, order = set(range(len(cost[0]))), []
    for row in cost:
        i = min(free, key=lambda i: row[i])
        free.discard(i)
        order.append(i)
    return order


def _dissolve_tables(rounds: RoundList, tables: int, arrivals: Sequence[int],
                     pc: search.PairCosts) -> RoundList:
    """A table fewer (or ``tables`` fewer) in every planned round: the table whose players (with any newcomer)
    fill the seats left free (negative markers) at least pair cost is dissolved; the rounds are repaired one
    after the other, each against the history and the rounds before it."""
    out = []
    for rnd in rounds:
        rnd = [list(t) for t in rnd]
        for step in range(tables):
            best = None
            for ti, t in enumerate(rnd):
                movers = [p for p in t if p >= 0] + (list(arrivals) if step == 0 else [])
                rest = [u for tj, u in enumerate(rnd) if tj != ti]
                holes = [(tj, k) for tj, u in enumerate(rest) for k, p in enumerate(u) if p < 0]
                if len(holes) < len(movers):
                    continue
                holes = holes[:len(movers)]  # more than one table fewer: the next dissolution fills the rest
                cost = [[pc.add_cost(m, [p for p in rest[tj] if p >= 0]) for tj, _k in holes] for m in movers]
                order = _assign(cost)
                total = sum(cost[a][i] for a, i in enumerate(order))
                if best is None or total < best[0]:
                    best = (total, ti, movers, holes, order)
            if best is None:
                break
            _, ti, movers, holes, order = best
            rest = [u for tj, u in enumerate(rnd) if tj != ti]
            for a, i in enumerate(order):
                tj, k = holes[i]
                rest[tj][k] = movers[a]
            rnd = rest
        for t in rnd:
            pc.add_table(t)
        out.append(rnd)
    return out
