"""Seating search over internal player indices 0..n-1.

The state is a schedule (list of rounds, a round a list of tables of four indices)
plus a symmetric pair-meeting count matrix that also holds the fixed history.  The
cost of a schedule is a sum over pairs of

    wrep * max(0, c - 1) + sec * max(0, c - 1) ** 2 + clash * c

where c is the number of meetings of the pair.  ``wrep`` is REPEAT for two players
(so an excess repeat dominates everything else), smaller when a substitute is involved;
the square term spreads unavoidable repeats (lowest "most meetings"); ``clash`` is
CLASH for two members of the same team/club, and for two substitutes (spread one per table).  An optional per-round affinity
(player, table) -> cost serves Swiss seating.

Construction is greedy round by round; repair is a tabu search in the style of Dotu &
Van Hentenryck (pick a player in conflict, move it by the best swap with a player at
another table of the same round, tabu on returning, perturbation on stagnation).  All
randomness comes from a ``random.Random`` seeded by the caller, and all limits are
iteration counts, never wall time, so results are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .model import RoundList

REPEAT = 1_000_000
CLASH = 10_000
APART = 10 * REPEAT  # two players who each keep a different fixed table cannot share one
TEAMS_FIRST_CLASH = 5 * REPEAT  # teammates together, where teams apart come first: worse than a few repeats
SUB_REPEAT = 100


class PairCosts:
    """Pair weights and meeting counts, flat n*n lists for speed."""

    def __init__(self, n: int, *, subs: Sequence[bool] = (), groups: Sequence[int | None] = (),
                 apart: Sequence[bool] = (), clash: int = CLASH) -> None:
        self.n = n
        size = n * n
        self.cnt = [0] * size
        self.wrep = [REPEAT] * size
        self.sec = [1] * size
        self.clash = [0] * size
        is_sub = list(subs) or [False] * n
        grp = list(groups) or [None] * n
        for a in range(n):
            row = a * n
            for b in range(n):
                i = row + b
                if is_sub[a] or is_sub[b]:
                    self.wrep[i] = SUB_REPEAT if not (is_sub[a] and is_sub[b]) else 1
                    self.sec[i] = 0
                if a != b and grp[a] is not None and grp[a] == grp[b]:
                    self.clash[i] = clash
                elif a != b and is_sub[a] and is_sub[b]:
                    self.clash[i] = CLASH  # substitutes spread one per table, like a team
                if a != b and apart and apart[a] and apart[b]:
                    self.clash[i] += APART

        # marginal costs, kept up to date with the counts: ``inc[i]`` of one more meeting
        # of pair i, ``dec[i]`` saved by one meeting fewer (meaningful when cnt[i] >= 1)
        self.inc = list(self.clash)
        self.dec = list(self.clash)

    def _margins(self, i: int) -> None:
        c = self.cnt[i]
        cl = self.clash[i]
        self.inc[i] = cl + (self.wrep[i] + self.sec[i] * (2 * c - 1) if c >= 1 else 0)
        self.dec[i] = cl + (self.wrep[i] + self.sec[i] * (2 * c - 3) if c >= 2 else 0)

    def add_clash(self, a: int, b: int, amount: int) -> None:
        """Raise the clash weight of the ordered pair (a, b) (callers add both orders)."""
        i = a * self.n + b
        self.clash[i] += amount
        self._margins(i)

    def add_table(self, table: Sequence[int], sign: int = 1) -> None:
        n, cnt, wrep, sec, clash, inc, dec = self.n, self.cnt, self.wrep, self.sec, self.clash, self.inc, self.dec
        for x in range(len(table)):
            a = table[x]
            for y in range(x + 1, len(table)):
                b = table[y]
                for i in (a * n + b, b * n + a):
                    c = cnt[i] + sign
                    cnt[i] = c
                    cl = clash[i]
                    inc[i] = cl + (wrep[i] + sec[i] * (2 * c - 1) if c >= 1 else 0)
                    dec[i] = cl + (wrep[i] + sec[i] * (2 * c - 3) if c >= 2 else 0)

    def pair_cost(self, i: int) -> int:
        c = self.cnt[i]
        e = c - 1 if c > 1 else 0
        return self.wrep[i] * e + self.sec[i] * e * e + self.clash[i] * c

    def total(self) -> int:
        n = self.n
        return sum(self.pair_cost(a * n + b) for a in range(n) for b in range(a + 1, n))

    def add_cost(self, a: int, members: Sequence[int]) -> int:
        """Cost increase of seating ``a`` with ``members`` (one more meeting each)."""
        n, cnt, wrep, sec, clash = self.n, self.cnt, self.wrep, self.sec, self.clash
        d = 0
        row = a * n
        for b in members:
            i = row + b
            c = cnt[i]
            d += clash[i]
            if c:
                d += wrep[i] + sec[i] * (2 * c - 1)
        return d


class Schedule:
    """Mutable rounds with positions, over a PairCosts whose counts include them."""

    def __init__(self, pc: PairCosts, rounds: RoundList, mutable: Sequence[int],
                 affinity: dict[int, list[list[int]]] | None = None) -> None:
        self.pc = pc
        self.rounds = rounds
        self.mutable = list(mutable)
        self.affinity = affinity or {}
        self.where: list[dict[int, int]] = []
        for rnd in rounds:
            w = {}
            for ti, t in enumerate(rnd):
                for p in t:
                    w[p] = ti
            self.where.append(w)

    def cost(self) -> int:
        c = self.pc.total()
        for r, aff in self.affinity.items():
            for ti, t in enumerate(self.rounds[r]):
                for p in t:
                    c += aff[p][ti]
        return c

    def swap_delta(self, r: int, x: int, y: int) -> int:
        pc = self.pc
        n, inc, dec = pc.n, pc.inc, pc.dec
        w = self.where[r]
        t1, t2 = w[x], w[y]
        d = 0
        rx, ry = x * n, y * n
        for t in self.rounds[r][t1]:
            if t != x:
                d += inc[ry + t] - dec[rx + t]
        for u in self.rounds[r][t2]:
            if u != y:
                d += inc[rx + u] - dec[ry + u]
        aff = self.affinity.get(r)
        if aff is not None:
            d += aff[x][t2] + aff[y][t1] - aff[x][t1] - aff[y][t2]
        return d

    def apply_swap(self, r: int, x: int, y: int) -> None:
        w = self.where[r]
        t1, t2 = w[x], w[y]
        tab1, tab2 = self.rounds[r][t1], self.rounds[r][t2]
        self.pc.add_table(tab1, -1)
        self.pc.add_table(tab2, -1)
        tab1[tab1.index(x)] = y
        tab2[tab2.index(y)] = x
        w[x], w[y] = t2, t1
        self.pc.add_table(tab1, 1)
        self.pc.add_table(tab2, 1)

    def snapshot(self) -> RoundList:
        return [[list(t) for t in self.rounds[r]] for r in self.mutable]

    def restore(self, snap: RoundList) -> None:
        for r, rnd in zip(self.mutable, snap, strict=True):
            for t in self.rounds[r]:
                self.pc.add_table(t, -1)
            self.rounds[r] = [list(t) for t in rnd]
            for t in self.rounds[r]:
                self.pc.add_table(t, 1)
            w = self.where[r]
            for ti, t in enumerate(self.rounds[r]):
                for p in t:
                    w[p] = ti


def greedy_round(pc: PairCosts, players: Sequence[int], rng: random.Random,
                 affinity: list[list[int]] | None = None, ranked: bool = False) -> list[list[int]]:
    """One round by greedy table filling (the counts of ``pc`` are not changed).

    Tables are opened in a random order (``ranked``: in the given order, for Swiss
    seating); each takes its opener then three times the unplaced player of least added
    cost, ties going to the earliest in that order.
    """
    pool = list(players) if ranked else rng.sample(list(players), len(players))
    placed = [False] * pc.n
    tables: list[list[int]] = []
    for opener in pool:
        if placed[opener]:
            continue
        ti = len(tables)
        table = [opener]
        placed[opener] = True
        for _ in range(3):
            best = -1
            best_cost = None
            for cand in pool:
                if placed[cand]:
                    continue
                c = pc.add_cost(cand, table)
                if affinity is not None:
                    c += affinity[cand][ti]
                if best_cost is None or c < best_cost:
                    best, best_cost = cand, c
                    if c == 0:
                        break
            table.append(best)
            placed[best] = True
        tables.append(table)
    return tables


def cost_lower_bound(pc: PairCosts, new_rounds: int, players: Sequence[int] | None = None) -> int:
    """A lower bound on ``pc.total()`` after ``new_rounds`` more rounds in which each of
    ``players`` (default: everyone) meets three others.

    Per player p: the cost of p's pairs is at least the current cost plus the 3 * rounds
    cheapest increments, taking partners in order of marginal cost (each pair's cost is
    convex in its count, so the greedy choice is optimal for p alone).  Every pair is
    counted from both ends, hence the half.  With no history it is the pair-counting
    bound: 3S meetings over N - 1 partners, as evenly as possible.
    """
    n = pc.n
    cnt, wrep, sec, clash = pc.cnt, pc.wrep, pc.sec, pc.clash
    seated = set(range(n) if players is None else players)
    need_each = 3 * new_rounds
    total = 0
    for p in range(n):
        row = p * n
        total += sum(pc.pair_cost(row + q) for q in range(n) if q != p)
        if p not in seated or need_each == 0:
            continue
        # increments of each partner q: inc(c) = clash + wrep + sec * (2c - 1) for c >= 1
        state = []
        for q in seated:
            if q != p:
                i = row + q
                state.append([cnt[i], wrep[i], sec[i], clash[i]])
        extra = 0
        for _ in range(need_each):
            best_k, best_v = -1, None
            for k, (c, w, sc, cl) in enumerate(state):
                v = cl + (w + sc * (2 * c - 1) if c >= 1 else 0)
                if best_v is None or v < best_v:
                    best_k, best_v = k, v
                    if v == 0:
                        break
            if best_v is None:
                break
            extra += best_v
            state[best_k][0] += 1
        total += extra
    return (total + 1) // 2


def tabu(sched: Schedule, rng: random.Random, *, max_iter: int, target: int = 0,
         stall: int = 400, sample: int = 1000, evals: int = 1_000_000, restarts: int = 8) -> int:
    """Tabu repair of the mutable rounds; returns the best cost (the schedule is left at it).

    Each iteration scores every swap of up to ``sample // n`` players in conflict and makes
    the best one not tabu (aspiration: any new best).  Stops at ``target`` (a lower bound,
    so the optimum), after ``max_iter`` iterations, after about ``evals`` scored swaps (a
    deterministic budget) or on stagnation: ``stall`` iterations without a new best
    trigger a restart from the best with a random perturbation, and ``restarts`` such
    restarts in a row without a new best end the search.
    """
    pc = sched.pc
    n, inc, dec = pc.n, pc.inc, pc.dec
    rounds, where, affinity = sched.rounds, sched.where, sched.affinity
    cost = sched.cost()
    best = cost
    best_snap = sched.snapshot()
    if cost <= target or not sched.mutable:
        return cost
    nt = max(len(rnd) for rnd in rounds)
    # tabu_until[(r * n + player) * nt + table]: the player may not return to that table
    tabu_until = [0] * (len(rounds) * n * nt)
    last_improve = 0
    spent = 0
    fruitless = 0
    k = max(1, sample // n)
    mutable = sched.mutable
    # out[r][p]: cost saved by taking p away from its table in round r; p is in conflict
    # when it is positive (a repeat or a clash at its table) or p is off its affinity.
    # Kept up to date incrementally: a swap changes the counts of twelve pairs, and only
    # where such a pair shares a table does a player's ``out`` change.
    out = [[0] * n for _ in rounds]

    def refresh(r: int, p: int) -> None:
        row = p * n
        v = 0
        for q in rounds[r][where[r][p]]:
            if q != p:
                v += dec[row + q]
        out[r][p] = v

    def refresh_all() -> None:
        for r in mutable:
            for t in rounds[r]:
                for p in t:
                    refresh(r, p)

    def conflicts() -> list[tuple[int, int]]:
        confl = []
        for r in mutable:
            o = out[r]
            aff = affinity.get(r)
            if aff is None:
                confl.extend((r, p) for p in range(n) if o[p] > 0)
            else:
                w = where[r]
                confl.extend((r, p) for p in range(n) if p in w and (o[p] > 0 or aff[p][w[p]] > 0))
        return confl

    refresh_all()
    for it in range(1, max_iter + 1):
        if spent > evals:
            break
        confl = conflicts()
        if not confl:
            break
        picks = confl if len(confl) <= k else rng.sample(confl, k)
        best_move = None
        best_d = 0
        ties = 0
        for r, x in picks:
            w = where[r]
            o = out[r]
            rnd = rounds[r]
            aff = affinity.get(r)
            tx = w[x]
            others = [t for t in rnd[tx] if t != x]
            rx = x * n
            base = -o[x]
            tbase = (r * n) * nt
            tabu_x = tbase + x * nt
            spent += n
            for tj, t2 in enumerate(rnd):
                if tj == tx:
                    continue
                s2 = base
                for u in t2:
                    s2 += inc[rx + u]
                x_tabu = tabu_until[tabu_x + tj] > it
                for y in t2:
                    ry = y * n
                    d = s2 - inc[rx + y] - o[y]
                    for t in others:
                        d += inc[ry + t]
                    if aff is not None:
                        d += aff[x][tj] + aff[y][tx] - aff[x][tx] - aff[y][tj]
                    if best_move is not None and d > best_d:
                        continue
                    if (x_tabu or tabu_until[tbase + y * nt + tx] > it) and cost + d >= best:
                        continue
                    if best_move is None or d < best_d:
                        best_move, best_d, ties = (r, x, y), d, 1
                    else:
                        ties += 1
                        if rng.randrange(ties) == 0:
                            best_move = (r, x, y)
        if best_move is None:
            continue
        r, x, y = best_move
        w = where[r]
        tx, ty = w[x], w[y]
        moved = [(x, t) for t in rounds[r][tx] if t != x] + [(y, u) for u in rounds[r][ty] if u != y]
        sched.apply_swap(r, x, y)
        cost += best_d
        for a, b in moved:
            for pa, pb in ((a, b), (x if a == y else y, b)):
                for r2 in mutable:
                    w2 = where[r2]
                    if w2.get(pa, -1) == w2.get(pb, -2):
                        refresh(r2, pa)
                        refresh(r2, pb)
        tenure = 5 + rng.randrange(10)
        tabu_until[(r * n + x) * nt + tx] = it + tenure
        tabu_until[(r * n + y) * nt + ty] = it + tenure
        if cost < best:
            best = cost
            best_snap = sched.snapshot()
            last_improve = it
            fruitless = 0
            if best <= target:
                break
        elif it - last_improve > stall:
            fruitless += 1
            if fruitless > restarts:
                break
            # restart from the best with a random perturbation
            sched.restore(best_snap)
            for _ in range(3):
                r = sched.mutable[rng.randrange(len(sched.mutable))]
                rnd = rounds[r]
                if len(rnd) < 2:
                    continue
                a, b = rng.sample(range(len(rnd)), 2)
                sched.apply_swap(r, rnd[a][rng.randrange(4)], rnd[b][rng.randrange(4)])
            cost = sched.cost()
            last_improve = it
            tabu_until = [0] * len(tabu_until)
            refresh_all()
    if cost != best:
        sched.restore(best_snap)
    return best


def descent(sched: Schedule, r: int, max_pass: int = 20) -> None:
    """First-improvement descent over all swaps of two players of round r."""
    rnd = sched.rounds[r]
    where = sched.where[r]
    for _ in range(max_pass):
        improved = False
        players = [p for t in rnd for p in t]
        for i, x in enumerate(players):
            for y in players[i + 1:]:
                if where[x] == where[y]:
                    continue
                if sched.swap_delta(r, x, y) < 0:
                    sched.apply_swap(r, x, y)
                    improved = True
        if not improved:
            return
