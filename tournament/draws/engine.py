"""Whole-tournament plans and session-by-session draws over arbitrary player ids.

Quality goals, in this order: no excess repeats (the optimum where zero is impossible),
balanced seat winds, no two members of a team/club at a table.  Everything random comes
from ``random.Random(seed)``; search limits are iteration counts, never wall time, and
player ids are sorted before use, so a draw is a function of its seed and its inputs.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from tournament.messages import msg, msg_n

from . import search as S
from .designs import design_rounds, match_design
from .model import DrawError, Table
from .winds import balance_winds, best_seating, seat_cost, settle_winds, wind_counts, wind_misses

SWISS_STEP = 300  # cost per squared table of distance from a player's ranking table
WIND_PAIR = 30_000  # two players who both need the same wind, at one table
WIND_APART = 3_000  # the same in a look-ahead's last session: below a team clash
WIND_ACCEPTABLE = 100  # a seat wind costing less keeps the player within floor/ceil of S/4
WIND_REPAIR_ITERS = 600  # swaps tried to give every table a seating within everyone's wind balance
SWISS_TABU_ITERS = 2_000
SWISS_TABU_STALL = 200  # iterations without improvement before the Swiss search stops
SWISS_TABU_EVALS = 300_000
DESIGN_RELABEL_ITERS = 400  # tabu steps to relabel a design so that teammates/clubmates sit apart
MIN_TABU_ITERS = 300
TABU_ITER_WORK = 3_000_000  # tabu iterations scale as this / (players x rounds)


# ---------------------------------------------------------------- seating the field

def _seat_field(players: Sequence[int], substitutes: Sequence[int],
                sub_use: Mapping[int, int] | None = None) -> tuple[list[int], list[int]]:
    """(sorted active players, substitutes used) so that the total is a multiple of 4."""
    ids = [int(p) for p in players]
    if len(set(ids)) != len(ids):
        dup = sorted({p for p in ids if ids.count(p) > 1})
        raise DrawError(msg("players listed twice: %(players)s", players=", ".join(map(str, dup))))
    subs = []
    for s in substitutes:
        s = int(s)
        if s not in subs and s not in set(ids):
            subs.append(s)
    n = len(ids)
    need = (-n) % 4
    tables = (n + 3) // 4
    if n == 0:
        raise DrawError(msg("no active players to seat"))
    if len(subs) < need:
        more = need - len(subs)
        raise DrawError(msg_n(
            "%(players)d active players and %(substitutes)d substitutes: need %(num)d more player or substitute "
            "to fill %(tables)d tables",
            "%(players)d active players and %(substitutes)d substitutes: need %(num)d more players or substitutes "
            "to fill %(tables)d tables", more, players=n, substitutes=len(subs), tables=tables))
    if sub_use:
        order = {s: i for i, s in enumerate(subs)}
        subs = sorted(subs, key=lambda s: (sub_use.get(s, 0), order[s]))
    return sorted(ids), sorted(subs[:need])


def _group_index(ids: Sequence[int], groups: Mapping[int, Hashable] | None) -> list[int | None]:
    if not groups:
        return [None] * len(ids)
    keys: dict[Hashable, int] = {}
    out: list[int | None] = []
    for p in ids:
        g = groups.get(p)
        if g is None:
            out.append(None)
        else:
            out.append(keys.setdefault(g, len(keys)))
    return out


def _max_iter(n: int, rounds: int) -> int:
    return max(MIN_TABU_ITERS, TABU_ITER_WORK // (n * max(rounds, 1)))


# Search budgets, in scored swaps (about a microsecond each): a plan of up to 64 players
# stays well under half a second, 200 players under two seconds.
PLAN_EVALS = 500_000
LOOKAHEAD_EVALS = 60_000
SESSION_EVALS = 100_000
MATCH_BUDGET = 3_000  # backtracking steps to recognise a history as part of a design
AHEAD_REPAIRS = 40  # player swaps tried to let every seat wind of a look-ahead plan end within floor/ceil
AHEAD_CANDIDATES = 8  # swaps compared per try
AHEAD_SETTLE_ITERS = 1_000  # seat swaps per candidate
REPAIR_EXACT = 6  # newcomers placed by trying every assignment to the seats left free (6! = 720)
FEWER_TABLES_EVALS = 400_000  # a second search of a flawed plan in force once the field lost a table


def _evals(n: int, base: int) -> int:
    return base * max(64, n) // 64


# ---------------------------------------------------------------- designs

def _packed_label(spare: Sequence[Sequence[Sequence[int]]], grp: Sequence[int | None],
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


def _relabel_for_groups(rounds: list[list[list[int]]], grp: Sequence[int | None], rng: random.Random,
                        iters: int, apart: Sequence[bool] = (),
                        spare: Sequence[Sequence[Sequence[int]]] = ()) -> list[int]:
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
                  apart: Sequence[bool] = ()) -> list[list[list[int]]]:
    design = design_rounds(n)
    if not design:
        return []
    take = rng.sample(range(len(design)), min(sessions, len(design)))
    rounds = [design[i] for i in take]
    if any(g is not None for g in grp) or any(apart):
        spare = [design[i] for i in range(len(design)) if i not in take]
        perm = _relabel_for_groups(rounds, grp, rng, iters=DESIGN_RELABEL_ITERS, apart=apart, spare=spare)
    else:
        perm = rng.sample(range(n), n)
    return [[[perm[p] for p in t] for t in rnd] for rnd in rounds]


# ---------------------------------------------------------------- full plans

def _plan_internal(n: int, sessions: int, subs_flag: list[bool], grp: list[int | None], rng: random.Random,
                   history: list[list[list[int]]] | None = None,
                   evals: int | None = None,
                   start: list[list[list[int]]] | None = None,
                   apart: Sequence[tuple[int, int]] = (),
                   fixed_flag: Sequence[bool] = ()) -> list[list[list[int]]]:
    """Tables (internal indices, seat order not yet meaningful) for ``sessions`` new rounds.

    Without history the rounds start from a design (random rounds, relabelled); with
    history from ``start`` (zero-repeat continuations), then greedy rounds; a tabu search
    first fits the greedy rounds to the others, then works on all new rounds."""
    pc = S.PairCosts(n, subs=subs_flag, groups=grp, apart=fixed_flag)
    for a, b in apart:
        pc.add_clash(a, b, WIND_APART)
    fixed = [[list(t) for t in rnd] for rnd in (history or [])]
    for rnd in fixed:
        for t in rnd:
            pc.add_table(t)
    target = S.cost_lower_bound(pc, sessions)
    if fixed:
        rounds = [[list(t) for t in rnd] for rnd in (start or [])[:sessions]]
    else:
        rounds = _design_start(n, sessions, grp, rng, fixed_flag)
    for rnd in rounds:
        for t in rnd:
            pc.add_table(t)
    from_design = len(rounds)
    everyone = list(range(n))
    while len(rounds) < sessions:
        rnd = S.greedy_round(pc, everyone, rng)
        for t in rnd:
            pc.add_table(t)
        rounds.append(rnd)
    all_rounds = fixed + rounds
    budget = _evals(n, PLAN_EVALS if evals is None else evals)
    if 0 < from_design < sessions:
        # first fit the extra rounds to the (perfect) design rounds, then open everything
        part = S.Schedule(pc, all_rounds, mutable=range(len(fixed) + from_design, len(all_rounds)))
        S.tabu(part, rng, max_iter=_max_iter(n, sessions - from_design), target=target, evals=budget // 2)
        budget -= budget // 2
    sched = S.Schedule(pc, all_rounds, mutable=range(len(fixed), len(all_rounds)))
    S.tabu(sched, rng, max_iter=_max_iter(n, sessions), target=target, evals=budget)
    return sched.rounds[len(fixed):]


def plan_tournament(players: Sequence[int], sessions: int, *, seed: int,
                    groups: Mapping[int, Hashable] | None = None,
                    substitutes: Sequence[int] = (), fixed: Mapping[int, int] | None = None) -> list[list[Table]]:
    """Every session up front: ``sessions`` lists of tables (E, S, W, N player ids).

    ``groups`` maps a player to a team/club key; members of a group are kept apart where
    the sizes allow.  When the players are not a multiple of four the first substitutes
    needed (in the given order) are seated. ``fixed``: player -> the table number they keep in every session.
    """
    key_groups = None
    if groups:
        # canonical and hashable: group keys only matter through equality
        keys: dict[Hashable, int] = {}
        key_groups = tuple(sorted((int(p), keys.setdefault(g, len(keys))) for p, g in
                                  sorted(groups.items(), key=lambda kv: int(kv[0])) if g is not None))
    plan = _plan_cached(tuple(sorted(int(p) for p in players)), int(sessions), int(seed),
                        key_groups, tuple(int(s) for s in substitutes), _fixed_key(fixed))
    if not fixed:
        return [list(s) for s in plan]
    placed: list[list[Table]] = []
    for session in plan:
        placed.append(place_fixed_tables(session, fixed, placed, groups, substitutes))
    return placed


@functools.lru_cache(maxsize=32)
def _plan_cached(players: tuple[int, ...], sessions: int, seed: int,
                 groups: tuple[tuple[int, int], ...] | None, substitutes: tuple[int, ...],
                 fixed_ids: tuple[int, ...] = ()) -> tuple[tuple[Table, ...], ...]:
    plan = _plan(list(players), sessions, seed, dict(groups) if groups else None, substitutes, fixed_ids)
    return tuple(tuple(s) for s in plan)


def _plan(players: Sequence[int], sessions: int, seed: int, groups: Mapping[int, Hashable] | None,
          substitutes: Sequence[int], fixed_ids: Sequence[int] = ()) -> list[list[Table]]:
    if sessions < 0:
        raise DrawError(msg("the number of sessions cannot be negative"))
    active, used = _seat_field(players, substitutes)
    ids = active + used
    if sessions == 0:
        return []
    rng = random.Random(seed)
    subs_flag = [False] * len(active) + [True] * len(used)
    grp = _group_index(ids, groups)
    apart = _apart_flags(ids, fixed_ids)
    rounds = _plan_internal(len(ids), sessions, subs_flag, grp, rng)
    if apart:
        # players keeping fixed tables take over the places of teammates (or of themselves) who never meet, so
        # the plan stays as good as without them; else a search that keeps them apart
        swapped = _swap_roles(rounds, [i for i, a in enumerate(apart) if a], grp, subs_flag)
        rounds = swapped if swapped is not None else _plan_internal(len(ids), sessions, subs_flag, grp, rng,
                                                                    fixed_flag=apart)
    seats = [list(t) for rnd in rounds for t in rnd]
    for t in seats:
        rng.shuffle(t)
    balance_winds(seats, len(ids))
    per = len(ids) // 4
    out: list[list[Table]] = []
    for r in range(sessions):
        out.append([tuple(ids[p] for p in t) for t in seats[r * per:(r + 1) * per]])  # type: ignore[misc]
    return out


# ---------------------------------------------------------------- one session

def _wind_phase(sched: S.Schedule, r: int, cost_of: dict[int, list[int]], rng: random.Random,
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


def _history_index(history: Sequence[Sequence[Sequence[int]]], index: Mapping[int, int]) -> list[list[list[int]]]:
    """History rounds over internal indices, keeping only active players (seat order kept,
    absent players as -1)."""
    out = []
    for session in history:
        rnd = []
        for table in session:
            rnd.append([index.get(int(p), -1) for p in table])
        out.append(rnd)
    return out


@dataclass
class _Field:
    """The players of one draw over internal indices 0..n-1 (actives first, then the substitutes used)."""

    ids: list[int]
    index: dict[int, int]
    subs_flag: list[bool]
    grp: list[int | None]
    apart: list[bool]  # players keeping different fixed tables: never at one table

    @property
    def n(self) -> int:
        return len(self.ids)


@dataclass
class _History:
    """The earlier sessions over internal indices: their pair costs, tables and seat-wind counts."""

    pc: S.PairCosts
    fixed: list[list[list[int]]]
    played: list[int]
    counts: list[list[int]]


def _draw_field(players: Sequence[int], substitutes: Sequence[int], history: Sequence[Sequence[Sequence[int]]],
                groups: Mapping[int, Hashable] | None, fixed_ids: Sequence[int] = ()) -> _Field:
    # Substitutes who have sat out most are seated first.
    sub_use: dict[int, int] = {}
    for session in history:
        for table in session:
            for p in table:
                sub_use[int(p)] = sub_use.get(int(p), 0) + 1
    active, used = _seat_field(players, substitutes, sub_use)
    ids = active + used
    return _Field(ids=ids, index={p: i for i, p in enumerate(ids)},
                  subs_flag=[False] * len(active) + [True] * len(used), grp=_group_index(ids, groups),
                  apart=_apart_flags(ids, fixed_ids))


def _swap_roles(rounds: list[list[list[int]]], keep: Sequence[int], grp: Sequence[int | None],
                subs_flag: Sequence[bool]) -> list[list[list[int]]] | None:
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

    def search(i: int) -> bool:
        if i == len(keep):
            return True
        for role in options[i]:
            if role not in chosen and not any(role in met[c] for c in chosen):
                chosen.append(role)
                if search(i + 1):
                    return True
                chosen.pop()
        return False

    if not search(0):
        return None
    swap = list(range(n))
    for p, role in zip(keep, chosen, strict=True):
        swap[p], swap[role] = role, p
    return [[[swap[p] for p in t] for t in rnd] for rnd in rounds]


def _apart_flags(ids: Sequence[int], fixed_ids: Sequence[int]) -> list[bool]:
    """Players who keep a fixed table, when two or more of them are seated (one alone needs no separating)."""
    present = set(fixed_ids) & set(ids)
    return [p in present for p in ids] if len(present) > 1 else []


def _fixed_key(fixed: Mapping[int, int] | None) -> tuple[int, ...]:
    """The players to keep apart for fixed tables: only that matters to the search (the numbers are given to the
    tables afterwards)."""
    return tuple(sorted(int(p) for p in fixed)) if fixed else ()


def _follow_plan(players: Sequence[int], history: Sequence[Sequence[Sequence[int]]], field: _Field, *, seed: int,
                 groups: Mapping[int, Hashable] | None, substitutes: Sequence[int], total: int | None,
                 ranking: Sequence[int] | None, fixed: Mapping[int, int]) -> list[Table] | None:
    """Strategy 1: an unchanged field drawn from the same seed follows its own up-front plan."""
    k = len(history) + 1
    if total is None or ranking is not None:
        return None
    plan = plan_tournament(players, total, seed=seed, groups=groups, substitutes=substitutes, fixed=fixed)
    prefix = [{frozenset(t) for t in s} for s in plan[:k - 1]]
    if prefix == [{frozenset(int(p) for p in t) for t in s} for s in history]:
        return plan[k - 1]
    return None


def _load_history(history: Sequence[Sequence[Sequence[int]]], field: _Field) -> _History:
    n = field.n
    state = _History(pc=S.PairCosts(n, subs=field.subs_flag, groups=field.grp, apart=field.apart), fixed=[], played=[0] * n,
                     counts=[[0, 0, 0, 0] for _ in range(n)])
    for rnd in _history_index(history, field.index):
        kept = []
        for t in rnd:
            members = [p for p in t if p >= 0]
            for w, p in enumerate(t):
                if p >= 0 and w < 4:
                    state.counts[p][w] += 1
                    state.played[p] += 1
            state.pc.add_table(members)
            kept.append(members)
        state.fixed.append(kept)
    return state


def _wind_costs(field: _Field, state: _History, sessions_left: int) -> dict[int, list[int]]:
    """Per player, the cost of each seat wind now, aiming at floor/ceil over `sessions_left` more sessions."""
    cost_of = {}
    for p in range(field.n):
        if field.subs_flag[p]:
            cost_of[p] = [0, 0, 0, 0]  # a substitute's winds do not matter
        else:
            target = state.played[p] + 1 + sessions_left
            cost_of[p] = [seat_cost(state.counts[p], state.played[p], target, w) for w in range(4)]
    return cost_of


def _design_continuation(field: _Field, state: _History, rng: random.Random,
                         history: Sequence[Sequence[Sequence[int]]] = ()) -> list[list[list[int]]]:
    """The unused rounds of the zero-repeat design the history is part of (relabelled), if it is one:
    e.g. sessions drawn one by one with a different seed each time.

    A player who left is replaced, for this match only, by one who never played (a substitute or a late
    arrival): the newcomer takes over the leaver's place in the design, so the design still continues."""
    n = field.n
    if not state.fixed:
        return []
    design = design_rounds(n)
    if len(design) <= len(state.fixed):
        return []
    rounds = state.fixed
    departed = sorted({int(p) for rnd in history for t in rnd for p in t} - set(field.index))
    if departed:
        newcomers = [i for i in range(n) if state.played[i] == 0]
        if len(newcomers) < len(departed):
            return []
        stand_in = dict(zip(departed, newcomers, strict=False))
        rounds = [[[field.index[int(p)] if int(p) in field.index else stand_in[int(p)] for p in t] for t in rnd]
                  for rnd in history]
    found = match_design(rounds, design, n, budget=MATCH_BUDGET)
    if found is None:
        return []
    point, used_rounds = found
    player_at = [0] * n
    for p, v in enumerate(point):
        player_at[v] = p
    cont = [[[player_at[v] for v in t] for t in design[r]] for r in range(len(design)) if r not in used_rounds]
    rng.shuffle(cont)
    grp = field.grp
    # rounds with the fewest teammates (and substitutes) together first: the search starts from them
    return sorted(cont, key=lambda rnd: sum(1 for t in rnd for i, a in enumerate(t) for b in t[i + 1:]
                                            if (grp[a] is not None and grp[a] == grp[b])
                                            or (field.subs_flag[a] and field.subs_flag[b])))


def _design_round(state: _History, cont: list[list[list[int]]], cost_of: dict[int, list[int]]) -> S.Schedule:
    """Strategy 2: the unused design round whose tables seat best for the winds, kept intact so that the
    next draw can continue the design too."""
    nxt = min(cont, key=lambda rnd: sum(best_seating(t, cost_of)[0] for t in rnd))
    for t in nxt:
        state.pc.add_table(t)
    return S.Schedule(state.pc, state.fixed + [nxt], mutable=[len(state.fixed)])


def _swiss_order(field: _Field, ranking: Sequence[int]) -> list[int]:
    """Internal indices best first: the ranked players present, then the others."""
    order = [field.index[int(p)] for p in ranking if int(p) in field.index]
    seen = set(order)
    return list(dict.fromkeys(order)) + [i for i in range(field.n) if i not in seen]


def _swiss_round(field: _Field, state: _History, order: list[int], rng: random.Random) -> S.Schedule:
    """Strategy 3: tables of ranking neighbours, moved as little as possible to avoid repeats."""
    home = {p: pos // 4 for pos, p in enumerate(order)}
    tables = field.n // 4
    aff = [[SWISS_STEP * (t - home[p]) ** 2 for t in range(tables)] for p in range(field.n)]
    rnd = S.greedy_round(state.pc, order, rng, affinity=aff, ranked=True)
    for t in rnd:
        state.pc.add_table(t)
    r = len(state.fixed)
    sched = S.Schedule(state.pc, state.fixed + [rnd], mutable=[r], affinity={r: aff})
    S.descent(sched, r)
    S.tabu(sched, rng, max_iter=SWISS_TABU_ITERS, stall=SWISS_TABU_STALL, evals=SWISS_TABU_EVALS)
    S.descent(sched, r)
    return sched


def _lookahead_round(field: _Field, state: _History, cont: list[list[list[int]]], sessions: int,
                     rng: random.Random) -> S.Schedule:
    """Strategy 4: plan this and the remaining sessions together; only this one is kept (see `_keep_first`)."""
    new = _plan_internal(field.n, sessions, field.subs_flag, field.grp, rng, history=state.fixed,
                         evals=LOOKAHEAD_EVALS, start=cont, fixed_flag=field.apart)
    for t in new[0]:
        state.pc.add_table(t)
    return S.Schedule(state.pc, state.fixed + [new[0]], mutable=[len(state.fixed)])


def _clean_first(field: _Field, state: _History, new: list[list[list[int]]],
                 rng: random.Random) -> list[list[list[int]]]:
    """Unavoidable repeats or clashes of a look-ahead belong in its later sessions, which a later draw plans
    again: the session published now is searched alone against the history, then the later ones refitted."""
    pc = S.PairCosts(field.n, subs=field.subs_flag, groups=field.grp, apart=field.apart)
    for rnd in state.fixed + new[:1]:
        for t in rnd:
            pc.add_table(t)
    first = len(state.fixed)
    sched = S.Schedule(pc, state.fixed + new[:1], mutable=[first])
    if sched.cost() <= S.cost_lower_bound(_history_costs(field, state), 1):
        return new
    S.tabu(sched, rng, max_iter=_max_iter(field.n, 1), evals=_evals(field.n, SESSION_EVALS))
    for rnd in new[1:]:
        for t in rnd:
            pc.add_table(t)
    rest = S.Schedule(pc, sched.rounds + new[1:], mutable=range(first + 1, first + len(new)))
    S.tabu(rest, rng, max_iter=_max_iter(field.n, len(new) - 1), evals=_evals(field.n, LOOKAHEAD_EVALS))
    return rest.rounds[first:]


def _history_costs(field: _Field, state: _History) -> S.PairCosts:
    pc = S.PairCosts(field.n, subs=field.subs_flag, groups=field.grp, apart=field.apart)
    for rnd in state.fixed:
        for t in rnd:
            pc.add_table(t)
    return pc


def _ends_balanced(counts: Sequence[int], played: int, wind: int) -> bool:
    total = played + 1
    return all(total // 4 <= c + (w == wind) <= -(-total // 4) for w, c in enumerate(counts))


def _plan_ahead(field: _Field, state: _History, cont: list[list[list[int]]], sessions: int,
                rng: random.Random) -> list[list[list[int]]]:
    """Strategy 4: plan this and the remaining sessions as a whole plan is made, the played sessions fixed, and
    seat all of them so that every player's winds end within floor/ceil; only the first is published.

    Seat winds whose history is fixed may need other tables: a player left off balance swaps tables (in any
    planned session) with someone whose swap adds no repeat or clash, while that lowers the players off."""
    apart: list[tuple[int, int]] = []
    if sessions == 1:
        # the last session: two players who each need the same one wind to end balanced sit apart
        need = {}
        for p in range(field.n):
            ok = [w for w in range(4) if not field.subs_flag[p] and _ends_balanced(state.counts[p], state.played[p], w)]
            if len(ok) == 1:
                need[p] = ok[0]
        apart = [(p, q) for p in need for q in need if p != q and need[p] == need[q]]
    new = _plan_internal(field.n, sessions, field.subs_flag, field.grp, rng, history=state.fixed,
                         start=cont, apart=apart, fixed_flag=field.apart)
    if sessions > 1:
        new = _clean_first(field, state, new, rng)
    return _seat_ahead(field, state, new, rng)


def _seat_ahead(field: _Field, state: _History, new: list[list[list[int]]], rng: random.Random,
                recolour: bool = True) -> list[list[list[int]]]:
    """Seat orders for the planned sessions so that every player's winds end within floor/ceil of the sessions
    they play; players still off swap tables with someone whose swap adds no repeat or clash."""
    sessions = len(new)
    seated, left = settle_winds(new, state.counts, state.played, field.subs_flag, rng, recolour=recolour)
    if not left:
        return seated
    pc = S.PairCosts(field.n, subs=field.subs_flag, groups=field.grp, apart=field.apart)
    # without recolouring, the swaps start from the seat orders just settled
    start = [[list(t) for t in rnd] for rnd in (new if recolour else seated)]
    for rnd in state.fixed + start:
        for t in rnd:
            pc.add_table(t)
    first = len(state.fixed)
    sched = S.Schedule(pc, state.fixed + start, mutable=range(first, first + sessions))
    for _ in range(AHEAD_REPAIRS):
        bad = wind_misses(seated, state.counts, state.played, field.subs_flag)
        if not bad:
            break
        x = bad[rng.randrange(len(bad))]
        r = first + rng.randrange(sessions)
        others = [y for t in sched.rounds[r] if x not in t for y in t if sched.swap_delta(r, x, y) <= 0]
        best = None
        for y in rng.sample(others, min(len(others), AHEAD_CANDIDATES)):
            sched.apply_swap(r, x, y)
            tried, now = settle_winds(sched.rounds[first:], state.counts, state.played, field.subs_flag, rng,
                                      iters=AHEAD_SETTLE_ITERS, recolour=recolour)
            sched.apply_swap(r, x, y)
            if now <= left and (best is None or now < best[0]):
                best = (now, y, tried)
        if best is not None:
            left, y, seated = best
            sched.apply_swap(r, x, y)
    return seated


def _greedy_round(field: _Field, state: _History, rng: random.Random) -> S.Schedule:
    """Strategy 5 (no known end): a greedy round improved by a tabu search."""
    rnd = S.greedy_round(state.pc, list(range(field.n)), rng)
    for t in rnd:
        state.pc.add_table(t)
    sched = S.Schedule(state.pc, state.fixed + [rnd], mutable=[len(state.fixed)])
    S.tabu(sched, rng, max_iter=_max_iter(field.n, 1), evals=_evals(field.n, SESSION_EVALS))
    return sched


def _keep_first(sched: S.Schedule, r: int) -> S.Schedule:
    """Drop look-ahead rounds after round r from the schedule and its pair counts."""
    if len(sched.rounds) <= r + 1:
        return sched
    for rnd in sched.rounds[r + 1:]:
        for t in rnd:
            sched.pc.add_table(t, -1)
    return S.Schedule(sched.pc, sched.rounds[:r + 1], mutable=[r], affinity=sched.affinity)


def _separate_single_winds(sched: S.Schedule, cost_of: dict[int, list[int]], n: int, rng: random.Random) -> None:
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
    S.tabu(sched, rng, max_iter=_max_iter(n, 1), evals=_evals(n, SESSION_EVALS))


def _design_repair_budget(sched: S.Schedule, r: int, cost_of: dict[int, list[int]], total: int | None) -> int:
    """Keep a design round intact, so that the remaining sessions stay zero-repeat; with no known end,
    rather repair a seating that leaves a wind out of balance."""
    worst = max(best_seating(t, cost_of)[0] - sum(min(cost_of[p]) for p in t) for t in sched.rounds[r])
    return WIND_REPAIR_ITERS if total is None and worst >= WIND_ACCEPTABLE else 0


def draw_session(players: Sequence[int], *, seed: int, history: Sequence[Sequence[Sequence[int]]] = (),
                 groups: Mapping[int, Hashable] | None = None, substitutes: Sequence[int] = (),
                 ranking: Sequence[int] | None = None, total_sessions: int | None = None,
                 history_seeds: Sequence[int] | None = None,
                 ahead: Sequence[Sequence[Sequence[int]]] | None = None,
                 fixed: Mapping[int, int] | None = None) -> list[Table]:
    """The tables of the next session given all previous sessions' tables (E, S, W, N).

    ``history_seeds`` (the seed each earlier session was drawn with) lets the draw find the plan it is
    following: while the field does not change, the session drawn is the next one of that plan (which keeps
    teams apart and winds balanced to the end); a changed field re-plans the remaining sessions.

    ``players`` are the active players now (withdrawn players left out, late players in).
    ``ranking`` (best first) asks for Swiss seating: ranks 1-4 at table 1, 5-8 at table 2 ...
    ``total_sessions`` makes the draw a plan of the remaining sessions with the played ones fixed (no repeats,
    groups apart, every seat wind ending within floor/ceil), of which this session is the first.
    ``ahead`` (with ``total_sessions``): the sessions already drawn from this one on, before the field changed;
    they are the plan in force, repaired where the field changed (who left gives their seats to who came)
    unless a fresh plan does better.

    ``fixed`` maps a player with access needs to the table number they keep (1 is the first table): the
    tables are numbered around them (see `place_fixed_tables`).

    The first strategy that applies: follow the up-front plan (same seed, same field), Swiss, plan ahead, or
    (no known end) continue a design or a greedy round with a tabu search, then settle the seat winds.
    """
    tables = _draw_session(players, seed=seed, history=history, groups=groups, substitutes=substitutes,
                           ranking=ranking, total_sessions=total_sessions, history_seeds=history_seeds, ahead=ahead,
                           fixed=fixed or {})
    return place_fixed_tables(tables, fixed or {}, history, groups, substitutes)


def replan_sessions(players: Sequence[int], *, seed: int, history: Sequence[Sequence[Sequence[int]]],
                    ahead: Sequence[Sequence[Sequence[int]]], total_sessions: int,
                    groups: Mapping[int, Hashable] | None = None, substitutes: Sequence[int] = (),
                    fixed: Mapping[int, int] | None = None) -> list[list[Table]]:
    """The sessions drawn ahead (``ahead``: drawn, not played; the sessions after ``history``) drawn again for
    the players now, as one re-plan: the first as `draw_session` draws it with ``ahead`` (the plan in force
    repaired, or a fresh plan of the remaining sessions if that has fewer flaws), the later ones the following
    sessions of that same re-plan. Drawing each later session on its own, from the old sessions again, would
    repair them against another history each time: sessions that no longer fit the plan the first one was chosen
    for (repeats, clashes, winds off floor/ceil), and a search per session."""
    fixed = fixed or {}
    followed: list[Sequence[Table]] = []
    first = _draw_session(players, seed=seed, history=history, groups=groups, substitutes=substitutes, ranking=None,
                          total_sessions=total_sessions, history_seeds=None, ahead=ahead, fixed=fixed,
                          followed=followed)
    out = [place_fixed_tables(first, fixed, history, groups, substitutes)]
    for i in range(1, len(ahead)):
        past = [*history, *out]
        if i < len(followed) and _seated(followed[i]) == _seated(first):
            tables = [tuple(t) for t in followed[i]]
            out.append(place_fixed_tables(tables, fixed, past, groups, substitutes))
        else:  # no re-plan to follow (or one seating another field): the session drawn from the old one
            out.append(draw_session(players, seed=seed, history=past, groups=groups, substitutes=substitutes,
                                    total_sessions=total_sessions, ahead=ahead[i:], fixed=fixed))
    return out


def _draw_session(players: Sequence[int], *, seed: int, history: Sequence[Sequence[Sequence[int]]],
                  groups: Mapping[int, Hashable] | None, substitutes: Sequence[int],
                  ranking: Sequence[int] | None, total_sessions: int | None,
                  history_seeds: Sequence[int] | None, ahead: Sequence[Sequence[Sequence[int]]] | None,
                  fixed: Mapping[int, int], followed: list[Sequence[Table]] | None = None) -> list[Table]:
    field = _draw_field(players, substitutes, history, groups, _fixed_key(fixed))
    k = len(history) + 1
    total = total_sessions if total_sessions and total_sessions >= k else None
    rng = random.Random(seed)

    planned = None if ahead else _follow_plan(players, history, field, seed=seed, groups=groups,
                                              substitutes=substitutes, total=total, ranking=ranking, fixed=fixed)
    if planned is not None:
        return planned

    state = _load_history(history, field)
    if ranking is not None:
        return _swiss_tables(field, state, ranking, (total - k) if total is not None else 0)
    if total is not None:
        if ahead:
            prior = tuple(tuple(tuple(int(p) for p in t) for t in rnd) for rnd in ahead)[:total - k + 1]
        else:
            in_force = _plan_in_force(history, history_seeds or (), groups, substitutes, total, fixed)
            prior = in_force[k - 1:] if in_force is not None else None
        if prior is not None and _seated(prior[0]) == set(field.ids) and not _flaws(prior[0], history, groups,
                                                                                      field):
            if followed is not None:
                followed[:] = prior
            return list(prior[0])
        actives = tuple(sorted(p for p in field.ids if not field.subs_flag[field.index[p]]))
        used = tuple(sorted(p for p in field.ids if field.subs_flag[field.index[p]]))
        past = tuple(tuple(tuple(int(p) for p in t) for t in rnd) for rnd in history)
        replanned = _replan_cached(prior, actives, used, past, int(seed), _group_key(groups), total,
                                   _fixed_key(fixed))
        if followed is not None:
            followed[:] = replanned
        return list(replanned[0])

    cont = _design_continuation(field, state, rng, history)
    cost_of = _wind_costs(field, state, 0)
    in_design = bool(cont)
    sched = _design_round(state, cont, cost_of) if in_design else _greedy_round(field, state, rng)
    r = len(state.fixed)
    if not in_design:
        _separate_single_winds(sched, cost_of, field.n, rng)
    repair = _design_repair_budget(sched, r, cost_of, total) if in_design else WIND_REPAIR_ITERS
    seated = _wind_phase(sched, r, cost_of, rng, max_iter=repair)
    return [tuple(field.ids[p] for p in t) for t in seated]  # type: ignore[misc]


def _flaws(tables: Sequence[Sequence[int]], history: Sequence[Sequence[Sequence[int]]],
           groups: Mapping[int, Hashable] | None, field: _Field) -> int:
    """Repeats (weighted above everything) and team/club or substitute pairs at the tables of one session."""
    met = {frozenset((int(a), int(b))) for rnd in history for t in rnd for i, a in enumerate(t) for b in t[i + 1:]}
    subs = {p for p in field.ids if field.subs_flag[field.index[p]]}
    groups = groups or {}
    bad = 0
    for t in tables:
        for i, a in enumerate(t):
            for b in t[i + 1:]:
                if frozenset((a, b)) in met and a not in subs and b not in subs:
                    bad += 100
                elif (groups.get(a) is not None and groups.get(a) == groups.get(b)) or (a in subs and b in subs):
                    bad += 1
    return bad


def _plan_flaws(rounds: Sequence[Sequence[Sequence[int]]], history: Sequence[Sequence[Sequence[int]]],
                groups: Mapping[int, Hashable] | None, field: _Field) -> int:
    """_flaws of every remaining session, plus players who end with a seat wind off floor/ceil."""
    past = [list(r) for r in history]
    bad = 0
    for rnd in rounds:
        bad += _flaws(rnd, past, groups, field)
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


def _plan_in_force(history: Sequence[Sequence[Sequence[int]]], seeds: Sequence[int],
                   groups: Mapping[int, Hashable] | None, substitutes: Sequence[int],
                   total: int, fixed: Mapping[int, int] | None = None) -> tuple[tuple[Table, ...], ...] | None:
    """The plan (every session 1..total) the history has followed so far, or None.

    Session j was drawn from the players seated in it and seed j: either it is the next session of the plan
    in force before it (kept), or the first of a new plan of the remaining sessions with sessions 1..j-1
    fixed (made again here, from the same inputs). A swapped, Swiss or otherwise unknown session leaves no
    plan in force until a later session starts one."""
    if len(seeds) != len(history) or not history:
        return None
    subs = {int(s) for s in substitutes}
    plan: tuple[tuple[Table, ...], ...] | None = None

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
            rounds = _replan_cached(plan[j:] if plan is not None else None, actives, used, past, int(seed),
                                    _group_key(groups), total, _fixed_key(fixed))
        except DrawError:
            rounds = None
        plan = past + rounds if rounds is not None and drawn(rounds[0], j) else None  # type: ignore[operator]
    return plan


def _seated(tables: Sequence[Sequence[int]]) -> set[int]:
    return {int(p) for t in tables for p in t}


@functools.lru_cache(maxsize=64)
def _replan_cached(prior: tuple[tuple[Table, ...], ...] | None, actives: tuple[int, ...], used: tuple[int, ...],
                   past: tuple[tuple[Table, ...], ...], seed: int, groups: tuple[tuple[int, int], ...] | None,
                   total: int, fixed_ids: tuple[int, ...] = ()) -> tuple[tuple[Table, ...], ...]:
    """Sessions len(past)+1..total drawn from this field when ``prior`` (the same sessions of the plan in force,
    or None) no longer does: the plan in force repaired where the field changed (who left gives their seats to
    who came), or a fresh plan of the remaining sessions, whichever has fewer flaws over all of them (repeats,
    then team/club and substitute pairs, then players whose winds end off floor/ceil); the plan in force kept
    as it is when the field is the same and no fresh plan does better. When the field seats fewer tables than
    a played session, a flawed plan in force is first searched again (`_search_again`)."""
    group_map = dict(groups) if groups else None
    field = _draw_field(actives, used, past, group_map, fixed_ids)
    repaired = None
    if prior is not None:
        if _seated(prior[0]) == set(field.ids):
            repaired = prior
        else:
            state = _load_history(past, field)
            rounds = _repair_plan(prior, field, state, random.Random(seed))
            if rounds is not None:
                repaired = tuple(tuple(tuple(field.ids[p] for p in t) for t in rnd)  # type: ignore[misc]
                                 for rnd in rounds)
        if repaired is not None and not _plan_flaws(repaired, past, group_map, field):
            return repaired
        if repaired is not None and _fewer_tables(past, field):
            again = _search_again(repaired, field, _load_history(past, field), random.Random(seed))
            if again is not None and _plan_flaws(again, past, group_map, field) < _plan_flaws(
                    repaired, past, group_map, field):
                repaired = again
    fresh = _ahead_cached(actives, used, past, seed, groups, total, fixed_ids)
    if repaired is not None and _plan_flaws(repaired, past, group_map, field) <= _plan_flaws(
            fresh[:len(repaired)], past, group_map, field):
        return repaired
    return fresh


def _fewer_tables(past: Sequence[Sequence[Sequence[int]]], field: _Field) -> bool:
    """The field seats fewer tables than a session already played (players left and no substitute was called)."""
    return any(len(rnd) > field.n // 4 for rnd in past)


def _searched(rounds: list[list[list[int]]], field: _Field, state: _History, rng: random.Random,
              evals: int) -> list[list[list[int]]]:
    """The planned `rounds` (field indices) after a tabu search of them with the played sessions fixed, or as
    they are when their cost is already the lower bound."""
    pc = _history_costs(field, state)
    target = S.cost_lower_bound(pc, len(rounds))
    for rnd in rounds:
        for t in rnd:
            pc.add_table(t)
    first = len(state.fixed)
    sched = S.Schedule(pc, state.fixed + rounds, mutable=range(first, first + len(rounds)))
    if sched.cost() > target:
        S.tabu(sched, rng, max_iter=_max_iter(field.n, len(rounds)), target=target,
               evals=_evals(field.n, evals))
    return sched.rounds[first:]


def _search_again(rounds: Sequence[Sequence[Sequence[int]]], field: _Field, state: _History,
                  rng: random.Random) -> tuple[tuple[Table, ...], ...] | None:
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
        seated = _seat_ahead(field, state, seated, rng, recolour=False)
        if wind_misses(seated, state.counts, state.played, field.subs_flag):
            return None  # fewer repeats are not worth a player's seat winds off floor/ceil
    return tuple(tuple(tuple(field.ids[p] for p in t) for t in rnd) for rnd in seated)  # type: ignore[misc]


def _slot_cost(pc: S.PairCosts, rounds: Sequence[Sequence[Sequence[int]]], player: int, slot: int) -> int:
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


def _repair_plan(prior: Sequence[Sequence[Sequence[int]]], field: _Field, state: _History,
                 rng: random.Random) -> list[list[list[int]]] | None:
    """The remaining sessions of the plan in force over this field's indices, each seat of a player who left
    (withdrawn, absent, a substitute no longer needed or not their turn) taken by one who came (a late
    arrival, a returning player, the substitute whose turn it is), or None when the number of tables changed.

    Everyone else keeps their table and seat, so what the plan promised them (no repeats, teams apart, winds
    ending within floor/ceil) still holds. Who takes which seats is the assignment of least pair cost; a
    tabu search then removes what the newcomers still cause where it can, and their winds are settled."""
    seated = [_seated(rnd) for rnd in prior]
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
        rounds = _dissolve_tables(rounds, fewer // 4, arrivals, _history_costs(field, state))
    else:
        cost = [[_slot_cost(state.pc, rounds, f, -1 - i) for i in range(len(departed))] for f in arrivals]
        order = _assign(cost)
        taker = {-1 - i: arrivals[a] for a, i in enumerate(order)}
        rounds = [[[taker[p] if p < 0 else p for p in t] for t in rnd] for rnd in rounds]
    rounds = _searched(rounds, field, state, rng, PLAN_EVALS * 4 if fewer else LOOKAHEAD_EVALS)
    if not wind_misses(rounds, state.counts, state.played, field.subs_flag):
        return rounds
    return _seat_ahead(field, state, rounds, rng, recolour=False)


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


def _dissolve_tables(rounds: list[list[list[int]]], tables: int, arrivals: Sequence[int],
                     pc: S.PairCosts) -> list[list[list[int]]]:
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


def _group_key(groups: Mapping[int, Hashable] | None) -> tuple[tuple[int, int], ...] | None:
    if not groups:
        return None
    keys: dict[Hashable, int] = {}
    return tuple(sorted((int(p), keys.setdefault(g, len(keys))) for p, g in
                        sorted(groups.items(), key=lambda kv: int(kv[0])) if g is not None))


@functools.lru_cache(maxsize=64)
def _ahead_cached(actives: tuple[int, ...], used: tuple[int, ...], past: tuple[tuple[Table, ...], ...], seed: int,
                  groups: tuple[tuple[int, int], ...] | None, total: int,
                  fixed_ids: tuple[int, ...] = ()) -> tuple[tuple[Table, ...], ...]:
    """Sessions len(past)+1..total as draw_session plans them (its first session is what it publishes)."""
    group_map = dict(groups) if groups else None
    if not past:
        return _plan_cached(actives, total, seed, groups, used, fixed_ids)
    field = _draw_field(actives, used, past, group_map, fixed_ids)
    state = _load_history(past, field)
    rng = random.Random(seed)
    cont = _design_continuation(field, state, rng, past)
    seated = _plan_ahead(field, state, cont, total - len(past), rng)
    return tuple(tuple(tuple(field.ids[p] for p in t) for t in rnd) for rnd in seated)  # type: ignore[misc]


def _swiss_tables(field: _Field, state: _History, ranking: Sequence[int], sessions_left: int) -> list[Table]:
    """Strictly by the standings: ranks 1-4 at table 1, 5-8 at table 2 ... (repeats allowed: that is a Swiss
    final). Substitutes, never ranked, take one seat each at the last tables; each table's seat order is the
    one that keeps its players' winds best balanced."""
    order = [i for i in _swiss_order(field, ranking) if not field.subs_flag[i]]
    subs = [i for i in range(field.n) if field.subs_flag[i]]
    tables = field.n // 4
    per = [0] * tables
    for i in range(len(subs)):
        per[tables - 1 - i % tables] += 1
    cost_of = _wind_costs(field, state, sessions_left)
    out: list[Table] = []
    at = 0
    for t in range(tables):
        members = order[at:at + 4 - per[t]] + [subs.pop() for _ in range(per[t])]
        at += 4 - per[t]
        out.append(tuple(field.ids[p] for p in best_seating(members, cost_of)[1]))  # type: ignore[arg-type]
    return out


def place_fixed_tables(tables: Sequence[Sequence[int]], fixed: Mapping[int, int],
                       history: Sequence[Sequence[Sequence[int]]] = (), groups: Mapping[int, Hashable] | None = None,
                       substitutes: Sequence[int] = (), strict: bool = True) -> list[Table]:
    """The tables of one session numbered so that every seated player with a fixed table (player -> number,
    from 1) sits at that number; the other tables keep their order in the numbers left.

    Two such players drawn at one table are first moved apart: the later one changes places with the player in
    the same seat (so both keep their seat wind) at a table with no fixed player, where that makes the fewest
    repeats, team/club pairs and substitute pairs. ``strict``: a number beyond the tables or given to two
    players present is a DrawError (else such players are left where they are)."""
    out = [list(t) for t in tables]
    here = {int(p): int(n) for p, n in fixed.items() if any(int(p) in t for t in out)}
    problems = sorted(p for p, n in here.items() if not 1 <= n <= len(out))
    if problems and strict:
        raise DrawError(msg_n("player %(player)s keeps table %(table)s, but there is only %(num)d table",
                              "player %(player)s keeps table %(table)s, but there are only %(num)d tables",
                              len(out), player=problems[0], table=here[problems[0]]))
    taken: dict[int, int] = {}
    for p in sorted(here):
        n = here[p]
        if n in taken:
            if strict:
                raise DrawError(msg("players %(first)s and %(second)s both keep table %(table)s: one player per "
                                    "fixed table", first=taken[n], second=p, table=n))
            continue
        if 1 <= n <= len(out):
            taken[n] = p
    keep = {p: n for n, p in taken.items()}
    met = {frozenset((int(a), int(b))) for rnd in history for t in rnd for i, a in enumerate(t) for b in t[i + 1:]}
    subs = {int(s) for s in substitutes}
    groups = groups or {}

    def flaws(t: Sequence[int]) -> int:
        bad = 0
        for i, a in enumerate(t):
            for b in t[i + 1:]:
                if frozenset((a, b)) in met and a not in subs and b not in subs:
                    bad += 100
                elif (groups.get(a) is not None and groups.get(a) == groups.get(b)) or (a in subs and b in subs):
                    bad += 1
        return bad

    for ti, t in enumerate(out):
        while sum(p in keep for p in t) > 1:
            x = [p for p in t if p in keep][-1]
            seat = t.index(x)
            best = None
            for tj, u in enumerate(out):
                if tj == ti or any(p in keep for p in u):
                    continue
                a, b = list(t), list(u)
                a[seat], b[seat] = u[seat], x
                cost = flaws(a) + flaws(b)
                if best is None or cost < best[0]:
                    best = (cost, tj)
            if best is None:
                raise DrawError(msg("more players keep a fixed table than there are tables"))
            u = out[best[1]]
            t[seat], u[seat] = u[seat], x
    numbered: list[Table | None] = [None] * len(out)
    rest = []
    for t in out:
        n = next((keep[p] for p in t if p in keep), None)
        if n is None:
            rest.append(tuple(t))
        else:
            numbered[n - 1] = tuple(t)  # type: ignore[assignment]
    free = iter(rest)
    return [t if t is not None else next(free) for t in numbered]  # type: ignore[misc]


__all__ = ["plan_tournament", "draw_session", "place_fixed_tables", "wind_counts"]
