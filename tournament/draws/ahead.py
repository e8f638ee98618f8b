"""Planning ahead: this session and the remaining ones as one plan, the played sessions fixed, of which a draw
publishes the first; a design continued where the history is part of one; every seat wind ending within
floor/ceil."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from . import search
from .budgets import LOOKAHEAD_EVALS, SESSION_EVALS, scaled_evals, tabu_iters
from .designs import design_rounds, match_design
from .field import Apart, Field, History, draw_field, history_costs, load_history
from .model import Plan, RoundList, Rounds
from .plan import plan_cached, plan_rounds
from .winds import settle_winds, wind_misses

MATCH_BUDGET = 3_000  # backtracking steps to recognise a history as part of a design
AHEAD_REPAIRS = 40  # player swaps tried to let every seat wind of a look-ahead plan end within floor/ceil
AHEAD_CANDIDATES = 8  # swaps compared per try
AHEAD_SETTLE_ITERS = 1_000  # seat swaps per candidate


def design_continuation(field: Field, state: History, rng: random.Random, history: Rounds = ()) -> RoundList:
    """The unused rounds of the zero-repeat design the history is part of (relabelled), if it is one:
    e.g. sessions drawn one by one with a different seed each time.

    A player who left is replaced, for this match only, by one who never played (a substitute or a late
    arrival): the newcomer takes over the leaver's place in the design, so the design still continues. None
    where teams come first: a design is zero-repeat, not teams apart."""
    n = field.n
    if not state.fixed or (field.teams_first and any(g is not None for g in field.grp)):
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


def _clean_first(field: Field, state: History, new: RoundList,
                 rng: random.Random) -> RoundList:
    """Unavoidable repeats or clashes of a look-ahead belong in its later sessions, which a later draw plans
    again: the session published now is searched alone against the history, then the later ones refitted."""
    pc = field.pair_costs()
    for rnd in state.fixed + new[:1]:
        for t in rnd:
            pc.add_table(t)
    first = len(state.fixed)
    sched = search.Schedule(pc, state.fixed + new[:1], mutable=[first])
    if sched.cost() <= search.cost_lower_bound(history_costs(field, state), 1):
        return new
    search.tabu(sched, rng, max_iter=tabu_iters(field.n, 1), evals=scaled_evals(field.n, SESSION_EVALS))
    for rnd in new[1:]:
        for t in rnd:
            pc.add_table(t)
    rest = search.Schedule(pc, sched.rounds + new[1:], mutable=range(first + 1, first + len(new)))
    search.tabu(rest, rng, max_iter=tabu_iters(field.n, len(new) - 1), evals=scaled_evals(field.n, LOOKAHEAD_EVALS))
    return rest.rounds[first:]


def _ends_balanced(counts: Sequence[int], played: int, wind: int) -> bool:
    total = played + 1
    return all(total // 4 <= c + (w == wind) <= -(-total // 4) for w, c in enumerate(counts))


def plan_ahead(field: Field, state: History, cont: RoundList, sessions: int, rng: random.Random) -> RoundList:
    """Strategy 4: plan this and the remaining sessions as a whole plan is made, the played sessions fixed, and
    seat all of them so that every player's winds end within floor/ceil; only the first is published.

    Seat winds whose history is fixed may need other tables: a player left off balance swaps tables (in any
    planned session) with someone whose swap adds no repeat or clash, while that lowers the players off."""
    wind_pairs: list[tuple[int, int]] = []
    if sessions == 1:
        # the last session: two players who each need the same one wind to end balanced sit apart
        need = {}
        for p in range(field.n):
            ok = [w for w in range(4) if not field.subs_flag[p] and _ends_balanced(state.counts[p], state.played[p], w)]
            if len(ok) == 1:
                need[p] = ok[0]
        wind_pairs = [(p, q) for p in need for q in need if p != q and need[p] == need[q]]
    new = plan_rounds(field, sessions, rng, history=state.fixed, start=cont, wind_pairs=wind_pairs)
    if sessions > 1:
        new = _clean_first(field, state, new, rng)
    return seat_ahead(field, state, new, rng)


def seat_ahead(field: Field, state: History, new: RoundList, rng: random.Random,
               recolour: bool = True) -> RoundList:
    """Seat orders for the planned sessions so that every player's winds end within floor/ceil of the sessions
    they play; players still off swap tables with someone whose swap adds no repeat or clash."""
    sessions = len(new)
    seated, left = settle_winds(new, state.counts, state.played, field.subs_flag, rng, recolour=recolour)
    if not left:
        return seated
    pc = field.pair_costs()
    # without recolouring, the swaps start from the seat orders just settled
    start = [[list(t) for t in rnd] for rnd in (new if recolour else seated)]
    for rnd in state.fixed + start:
        for t in rnd:
            pc.add_table(t)
    first = len(state.fixed)
    sched = search.Schedule(pc, state.fixed + start, mutable=range(first, first + sessions))
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


@functools.lru_cache(maxsize=64)
def ahead_cached(actives: tuple[int, ...], used: tuple[int, ...], past: Plan, seed: int, apart: Apart,
                 total: int) -> Plan:
    """Sessions len(past)+1..total as draw_session plans them (its first session is what it publishes)."""
    if not past:
        return plan_cached(actives, total, seed, apart, used)
    field = draw_field(actives, used, past, apart)
    state = load_history(past, field)
    rng = random.Random(seed)
    cont = design_continuation(field, state, rng, past)
    seated = plan_ahead(field, state, cont, total - len(past), rng)
    return tuple(tuple(tuple(field.ids[p] for p in t) for t in rnd) for rnd in seated)  # type: ignore[misc]
