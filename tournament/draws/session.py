"""One session at a time: the next session's tables given the sessions before it.

The first strategy that applies: follow the up-front plan (same seed, same field), Swiss (`swiss`), plan the
remaining sessions ahead (`ahead`, repaired by `repair` when the field changed), or, with no known end,
continue a design or improve a greedy round by a tabu search; then settle the seat winds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import search
from .ahead import ahead_cached, design_continuation
from .budgets import SESSION_EVALS, scaled_evals, tabu_iters
from .field import Apart, Field, History, draw_field, load_history, seated_ids, wind_costs
from .fixed import place_fixed_tables
from .model import Entrants, Plan, RoundList, Rounds, Table
from .plan import plan_cached, plan_tournament
from .repair import plan_in_force, replan_cached, session_flaws
from .swiss import swiss_apart, swiss_tables
from .winds import best_seating

WIND_PAIR = 30_000  # two players who both need the same wind, at one table
WIND_ACCEPTABLE = 100  # a seat wind costing less keeps the player within floor/ceil of S/4
WIND_REPAIR_ITERS = 600  # swaps tried to give every table a seating within everyone's wind balance


def draw_session(entrants: Entrants, *, seed: int, history: Rounds = (), ranking: Sequence[int] | None = None,
                 keep_apart: bool = False, total_sessions: int | None = None,
                 history_seeds: Sequence[int] | None = None, ahead: Rounds | None = None) -> list[Table]:
    """The tables of the next session given all previous sessions' tables (E, S, W, N).

    ``entrants``: who is seated and kept apart (`Entrants`); players with a fixed table sit at their number,
    the tables numbered around them (see `place_fixed_tables`).
    ``history_seeds`` (the seed each earlier session was drawn with) lets the draw find the plan it is
    following: while the field does not change, the session drawn is the next one of that plan (which keeps
    teams apart and winds balanced to the end); a changed field re-plans the remaining sessions.
    ``ranking`` (best first) asks for Swiss seating: ranks 1-4 at table 1, 5-8 at table 2 ...; with
    ``keep_apart`` the groups of four are then changed by swaps with the nearest groups so that no table seats
    two members of a group and as few as possible seat players who met before (`swiss.swiss_apart`).
    ``total_sessions`` makes the draw a plan of the remaining sessions with the played ones fixed (no repeats,
    groups apart, every seat wind ending within floor/ceil), of which this session is the first.
    ``ahead`` (with ``total_sessions``): the sessions already drawn from this one on, before the field changed;
    they are the plan in force, repaired where the field changed (who left gives their seats to who came)
    unless a fresh plan does better.
    """
    tables, _ = _draw_session(entrants, seed=seed, history=history, ranking=ranking, keep_apart=keep_apart,
                              total_sessions=total_sessions, history_seeds=history_seeds, ahead=ahead)
    return place_fixed_tables(tables, entrants.fixed or {}, history, entrants.groups, entrants.substitutes)


def replan_sessions(entrants: Entrants, *, seed: int, history: Rounds, ahead: Rounds,
                    total_sessions: int) -> list[list[Table]]:
    """The sessions drawn ahead (``ahead``: drawn, not played; the sessions after ``history``) drawn again for
    the players now, as one re-plan: the first as `draw_session` draws it with ``ahead`` (the plan in force
    repaired, or a fresh plan of the remaining sessions if that has fewer flaws), the later ones the following
    sessions of that same re-plan. Drawing each later session on its own, from the old sessions again, would
    repair them against another history each time: sessions that no longer fit the plan the first one was chosen
    for (repeats, clashes, winds off floor/ceil), and a search per session."""
    fixed, groups, substitutes = entrants.fixed or {}, entrants.groups, entrants.substitutes
    first, followed = _draw_session(entrants, seed=seed, history=history, ranking=None, keep_apart=False,
                                    total_sessions=total_sessions, history_seeds=None, ahead=ahead)
    out = [place_fixed_tables(first, fixed, history, groups, substitutes)]
    for i in range(1, len(ahead)):
        past = [*history, *out]
        if i < len(followed) and seated_ids(followed[i]) == seated_ids(first):
            tables = [tuple(t) for t in followed[i]]
            out.append(place_fixed_tables(tables, fixed, past, groups, substitutes))
        else:  # no re-plan to follow (or one seating another field): the session drawn from the old one
            out.append(draw_session(entrants, seed=seed, history=past, total_sessions=total_sessions,
                                    ahead=ahead[i:]))
    return out


def clear_caches() -> None:
    """Forget the plans kept between draws (as in a fresh worker): for benches and tests of the search."""
    plan_cached.cache_clear()
    ahead_cached.cache_clear()
    replan_cached.cache_clear()


def _draw_session(entrants: Entrants, *, seed: int, history: Rounds, ranking: Sequence[int] | None,
                  keep_apart: bool, total_sessions: int | None, history_seeds: Sequence[int] | None,
                  ahead: Rounds | None) -> tuple[list[Table], Plan]:
    """The session's tables before the fixed tables are numbered, and the re-plan of the remaining sessions it
    is the first of (empty when it follows none)."""
    apart = Apart.of(entrants)
    field = draw_field(entrants.players, entrants.substitutes, history, apart)
    k = len(history) + 1
    total = total_sessions if total_sessions and total_sessions >= k else None
    rng = random.Random(seed)

    planned = None if ahead or ranking is not None or total is None else _follow_plan(entrants, history, seed,
                                                                                       total)
    if planned is not None:
        return planned, ()

    state = load_history(history, field)
    if ranking is not None:
        left = (total - k) if total is not None else 0
        if keep_apart:
            return swiss_apart(field, state, ranking, left, rng), ()
        return swiss_tables(field, state, ranking, left), ()
    if total is not None:
        if ahead:
            prior = tuple(tuple(tuple(int(p) for p in t) for t in rnd) for rnd in ahead)[:total - k + 1]
        else:
            in_force = plan_in_force(history, history_seeds or (), entrants, total)
            prior = in_force[k - 1:] if in_force is not None else None
        if prior is not None and seated_ids(prior[0]) == set(field.ids) and not session_flaws(
                prior[0], history, apart, field):
            return list(prior[0]), prior
        actives = tuple(sorted(p for p in field.ids if not field.subs_flag[field.index[p]]))
        used = tuple(sorted(p for p in field.ids if field.subs_flag[field.index[p]]))
        past = tuple(tuple(tuple(int(p) for p in t) for t in rnd) for rnd in history)
        replanned = replan_cached(prior, actives, used, past, int(seed), apart, total)
        return list(replanned[0]), replanned

    cont = design_continuation(field, state, rng, history)
    cost_of = wind_costs(field, state, 0)
    in_design = bool(cont)
    sched = _design_round(state, cont, cost_of) if in_design else _greedy_round(field, state, rng)
    r = len(state.fixed)
    if not in_design:
        _separate_single_winds(sched, cost_of, field.n, rng)
    repair = _design_repair_budget(sched, r, cost_of, total) if in_design else WIND_REPAIR_ITERS
    seated = _wind_phase(sched, r, cost_of, rng, max_iter=repair)
    return [tuple(field.ids[p] for p in t) for t in seated], ()  # type: ignore[misc]


def _follow_plan(entrants: Entrants, history: Rounds, seed: int, total: int) -> list[Table] | None:
    """Strategy 1: an unchanged field drawn from the same seed follows its own up-front plan."""
    k = len(history) + 1
    plan = plan_tournament(entrants.players, total, seed=seed, groups=entrants.groups,
                           substitutes=entrants.substitutes, fixed=entrants.fixed or {},
                           teams_first=entrants.teams_first)
    prefix = [{frozenset(t) for t in s} for s in plan[:k - 1]]
    if prefix == [{frozenset(int(p) for p in t) for t in s} for s in history]:
        return plan[k - 1]
    return None


def _design_round(state: History, cont: RoundList, cost_of: dict[int, list[int]]) -> search.Schedule:
    """Strategy 2: the unused design round whose tables seat best for the winds, kept intact so that the
    next draw can continue the design too."""
    nxt = min(cont, key=lambda rnd: sum(best_seating(t, cost_of)[0] for t in rnd))
    for t in nxt:
        state.pc.add_table(t)
    return search.Schedule(state.pc, state.fixed + [nxt], mutable=[len(state.fixed)])


def _greedy_round(field: Field, state: History, rng: random.Random) -> search.Schedule:
    """Strategy 5 (no known end): a greedy round improved by a tabu search."""
    rnd = search.greedy_round(state.pc, list(range(field.n)), rng)
    for t in rnd:
        state.pc.add_table(t)
    sched = search.Schedule(state.pc, state.fixed + [rnd], mutable=[len(state.fixed)])
    search.tabu(sched, rng, max_iter=tabu_iters(field.n, 1), evals=scaled_evals(field.n, SESSION_EVALS))
    return sched


def _separate_single_winds(sched: search.Schedule, cost_of: dict[int, list[int]], n: int, rng: random.Random) -> None:
    """Players left with a single acceptable wind must not share a table with another player needing the
    same wind: a pair cost for this round, above clashes."""
    single = {}
    for p in range(n):
        ok = [w for w in range(4) if cost_of[p][w] < WIND_ACCEPTABLE]
        if len(ok) == 1:
            single[p] = ok[0]
    if not single:
        return
    for p, w in single.items():
        for q, v in single.items():
            if p != q and v == w:
                sched.pc.add_clash(p, q, WIND_PAIR)
    search.tabu(sched, rng, max_iter=tabu_iters(n, 1), evals=scaled_evals(n, SESSION_EVALS))


def _design_repair_budget(sched: search.Schedule, r: int, cost_of: dict[int, list[int]], total: int | None) -> int:
    """Keep a design round intact, so that the remaining sessions stay zero-repeat; with no known end,
    rather repair a seating that leaves a wind out of balance."""
    worst = max(best_seating(t, cost_of)[0] - sum(min(cost_of[p]) for p in t) for t in sched.rounds[r])
    return WIND_REPAIR_ITERS if total is None and worst >= WIND_ACCEPTABLE else 0


def _wind_phase(sched: search.Schedule, r: int, cost_of: dict[int, list[int]], rng: random.Random,
                max_iter: int = 600) -> list[list[int]]:
    """Seat every table of round r.  Tables whose best seating still costs more than their
    players' individual best are repaired by swapping players between tables, never
    adding pair cost (repeats, clashes): a walk that accepts equal wind cost, with a
    short tabu list, so that it crosses plateaus."""
    rnd = sched.rounds[r]

    def tcost(t: list[int]) -> int:
        return best_seating(t, cost_of)[0] - sum(min(cost_of[p]) for p in t)

    costs = [tcost(t) for t in rnd]
    tabu_until: dict[tuple[int, int], int] = {}
    for it in range(max_iter):
        bad = [ti for ti, c in enumerate(costs) if c > 0]
        if not bad:
            break
        ti = bad[rng.randrange(len(bad))]
        x = rnd[ti][rng.randrange(4)]
        best = None
        ties = 0
        for tj, t in enumerate(rnd):
            if tj == ti:
                continue
            for y in t:
                if tabu_until.get((y, ti), -1) > it:
                    continue
                d = sched.swap_delta(r, x, y)
                if d > 0:
                    continue
                a = [y if p == x else p for p in rnd[ti]]
                b = [x if p == y else p for p in t]
                wd = tcost(a) + tcost(b) - costs[ti] - costs[tj]
                key = (wd, d)
                if best is None or key < best[0]:
                    best, ties = (key, tj, y), 1
                elif key == best[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best = (key, tj, y)
        if best is None or best[0][0] > 0:
            continue
        _, tj, y = best
        sched.apply_swap(r, x, y)
        tabu_until[(x, ti)] = tabu_until[(y, tj)] = it + 4 + rng.randrange(4)
        costs[ti] = tcost(rnd[ti])
        costs[tj] = tcost(rnd[tj])
    return [best_seating(t, cost_of)[1] for t in rnd]
