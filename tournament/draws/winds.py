"""Seat winds: equitable colouring for a whole plan, greedy balance for one session.

Seat order in a table is East, South, West, North (index 0..3).

For a whole schedule the player-table graph is bipartite, every table has degree 4, so
it has an equitable 4-edge-colouring (de Werra): every table gets each wind once and
every player gets each wind floor(S/4) or ceil(S/4) times.  ``balance_winds`` finds it
by repeatedly taking two winds i, j, splitting the edges coloured i or j into trails
(pairing the edges at every player) and recolouring each trail alternately; afterwards
every player's counts of i and j differ by at most one.  The sum of squared counts
strictly drops whenever some player was off by two or more, so it terminates.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from .model import RoundList, Rounds

WINDS = 4
PERMS = list(itertools.permutations(range(4)))
PLAYERS_FIRST = 1_000  # settle_winds(players_first=True): a player's step off floor/ceil, against a substitute's


def wind_counts(tables: Sequence[Sequence[int]], n: int) -> list[list[int]]:
    counts = [[0] * WINDS for _ in range(n)]
    for t in tables:
        for w, p in enumerate(t):
            counts[p][w] += 1
    return counts


def _balance_pair(seats: list[list[int]], i: int, j: int, n: int) -> None:
    inc: list[list[int]] = [[] for _ in range(n)]
    for t, s in enumerate(seats):
        inc[s[i]].append(t)
        inc[s[j]].append(t)
    slot = {}
    for p in range(n):
        for k, t in enumerate(inc[p]):
            slot[(t, p)] = k
    done = [False] * len(seats)
    at_i = [-1] * len(seats)

    def walk(p: int, t: int) -> None:
        # p enters table t on an edge coloured i; its partner there gets j
        while True:
            done[t] = True
            a, b = seats[t][i], seats[t][j]
            q = b if a == p else a
            at_i[t] = p
            k = slot[(t, q)] ^ 1
            if k >= len(inc[q]):
                return
            t2 = inc[q][k]
            if done[t2]:
                return
            p, t = q, t2

    for p in range(n):
        if len(inc[p]) % 2 == 1:
            t = inc[p][-1]
            if not done[t]:
                walk(p, t)
    for t in range(len(seats)):
        if not done[t]:
            walk(seats[t][i], t)
    for t, s in enumerate(seats):
        if at_i[t] != s[i]:
            s[i], s[j] = s[j], s[i]


def balance_winds(seats: list[list[int]], n: int) -> None:
    """Permute the seats of every table in place so wind counts are equitable."""
    while True:
        counts = wind_counts(seats, n)
        changed = False
        for i in range(WINDS):
            for j in range(i + 1, WINDS):
                if any(abs(c[i] - c[j]) > 1 for c in counts):
                    _balance_pair(seats, i, j, n)
                    counts = wind_counts(seats, n)
                    changed = True
        if not changed:
            return


def seat_cost(counts: Sequence[int], played: int, total: int, wind: int) -> int:
    """Cost of one more ``wind`` for a player with ``counts`` over ``played`` sessions who
    will play ``total`` sessions in all (total >= played + 1).

    1000: the final floor/ceil can no longer be reached; 100: the counts so far are not
    within one of each other; plus the new count (prefer the least used wind).
    """
    c = list(counts)
    c[wind] += 1
    m = played + 1
    total = max(total, m)
    lo, hi = total // 4, -(-total // 4)
    cost = c[wind]
    if max(c) > hi or sum(max(0, lo - x) for x in c) > total - m:
        cost += 1000
    if max(c) - min(c) > 1:
        cost += 100
    return cost


def best_seating(table: Sequence[int], cost: dict[int, list[int]]) -> tuple[int, list[int]]:
    """Seat order of least summed cost; ``cost[p][w]`` per player and wind."""
    best = None
    best_perm: list[int] = list(table)
    for perm in PERMS:
        c = 0
        for w, k in enumerate(perm):
            c += cost[table[k]][w]
        if best is None or c < best:
            best, best_perm = c, [table[k] for k in perm]
    return best or 0, best_perm


def settle_winds(rounds: Rounds, counts: Sequence[Sequence[int]], played: Sequence[int],
                 secondary: Sequence[bool], rng: random.Random, iters: int = 20_000,
                 stall: int = 1_000, recolour: bool = True, players_first: bool = False) -> tuple[RoundList, int]:
    """Seat orders for the remaining ``rounds`` (tables of player indices) so that every player ends within
    floor/ceil of their own total (``played`` sessions with ``counts`` so far, plus the rounds they sit in).

    The history's winds are fixed, so de Werra's colouring alone does not do: it seats the new rounds
    equitably, then a walk swaps two seats of one table while that lowers (or keeps) the players' distance
    from their final floor/ceil. Players in ``secondary`` (substitutes) are balanced like the others, over the
    sessions they sit in (a substitute with E1 S2 W3 N0 was the price of leaving them out); the distance
    returned counts the others only (``players_first``: a step of a substitute's weighs a thousandth of
    another player's, as when a few tables of a plan are seated again). Returns the seated rounds and that
    distance (0: all of them balanced).
    ``recolour=False`` starts the walk from the seat orders given (a repaired plan whose seat orders already
    suit most players)."""
    n = len(counts)
    seats = [list(t) for rnd in rounds for t in rnd]
    if recolour:
        balance_winds(seats, n)
    sizes = [len(rnd) for rnd in rounds]
    cnt = [list(c) for c in counts]
    total = list(played)
    where: list[list[int]] = [[] for _ in range(n)]
    for ti, t in enumerate(seats):
        for w, p in enumerate(t):
            cnt[p][w] += 1
            total[p] += 1
            where[p].append(ti)
    lo = [x // 4 for x in total]
    hi = [-(-x // 4) for x in total]

    weight = [1 if secondary[p] or not players_first else PLAYERS_FIRST for p in range(n)]

    def off(p: int, c: Sequence[int]) -> int:
        a, b, d = lo[p], hi[p], 0
        for x in c:
            if x > b:
                d += x - b
            elif x < a:
                d += a - x
        return d * weight[p]

    pen = [off(p, cnt[p]) for p in range(n)]
    left = sum(pen)
    lowest, since, kept = left, 0, [list(t) for t in seats]
    for _ in range(iters):
        if left < lowest:
            lowest, since, kept = left, 0, [list(t) for t in seats]
        if not left or since > stall:
            break
        since += 1
        bad = [p for p in range(n) if pen[p]]
        p = bad[rng.randrange(len(bad))]
        best, ties = None, 0
        for ti in where[p]:
            t = seats[ti]
            wp = t.index(p)
            for wq in range(4):
                if wq == wp:
                    continue
                q = t[wq]
                cp, cq = list(cnt[p]), list(cnt[q])
                cp[wp] -= 1
                cp[wq] += 1
                cq[wq] -= 1
                cq[wp] += 1
                d = off(p, cp) + off(q, cq) - pen[p] - pen[q]
                if best is None or d < best[0]:
                    best, ties = (d, ti, wp, wq), 1
                elif d == best[0]:
                    ties += 1
                    if rng.randrange(ties) == 0:
                        best = (d, ti, wp, wq)
        if best is None or (best[0] > 0 and rng.random() > 0.05):
            continue
        d, ti, wp, wq = best
        t = seats[ti]
        q = t[wq]
        t[wp], t[wq] = q, p
        cnt[p][wp] -= 1
        cnt[p][wq] += 1
        cnt[q][wq] -= 1
        cnt[q][wp] += 1
        pen[p], pen[q] = off(p, cnt[p]), off(q, cnt[q])
        left += d
    if left > lowest:
        seats = kept
    out, i = [], 0
    for size in sizes:
        out.append(seats[i:i + size])
        i += size
    return out, sum(off(p, c) // weight[p] for p, c in enumerate(_counted(out, counts)) if not secondary[p])


def _counted(rounds: Rounds, counts: Sequence[Sequence[int]]) -> list[list[int]]:
    """The counts after ``rounds``."""
    cnt = [list(c) for c in counts]
    for rnd in rounds:
        for t in rnd:
            for w, p in enumerate(t):
                cnt[p][w] += 1
    return cnt


def wind_misses(rounds: Rounds, counts: Sequence[Sequence[int]], played: Sequence[int],
                skip: Sequence[bool]) -> list[int]:
    """The players of ``settle_winds`` left outside floor/ceil of their total."""
    cnt = [list(c) for c in counts]
    total = list(played)
    for rnd in rounds:
        for t in rnd:
            for w, p in enumerate(t):
                cnt[p][w] += 1
                total[p] += 1
    return [p for p in range(len(cnt)) if not skip[p]
            and any(x < total[p] // 4 or x > -(-total[p] // 4) for x in cnt[p])]
