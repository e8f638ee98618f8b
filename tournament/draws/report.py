"""Quality report of a seating schedule and the organiser's manual swap."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from tournament.messages import msg

from .model import DrawError, Rounds, Table


@dataclass(frozen=True)
class QualityReport:
    """What an organiser checks before publishing a draw.

    ``excess_repeats``: sum over pairs of players of max(0, meetings - 1);
    ``max_meetings``: most meetings of any pair; ``repeated_pairs``: (a, b, meetings) for
    pairs meeting more than once, a < b.  Pairs involving a substitute are left out of
    these three and counted in ``substitute_repeats`` instead.
    ``wind_counts``: player -> (E, S, W, N) counts; ``wind_balanced``: every player (not
    substitutes) has each wind floor(m/4) or ceil(m/4) times over the m sessions they
    played; ``wind_max_deviation``: largest distance of a count from that range (0 when
    balanced).  ``clashes``: (session_index, table_index, group, players) where two or more
    members of one group share a table.  ``players_twice_in_a_session``: (session_index,
    player) for a player seated more than once in a session.
    """

    excess_repeats: int
    max_meetings: int
    repeated_pairs: list[tuple[int, int, int]]
    wind_counts: dict[int, tuple[int, int, int, int]]
    wind_balanced: bool
    clashes: list[tuple[int, int, Hashable, tuple[int, ...]]]
    players_twice_in_a_session: list[tuple[int, int]]
    wind_max_deviation: int = 0
    substitute_repeats: int = 0
    sessions: int = 0
    tables: int = 0
    malformed_tables: list[tuple[int, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return (self.excess_repeats == 0 and self.wind_balanced and not self.clashes
                and not self.players_twice_in_a_session and not self.malformed_tables)

    def summary(self) -> str:
        lines = [
            f"sessions: {self.sessions}, tables: {self.tables}",
            f"excess repeats: {self.excess_repeats} (most meetings of a pair: {self.max_meetings})",
            f"winds balanced: {'yes' if self.wind_balanced else 'no'} "
            f"(max deviation {self.wind_max_deviation})",
            f"team/club clashes: {len(self.clashes)}",
        ]
        if self.substitute_repeats:
            lines.append(f"substitute repeats: {self.substitute_repeats}")
        for s, p in self.players_twice_in_a_session:
            lines.append(f"player {p} seated twice in session {s + 1}")
        for s, t in self.malformed_tables:
            lines.append(f"session {s + 1} table {t + 1} does not have four players")
        for a, b, c in self.repeated_pairs[:20]:
            lines.append(f"  {a} and {b} meet {c} times")
        for s, t, g, ps in self.clashes[:20]:
            lines.append(f"  session {s + 1} table {t + 1}: {', '.join(map(str, ps))} of {g!r}")
        return "\n".join(lines)


def quality_report(schedule: Rounds, groups: Mapping[int, Hashable] | None = None,
                   substitutes: Sequence[int] = ()) -> QualityReport:
    subs = set(substitutes)
    groups = groups or {}
    meet: dict[tuple[int, int], int] = {}
    winds: dict[int, list[int]] = {}
    twice: list[tuple[int, int]] = []
    clashes: list[tuple[int, int, Hashable, tuple[int, ...]]] = []
    malformed: list[tuple[int, int]] = []
    tables = 0
    for si, session in enumerate(schedule):
        seen: set[int] = set()
        reported: set[int] = set()
        for ti, table in enumerate(session):
            tables += 1
            table = list(table)
            if len(table) != 4:
                malformed.append((si, ti))
            for w, p in enumerate(table):
                if p in seen and p not in reported:
                    twice.append((si, p))
                    reported.add(p)
                seen.add(p)
                if w < 4 and p not in subs:  # a substitute's winds are no one's balance
                    winds.setdefault(p, [0, 0, 0, 0])[w] += 1
            for x in range(len(table)):
                for y in range(x + 1, len(table)):
                    a, b = sorted((table[x], table[y]))
                    if a != b:
                        meet[(a, b)] = meet.get((a, b), 0) + 1
            by_group: dict[Hashable, list[int]] = {}
            for p in table:
                if p in groups and groups[p] is not None:
                    by_group.setdefault(groups[p], []).append(p)
            for g, members in by_group.items():
                if len(members) > 1:
                    clashes.append((si, ti, g, tuple(members)))
    excess = 0
    sub_excess = 0
    most = 0
    repeated = []
    for (a, b), c in sorted(meet.items()):
        if a in subs or b in subs:
            sub_excess += max(0, c - 1)
            continue
        most = max(most, c)
        if c > 1:
            excess += c - 1
            repeated.append((a, b, c))
    repeated.sort(key=lambda x: (-x[2], x[0], x[1]))
    deviation = 0
    for p, c in winds.items():
        if p in subs:
            continue
        m = sum(c)
        lo, hi = m // 4, -(-m // 4)
        for x in c:
            deviation = max(deviation, lo - x, x - hi)
    return QualityReport(
        excess_repeats=excess,
        max_meetings=most,
        repeated_pairs=repeated,
        wind_counts={p: tuple(c) for p, c in sorted(winds.items())},  # type: ignore[misc]
        wind_balanced=deviation == 0,
        clashes=clashes,
        players_twice_in_a_session=twice,
        wind_max_deviation=deviation,
        substitute_repeats=sub_excess,
        sessions=len(schedule),
        tables=tables,
        malformed_tables=malformed,
    )


def swap_players(schedule: Rounds, session_index: int, a: int, b: int) -> list[list[Table]]:
    """A new schedule where ``a`` and ``b`` exchange places (table and seat) in one session.

    When only one of them is seated in that session the other takes its seat (e.g. a
    substitute replacing a player).  The input is not modified.
    """
    if not 0 <= session_index < len(schedule):
        raise DrawError(msg("no session %(number)s (the schedule has %(count)s)", number=session_index,
                            count=len(schedule)))
    new = [[tuple(t) for t in s] for s in schedule]
    session = [list(t) for t in schedule[session_index]]
    pos = {}
    for ti, t in enumerate(session):
        for si, p in enumerate(t):
            pos.setdefault(p, (ti, si))
    if a not in pos and b not in pos:
        raise DrawError(msg("neither %(first)s nor %(second)s is seated in session %(number)s", first=a, second=b,
                            number=session_index))
    if a != b:
        pa, pb = pos.get(a), pos.get(b)
        if pa is not None:
            session[pa[0]][pa[1]] = b
        if pb is not None:
            session[pb[0]][pb[1]] = a
    new[session_index] = [tuple(t) for t in session]
    return new  # type: ignore[return-value]
