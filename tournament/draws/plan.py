"""Whole-tournament plans: every session up front, from a zero-repeat design where one is known.

Quality goals, in this order: no excess repeats (the optimum where zero is impossible), balanced seat winds,
no two members of a team/club at a table. Everything random comes from ``random.Random(seed)``; search limits
are iteration counts, never wall time (`budgets`), and player ids are sorted before use, so a plan is a function
of its seed and its inputs.
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Hashable, Mapping, Sequence

from tournament.messages import msg

from . import search
from .budgets import PLAN_EVALS, scaled_evals, tabu_iters
from .designs import design_rounds
from .field import Apart, Field, seat_field
from .fixed import place_fixed_tables
from .model import DrawError, Entrants, Plan, RoundList, Rounds, Table
from .winds import balance_winds

WIND_APART = 3_000  # two players who both need the same wind, in a look-ahead's last session: below a team clash
DESIGN_RELABEL_ITERS = 400  # tabu steps to relabel a design so that teammates/clubmates sit apart


def _packed_label(spare: Rounds, grp: Sequence[int | None],
                  rng: random.Random) -> list[int] | None:
    """A label[point] -> player putting each team on the points of one table of a design round left out of the
    plan, or None when the teams do not pack into one such round.

    Points that share a table in a round left out never meet in the rounds taken (the design has no repeats), so
    teams packed there are apart in every session: 32 players in 8 teams of 4 over 7 of the 10 rounds always
    pack, where a search from a random labelling left teammates together on 3 seeds in 10."""
    teams: dict[int, list[int]] = {}
    loose: list[int] = []
    for player, g in enumerate(grp):
        (loose if g is None else teams.setdefault(g, [])).append(player)
    ordered = sorted(teams.values(), key=len, reverse=True)
    for rnd in rng.sample(list(spare), len(spare)):
        free = [list(t) for t in rnd]
        rng.shuffle(free)
        label: list[int | None] = [None] * len(grp)
        for team in ordered:
            table = next((t for t in free if len(t) >= len(team)), None)
            if table is None:
                break
            for player in team:
                label[table.pop()] = player
        else:
            rest = rng.sample(loose, len(loose))
            for point in range(len(grp)):
                if label[point] is None:
                    label[point] = rest.pop()
            return label  # type: ignore[return-value]
    return None


def _relabel_for_groups(rounds: RoundList, grp: Sequence[int | None], rng: random.Random,
                        iters: int, apart: Sequence[bool] = (),
                        spare: Rounds = ()) -> list[int]:
    """A permutation label[point] -> player making few group clashes in the design (and players keeping
    different fixed tables, ``apart``, never together); ``spare``: the design's rounds left out, whose tables
    are points that never meet (see `_packed_label`)."""
    n = len(grp)
    label = _packed_label(spare, grp, rng) or rng.sample(range(n), n)
    nbrs: list[list[int]] = [[] for _ in range(n)]
    for rnd in rounds:
        for t in rnd:
            for a in t:
                nbrs[a].extend(b for b in t if b != a)

    def same(u: int, v: int) -> int:
        gu, gv = grp[label[u]], grp[label[v]]
        if apart and apart[label[u]] and apart[label[v]]:
            return 2
        return 1 if gu is not None and gu == gv else 0

    def bad(u: int) -> int:
        return sum(same(u, z) for z in nbrs[u])

    cost = sum(bad(u) for u in range(n)) // 2
    best, best_label = cost, list(label)
    tabu: dict[int, int] = {}
    for it in range(iters):
        if cost == 0:
            break
        confl = [u for u in range(n) if bad(u)]
        u = confl[rng.randrange(len(confl))]
        best_v, best_d = -1, None
        for v in range(n):
            if v == u or (grp[label[u]] == grp[label[v]] and not apart):
                continue
            before = bad(u) + bad(v) - same(u, v) * nbrs[u].count(v)
            label[u], label[v] = label[v], label[u]
            after = bad(u) + bad(v) - same(u, v) * nbrs[u].count(v)
            label[u], label[v] = label[v], label[u]
            d = after - before
            if tabu.get(v, -1) > it and cost + d >= best:
                continue
            if best_d is None or d < best_d or (d == best_d and rng.random() < 0.3):
                best_v, best_d = v, d
        if best_d is None:
            continue
        label[u], label[best_v] = label[best_v], label[u]
        cost += best_d
        tabu[u] = tabu[best_v] = it + 3 + rng.randrange(5)
        if cost < best:
            best, best_label = cost, list(label)
    return best_label


def _design_start(n: int, sessions: int, grp: Sequence[int | None], rng: random.Random,
                  apart: Sequence[bool] = (), teams_first: bool = False) -> RoundList:
    """Rounds of a zero-repeat design for the first ``sessions``, relabelled so that groups sit apart where they
    can; none (the search starts from greedy rounds) when there is no design, or when teams come first and the
    teams do not pack into the design's rounds left out (its rounds would seat teammates together)."""
    design = design_rounds(n)
    if not design:
        return []
    take = rng.sample(range(len(design)), min(sessions, len(design)))
    rounds = [design[i] for i in take]
    if any(g is not None for g in grp) or any(apart):
        spare = [design[i] for i in range(len(design)) if i not in take]
        if teams_first and any(g is not None for g in grp) and _packed_label(spare, grp, random.Random(0)) is None:
            return []
        perm = _relabel_for_groups(rounds, grp, rng, iters=DESIGN_RELABEL_ITERS, apart=apart, spare=spare)
    else:
        perm = rng.sample(range(n), n)
    return [[[perm[p] for p in t] for t in rnd] for rnd in rounds]


def plan_rounds(field: Field, sessions: int, rng: random.Random, *, history: RoundList | None = None,
                evals: int | None = None, start: RoundList | None = None,
                wind_pairs: Sequence[tuple[int, int]] = ()) -> RoundList:
    """Tables (internal indices, seat order not yet meaningful) for ``sessions`` new rounds.

    Without history the rounds start from a design (random rounds, relabelled); with
    history from ``start`` (zero-repeat continuations), then greedy rounds; a tabu search
    first fits the greedy rounds to the others, then works on all new rounds. ``wind_pairs``: players who
    need the same one seat wind, kept apart (below a team clash)."""
    n, grp = field.n, field.grp
    pc = field.pair_costs()
    for a, b in wind_pairs:
        pc.add_clash(a, b, WIND_APART)
    fixed = [[list(t) for t in rnd] for rnd in (history or [])]
    for rnd in fixed:
        for t in rnd:
            pc.add_table(t)
    target = search.cost_lower_bound(pc, sessions)
    if fixed:
        rounds = [[list(t) for t in rnd] for rnd in (start or [])[:sessions]]
    else:
        rounds = _design_start(n, sessions, grp, rng, field.apart, field.teams_first)
    for rnd in rounds:
        for t in rnd:
            pc.add_table(t)
    from_design = len(rounds)
    everyone = list(range(n))
    while len(rounds) < sessions:
        rnd = search.greedy_round(pc, everyone, rng)
        for t in rnd:
            pc.add_table(t)
        rounds.append(rnd)
    all_rounds = fixed + rounds
    budget = scaled_evals(n, PLAN_EVALS if evals is None else evals)
    if 0 < from_design < sessions:
        # first fit the extra rounds to the (perfect) design rounds, then open everything
        part = search.Schedule(pc, all_rounds, mutable=range(len(fixed) + from_design, len(all_rounds)))
        search.tabu(part, rng, max_iter=tabu_iters(n, sessions - from_design), target=target, evals=budget // 2)
        budget -= budget // 2
    sched = search.Schedule(pc, all_rounds, mutable=range(len(fixed), len(all_rounds)))
    search.tabu(sched, rng, max_iter=tabu_iters(n, sessions), target=target, evals=budget)
    return sched.rounds[len(fixed):]


def plan_tournament(players: Sequence[int], sessions: int, *, seed: int,
                    groups: Mapping[int, Hashable] | None = None, substitutes: Sequence[int] = (),
                    fixed: Mapping[int, int] | None = None, teams_first: bool = False) -> list[list[Table]]:
    """Every session up front: ``sessions`` lists of tables (E, S, W, N player ids).

    ``groups`` maps a player to a team/club key; members of a group are kept apart where
    the sizes allow (``teams_first``: before avoiding repeat opponents, else after).  When the players are not a
    multiple of four the first substitutes needed (in the given order) are seated. ``fixed``: player -> the
    table number they keep in every session.
    """
    apart = Apart.of(Entrants(players, substitutes, groups, fixed, teams_first))
    plan = plan_cached(tuple(sorted(int(p) for p in players)), int(sessions), int(seed), apart,
                       tuple(int(s) for s in substitutes))
    if not fixed:
        return [list(s) for s in plan]
    placed: list[list[Table]] = []
    for session in plan:
        placed.append(place_fixed_tables(session, fixed, placed, groups, substitutes))
    return placed


@functools.lru_cache(maxsize=32)
def plan_cached(players: tuple[int, ...], sessions: int, seed: int, apart: Apart,
                substitutes: tuple[int, ...]) -> Plan:
    """`plan_tournament` before the fixed tables are numbered, kept for the draws that follow the plan."""
    plan = _plan(list(players), sessions, seed, apart, substitutes)
    return tuple(tuple(s) for s in plan)


def _plan(players: Sequence[int], sessions: int, seed: int, apart: Apart,
          substitutes: Sequence[int]) -> list[list[Table]]:
    """The plan over player ids: design or search, then seat winds balanced over the whole tournament."""
    if sessions < 0:
        raise DrawError(msg("the number of sessions cannot be negative"))
    active, used = seat_field(players, substitutes)
    if sessions == 0:
        return []
    rng = random.Random(seed)
    field = Field.of(active, used, apart)
    ids = field.ids
    rounds = plan_rounds(dataclasses.replace(field, apart=[]), sessions, rng)
    if field.apart:
        # players keeping fixed tables take over the places of teammates (or of themselves) who never meet, so
        # the plan stays as good as without them; else a search that keeps them apart
        swapped = _swap_roles(rounds, [i for i, a in enumerate(field.apart) if a], field.grp, field.subs_flag)
        rounds = swapped if swapped is not None else plan_rounds(field, sessions, rng)
    seats = [list(t) for rnd in rounds for t in rnd]
    for t in seats:
        rng.shuffle(t)
    balance_winds(seats, len(ids))
    per = len(ids) // 4
    out: list[list[Table]] = []
    for r in range(sessions):
        out.append([tuple(ids[p] for p in t) for t in seats[r * per:(r + 1) * per]])  # type: ignore[misc]
    return out


def _swap_roles(rounds: RoundList, keep: Sequence[int], grp: Sequence[int | None],
                subs_flag: Sequence[bool]) -> RoundList | None:
    """The rounds with each player of ``keep`` exchanged with a player of the same team/club (or none, or
    themselves) so that no two of ``keep`` ever share a table; None when no such exchange exists. An exchange
    of two players of one group keeps every repeat, clash and seat-wind count of the plan."""
    n = len(grp)
    met = [set() for _ in range(n)]
    for rnd in rounds:
        for t in rnd:
            for a in t:
                met[a].update(b for b in t if b != a)
    options = [[p] + [q for q in range(n) if q != p and q not in keep and grp[q] == grp[p]
                      and subs_flag[q] == subs_flag[p]] for p in keep]
    chosen: list[int] = []

    def choose(i: int) -> bool:
        if i == len(keep):
            return True
        for role in options[i]:
            if role not in chosen and not any(role in met[c] for c in chosen):
                chosen.append(role)
                if choose(i + 1):
                    return True
                chosen.pop()
        return False

    if not choose(0):
        return None
    swap = list(range(n))
    for p, role in zip(keep, chosen, strict=True):
        swap[p], swap[role] = role, p
    return [[[swap[p] for p in t] for t in rnd] for rnd in rounds]
