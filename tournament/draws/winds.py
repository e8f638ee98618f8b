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
from collections.abc import Sequence

WINDS = 4
PERMS = list(itertools.permutations(range(4)))


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
