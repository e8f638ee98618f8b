"""Fixed tables: players with access needs keep their table number in every session."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from tournament.messages import msg, msg_n

from .model import DrawError, Rounds, Table


def place_fixed_tables(tables: Sequence[Sequence[int]], fixed: Mapping[int, int],
                       history: Rounds = (), groups: Mapping[int, Hashable] | None = None,
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
