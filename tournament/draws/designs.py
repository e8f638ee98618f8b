"""Verified zero-repeat seating designs, stored as data.

Each design maps a player count N to a list of rounds; a round is a string of
tables separated by spaces, a table is four player indices 0..N-1 joined by dots.
No two players share a table twice within a design, so any subset of its rounds,
under any relabelling of the players, is a zero-repeat schedule.

Source: the verified schedules of the project's shared draw data (16/5, 20/5, 24/7,
28/9, 32/10, 36/11 given in letters, 40/10, 44/10, 48/10 numbered), converted to
0-based indices (letters numbered in sorted symbol order).  ``tests/draws`` re-verifies
them.
"""

from __future__ import annotations

from .constructions import constructed_rounds
from .model import RoundList

_RAW: dict[int, tuple[str, ...]] = {
    16: (
        "0.1.2.3 4.5.6.7 8.9.10.11 12.13.14.15",
        "0.4.8.12 1.5.9.13 2.6.10.14 3.7.11.15",
        "0.5.10.15 1.4.11.14 2.7.8.13 3.6.9.12",
        "0.6.11.13 1.7.10.12 2.4.9.15 3.5.8.14",
        "0.7.9.14 1.6.8.15 2.5.11.12 3.4.10.13",
    ),
    20: (
        "0.1.2.3 4.5.6.7 8.9.10.11 12.13.14.15 16.17.18.19",
        "0.4.8.12 1.5.9.16 2.6.13.17 3.10.14.18 7.11.15.19",
        "0.5.14.19 1.4.11.17 2.8.15.18 3.6.9.12 7.10.13.16",
        "0.9.15.17 1.7.12.18 2.4.10.19 3.5.8.13 6.11.14.16",
        "0.11.13.18 1.6.8.19 2.7.9.14 3.4.15.16 5.10.12.17",
    ),
    24: (
        "0.1.10.20 8.9.18.4 16.17.2.12 3.6.5.23 7.11.13.14 15.19.21.22",
        "0.2.11.21 8.10.19.5 16.18.3.13 4.7.6.17 1.12.14.15 9.20.22.23",
        "0.3.12.22 8.11.20.6 16.19.4.14 5.1.7.18 2.9.13.15 10.17.21.23",
        "0.4.13.23 8.12.21.7 16.20.5.15 6.2.1.19 3.9.10.14 11.17.18.22",
        "0.5.14.17 8.13.22.1 16.21.6.9 7.3.2.20 4.10.11.15 12.18.19.23",
        "0.6.15.18 8.14.23.2 16.22.7.10 1.4.3.21 5.9.11.12 13.17.19.20",
        "0.7.9.19 8.15.17.3 16.23.1.11 2.5.4.22 6.10.12.13 14.18.20.21",
    ),
    28: (
        "0.1.2.3 4.5.6.7 8.9.10.11 12.13.14.15 16.17.18.19 20.21.22.23 24.25.26.27",
        "0.4.20.24 1.5.12.16 13.17.21.25 6.8.18.26 7.9.14.22 2.10.15.27 3.11.19.23",
        "0.5.23.27 1.4.14.18 15.19.22.26 7.10.16.25 6.11.12.21 2.8.13.24 3.9.17.20",
        "0.8.16.22 1.9.13.27 4.10.12.23 5.11.17.26 15.18.20.25 2.6.14.19 3.7.21.24",
        "0.6.15.17 1.7.20.26 4.11.13.22 14.16.21.27 5.10.19.24 2.9.18.23 3.8.12.25",
        "0.10.18.21 1.11.15.24 5.8.14.20 4.9.19.25 13.16.23.26 2.7.12.17 3.6.22.27",
        "0.7.13.19 1.6.23.25 5.9.15.21 12.18.22.24 4.8.17.27 2.11.16.20 3.10.14.26",
        "0.11.14.25 1.10.17.22 6.9.16.24 12.19.20.27 7.8.15.23 2.4.21.26 3.5.13.18",
        "0.9.12.26 1.8.19.21 2.5.22.25 3.4.15.16 6.10.13.20 7.11.18.27 14.17.23.24",
    ),
    32: (
        "0.1.2.3 4.5.6.7 8.9.10.11 12.13.15.14 16.17.18.19 20.21.22.23 24.25.26.27 28.29.30.31",
        "0.4.8.28 1.22.18.7 3.5.10.31 26.15.19.21 12.16.20.24 2.23.17.6 25.13.30.11 27.9.29.14",
        "0.27.30.21 1.23.26.28 3.13.6.24 5.16.11.14 12.17.7.10 2.15.20.9 4.25.18.31 22.8.19.29",
        "0.18.24.11 1.25.19.10 3.26.17.9 5.22.30.15 21.6.14.31 2.8.27.16 4.23.12.29 13.20.7.28",
        "0.22.13.10 1.4.27.15 3.8.30.7 23.19.24.14 17.20.11.31 2.25.21.28 5.12.18.9 26.16.6.29",
        "0.23.9.31 1.5.24.29 3.18.28.14 8.13.17.21 27.20.6.10 2.12.30.19 4.22.26.11 25.15.16.7",
        "0.5.19.20 1.30.6.9 3.4.16.21 23.27.13.18 15.24.10.28 2.7.11.29 22.25.17.14 8.26.12.31",
        "0.15.17.29 1.13.16.31 3.22.27.12 26.30.18.20 21.7.24.9 2.4.10.14 5.23.8.25 19.6.11.28",
        "0.25.12.6 1.8.20.14 3.23.15.11 22.16.9.28 18.21.10.29 2.5.26.13 4.30.17.24 27.19.7.31",
        "0.26.7.14 1.12.21.11 3.25.20.29 5.27.17.28 8.15.18.6 2.22.24.31 4.13.19.9 23.30.16.10",
    ),
    36: (
        "1.2.13.15 7.17.29.30 3.28.32.35 5.25.31.33 0.9.18.27 10.11.4.6 16.8.20.21 12.19.23.26 14.34.22.24",
        "2.3.14.16 8.0.30.31 4.29.33.18 6.26.32.34 1.10.19.28 11.12.5.7 17.9.21.22 13.20.24.27 15.35.23.25",
        "3.4.15.17 9.1.31.32 5.30.34.19 7.27.33.35 2.11.20.29 12.13.6.8 0.10.22.23 14.21.25.28 16.18.24.26",
        "4.5.16.0 10.2.32.33 6.31.35.20 8.28.34.18 3.12.21.30 13.14.7.9 1.11.23.24 15.22.26.29 17.19.25.27",
        "5.6.17.1 11.3.33.34 7.32.18.21 9.29.35.19 4.13.22.31 14.15.8.10 2.12.24.25 16.23.27.30 0.20.26.28",
        "6.7.0.2 12.4.34.35 8.33.19.22 10.30.18.20 5.14.23.32 15.16.9.11 3.13.25.26 17.24.28.31 1.21.27.29",
        "7.8.1.3 13.5.35.18 9.34.20.23 11.31.19.21 6.15.24.33 16.17.10.12 4.14.26.27 0.25.29.32 2.22.28.30",
        "8.9.2.4 14.6.18.19 10.35.21.24 12.32.20.22 7.16.25.34 17.0.11.13 5.15.27.28 1.26.30.33 3.23.29.31",
        "9.10.3.5 15.7.19.20 11.18.22.25 13.33.21.23 8.17.26.35 0.1.12.14 6.16.28.29 2.27.31.34 4.24.30.32",
        "1.4.20.25 3.6.22.27 5.8.24.29 7.10.26.31 9.12.28.33 11.14.30.35 13.16.32.19 15.0.34.21 17.2.18.23",
        "2.5.21.26 4.7.23.28 6.9.25.30 8.11.27.32 10.13.29.34 12.15.31.18 14.17.33.20 16.1.35.22 0.3.19.24",
    ),
    40: (
        "22.0.5.35 14.28.18.8 11.33.15.34 12.27.21.20 9.10.2.36 24.29.1.23 16.3.19.6 13.4.30.26 7.31.25.39 38.37.17.32",
        "31.5.28.11 33.27.30.8 34.18.4.7 36.35.29.16 22.19.1.14 17.0.9.23 39.38.21.13 3.10.37.24 12.6.26.15 25.2.32.20",
        "1.33.16.17 14.3.2.0 30.32.15.31 4.5.36.20 10.19.29.39 23.22.13.34 7.28.38.27 37.9.12.18 6.35.24.11 25.21.8.26",
        "26.16.38.23 5.2.18.19 9.11.32.1 7.35.30.17 24.0.34.8 27.25.37.14 33.20.6.39 10.4.21.28 13.15.3.36 22.29.31.12",
        "28.37.16.39 9.19.26.31 25.17.22.24 13.35.14.33 23.4.32.27 11.38.36.12 18.10.6.30 21.34.2.29 8.3.5.7 20.1.0.15",
        "39.14.11.26 35.9.8.38 29.15.17.28 2.7.12.24 31.23.18.21 22.4.33.3 37.19.30.20 10.25.16.13 36.0.32.6 27.5.34.1",
        "10.26.1.7 35.3.20.28 8.32.12.13 23.33.2.37 36.31.17.34 19.15.4.25 16.27.11.22 14.6.21.5 24.30.39.9 0.18.38.29",
        "20.7.14.9 29.5.26.33 19.12.23.28 31.37.6.13 36.8.22.39 38.3.25.1 30.16.21.0 34.32.35.10 15.18.24.27 4.2.11.17",
        "29.6.27.9 12.14.34.16 5.30.25.23 37.35.1.4 0.11.13.7 19.21.33.32 20.8.10.31 28.36.24.26 22.38.2.15 18.39.17.3",
        "20.26.22.18 13.27.17.19 38.31.4.14 32.24.5.16 11.3.30.29 8.6.2.1 12.10.0.33 15.39.35.23 34.25.28.9 21.36.37.7",
    ),
    44: (
        "7.17.19.34 28.10.16.31 30.42.25.43 1.15.35.0 8.3.4.39 22.2.5.32 6.20.37.26 11.33.38.18 13.14.40.36 24.23.27.41 29.12.9.21",
        "13.20.39.12 9.16.24.37 18.30.31.7 27.2.3.10 22.26.35.28 40.29.19.38 34.36.43.0 25.6.4.15 32.1.11.21 17.41.33.42 5.14.8.23",
        "36.18.37.4 42.27.15.14 31.40.35.39 7.23.2.13 12.26.16.33 38.22.9.0 17.24.29.28 32.30.41.3 8.11.34.25 43.1.20.19 5.6.21.10",
        "25.29.13.18 21.36.19.22 30.26.8.2 0.27.32.28 40.16.42.4 39.41.38.43 35.12.10.34 37.1.7.14 33.3.9.15 20.5.31.24 6.11.23.17",
        "7.12.25.5 19.30.37.28 10.33.13.1 16.36.32.39 29.20.27.4 35.23.9.42 3.18.24.21 6.41.8.0 2.11.43.40 14.38.34.26 15.22.17.31",
        "2.12.28.38 43.31.14.33 35.20.8.7 36.23.15.30 1.29.41.16 21.26.4.13 0.5.3.19 32.6.9.40 42.10.11.24 34.18.27.22 37.39.17.25",
        "11.3.13.35 15.28.21.41 42.2.19.18 36.17.26.9 8.37.12.43 33.5.40.34 27.38.31.6 22.39.1.23 32.7.4.24 0.20.16.25 14.30.10.29",
        "14.2.25.24 38.42.5.13 33.37.29.32 10.4.19.41 43.35.21.17 40.20.22.30 16.6.3.34 39.28.9.18 26.15.7.11 1.27.36.8 0.12.23.31",
        "40.26.25.41 23.38.10.32 21.7.39.0 33.4.30.35 29.42.31.8 34.2.15.37 19.12.6.24 36.20.28.3 22.14.11.16 1.5.18.17 43.27.13.9",
        "22.13.41.37 21.33.2.20 7.6.42.28 31.4.9.1 24.39.34.30 15.38.8.16 26.3.23.43 5.29.36.11 35.27.25.19 17.0.10.40 18.32.14.12",
    ),
    48: (
        "43.28.41.22 46.9.21.17 31.4.23.40 6.5.39.38 3.13.19.14 26.42.18.32 27.2.36.35 33.11.29.47 15.25.20.0 1.7.10.37 44.30.16.8 24.12.34.45",
        "23.47.12.1 16.9.3.38 11.45.27.13 2.28.18.37 29.6.41.42 19.39.21.43 7.5.25.22 8.15.17.24 0.32.40.35 20.26.31.14 34.30.4.36 46.10.44.33",
        "43.34.37.17 32.24.41.4 44.7.27.38 33.40.3.20 42.10.21.11 47.36.6.22 30.46.12.13 19.9.0.18 28.5.14.23 8.35.29.1 39.45.15.31 2.26.25.16",
        "16.35.37.20 10.13.9.23 33.6.34.21 27.8.18.46 7.11.31.32 5.15.4.47 41.14.12.44 38.22.45.17 25.3.36.42 28.24.19.1 26.39.40.29 0.43.2.30",
        "18.15.33.30 32.5.21.2 10.3.24.31 12.38.8.4 47.0.27.26 9.29.22.37 40.44.19.17 7.43.14.36 13.6.16.1 41.23.35.39 46.42.20.45 28.25.11.34",
        "9.25.4.35 37.44.23.42 16.36.40.11 13.7.8.21 26.41.46.15 14.45.33.32 5.18.17.1 0.6.28.31 38.24.43.47 39.27.34.10 20.19.29.30 22.2.12.3",
        "3.11.41.8 36.18.39.24 26.38.30.10 44.29.0.5 4.20.13.17 22.21.40.15 14.27.25.37 35.45.6.43 16.32.12.28 46.31.34.47 19.7.23.2 33.1.42.9",
        "3.29.15.28 17.14.2.10 47.18.45.44 35.42.13.24 12.5.36.20 34.7.26.9 19.33.22.8 41.31.16.27 21.38.23.25 43.40.46.1 39.0.11.4 32.30.6.37",
        "44.35.34.3 0.24.22.16 46.11.14.38 10.6.19.15 23.17.36.26 12.25.43.33 2.31.42.8 30.1.21.45 20.28.9.27 29.18.7.4 40.41.37.5 39.47.32.13",
        "33.0.41.17 6.4.3.27 32.25.46.29 9.40.30.24 20.2.39.1 26.35.12.21 28.7.42.47 45.10.8.5 43.11.15.23 34.14.16.18 19.37.38.36 13.31.22.44",
    ),
}


def stored_rounds(n: int) -> RoundList:
    """The stored zero-repeat rounds for ``n`` players (empty when there is none)."""
    raw = _RAW.get(n, ())
    return [[[int(p) for p in table.split(".")] for table in line.split()] for line in raw]


def design_rounds(n: int) -> RoundList:
    """The most zero-repeat rounds known for ``n`` players: stored, or built by
    ``constructions`` (transversal designs, affine geometries); empty when there is none."""
    stored = _RAW.get(n, ())
    built = constructed_rounds(n, inner=design_rounds)
    if len(built) > len(stored):
        return [[list(t) for t in rnd] for rnd in built]
    return stored_rounds(n)


def design_sizes() -> dict[int, int]:
    """Player count -> number of zero-repeat rounds stored."""
    return {n: len(rounds) for n, rounds in _RAW.items()}


def match_design(history: RoundList, design: RoundList, n: int,
                 budget: int = 20_000) -> tuple[list[int], list[int]] | None:
    """A relabelling of ``design`` under which every history round is one of its rounds.

    ``history`` rounds are over players 0..n-1, each a partition into tables of four.
    Returns ``(point, rounds)``: ``point[p]`` is the design point of player p and
    ``rounds[i]`` the design round of history round i; None when there is no such
    relabelling or the backtracking search gives up after ``budget`` assignments (a
    deterministic limit).  Backtracking assigns next the player with the fewest possible
    points: once two tablemates are placed their history round's design round is fixed,
    and a player's point must lie in the images of its tables.
    """
    k = len(history)
    if k == 0 or k > len(design):
        return None
    for rnd in history:
        if sorted(p for t in rnd for p in t) != list(range(n)) or any(len(t) != 4 for t in rnd):
            return None
    table_of = [[0] * n for _ in design]  # design round -> point -> table index
    for r, rnd in enumerate(design):
        for ti, t in enumerate(rnd):
            for v in t:
                table_of[r][v] = ti
    meet_round: dict[tuple[int, int], int] = {}
    for r, rnd in enumerate(design):
        for t in rnd:
            for a in t:
                for b in t:
                    if a != b:
                        meet_round[(a, b)] = r
    htab = [[0] * n for _ in history]  # history round -> player -> table index
    for i, rnd in enumerate(history):
        for ti, t in enumerate(rnd):
            for p in t:
                htab[i][p] = ti

    point = [-1] * n
    used = [False] * n
    rho = [-1] * k
    img: list[dict[int, int]] = [{} for _ in range(k)]  # history table -> design table
    inv: list[dict[int, int]] = [{} for _ in range(k)]
    steps = [0]

    def domain(p: int) -> list[int]:
        """The points p may take given the placed players (forward checking)."""
        cand: list[int] | None = None
        for i in range(k):
            if rho[i] >= 0:
                y = img[i].get(htab[i][p])
                if y is not None:
                    pts = design[rho[i]][y]
                    cand = [v for v in (pts if cand is None else cand) if v in pts and not used[v]]
        if cand is None:
            for i in range(k):
                if rho[i] < 0:
                    mates = [q for q in history[i][htab[i][p]] if q != p and point[q] >= 0]
                    if mates:
                        a = point[mates[0]]
                        cand = [v for r, rnd in enumerate(design) if r not in rho
                                for v in rnd[table_of[r][a]] if v != a and not used[v]]
                        break
        if cand is None:
            return [v for v in range(n) if not used[v]]
        out = []
        for v in cand:
            for i in range(k):
                r = rho[i]
                h = htab[i][p]
                if r >= 0:
                    y = table_of[r][v]
                    if img[i].get(h, y) != y or inv[i].get(y, h) != h:
                        break
                else:
                    rr = -2
                    for q in history[i][h]:
                        if q != p and point[q] >= 0:
                            m = meet_round.get((v, point[q]), -1)
                            if m < 0 or m in rho or (rr != -2 and m != rr):
                                break
                            rr = m
                    else:
                        continue
                    break
            else:
                out.append(v)
        return out

    def assign(p: int, v: int) -> list | None:
        """Place p at v; the undo log, or None (nothing changed) when inconsistent."""
        log: list = []
        new_rho: dict[int, int] = {}
        new_img: list[tuple[int, int, int]] = []
        for i in range(k):
            h = htab[i][p]
            r = rho[i]
            if r < 0:
                mates = [q for q in history[i][h] if q != p and point[q] >= 0]
                if not mates:
                    continue
                r = meet_round.get((v, point[mates[0]]), -1)
                if r < 0 or r in rho or r in new_rho.values():
                    return None
                new_rho[i] = r
                # every placed player of this history round must fit round r
                seen: dict[int, int] = {}
                back: dict[int, int] = {}
                for q in range(n):
                    if point[q] >= 0 or q == p:
                        hq, y = htab[i][q], table_of[r][v if q == p else point[q]]
                        if seen.setdefault(hq, y) != y or back.setdefault(y, hq) != hq:
                            return None
                new_img.extend((i, hq, y) for hq, y in seen.items())
            else:
                y = table_of[r][v]
                if img[i].get(h, y) != y or inv[i].get(y, h) != h:
                    return None
                if h not in img[i]:
                    new_img.append((i, h, y))
        for i, r in new_rho.items():
            rho[i] = r
            log.append(("rho", i))
        for i, h, y in new_img:
            if h not in img[i]:
                img[i][h] = y
                inv[i][y] = h
                log.append(("img", i, h, y))
        point[p] = v
        used[v] = True
        return log

    def undo(p: int, log: list) -> None:
        used[point[p]] = False
        point[p] = -1
        for entry in log:
            if entry[0] == "rho":
                rho[entry[1]] = -1
            else:
                _, i, h, y = entry
                del img[i][h]
                del inv[i][y]

    def solve() -> bool:
        best_p, best_dom = -1, None
        for p in range(n):
            if point[p] < 0:
                dom = domain(p)
                if best_dom is None or len(dom) < len(best_dom):
                    best_p, best_dom = p, dom
                    if len(dom) <= 1:
                        break
        if best_dom is None:
            return True
        for v in best_dom:
            steps[0] += 1
            if steps[0] > budget:
                return False
            log = assign(best_p, v)
            if log is None:
                continue
            if solve():
                return True
            undo(best_p, log)
        return False

    if solve() and all(r >= 0 for r in rho):
        return point, rho
    return None
