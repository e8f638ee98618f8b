"""The change marker: the one small query that says whether anything the standings and the live pages show has
changed. The standings cache, the incremental update of the facts and the live pages' ETags all follow it.

Score changes (`tournament.services.play.score_changes.record_score_change`) are what it follows for hands, totals
and penalties; the versions and counts of the tournament, its sessions, players and penalties for the rest.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from sqlalchemy import ColumnElement, Integer, Row, Select, bindparam, func, select, true

from tournament.constants import is_id
from tournament.extensions import db
from tournament.models import Penalty, Player, ScoreChange, SessionStatus, Tournament, TournamentSession


class ChangeMarker(NamedTuple):
    """The parts of a change marker, by name: the query below selects one column per field, labelled with its
    name, so a column added to the query without its field (or the reverse) fails at import."""

    tournament_version: int  # settings, hidden standings
    last_change: int         # the highest score change id in the sessions in play (0: none)
    sessions: int            # the tournament's sessions: count and summed versions
    sessions_version: int
    players: int             # its players: count and summed versions
    players_version: int
    penalties: int           # its penalties, whatever their session: count and summed versions
    penalties_version: int
    changes: int             # the number of score changes in the sessions in play

    @property
    def seating(self) -> tuple[int, ...]:
        """What seating follows: the tournament's version and its sessions' and players' counts and versions;
        not the score changes and penalties."""
        return (self.tournament_version, self.sessions, self.sessions_version, self.players, self.players_version)

    @property
    def penalty_part(self) -> tuple[int, int]:
        return (self.penalties, self.penalties_version)


def in_play(tournament_id) -> ColumnElement[bool]:
    """The score changes of a tournament's sessions in play (with a join to the sessions). Hands and totals are
    written in sessions in play alone (a finish waits for the writes in flight: `play.get_session`); penalties
    in finished sessions are followed by the penalties' parts of the marker. Finished sessions' changes are
    left out because counting them would cost a scan of every hand of the tournament on every poll."""
    return (TournamentSession.tournament_id == tournament_id) & (TournamentSession.status == SessionStatus.IN_PLAY.value)


def _change_marker_query() -> Select:
    def scalar(column, model, where):
        return select(column).select_from(model).where(where).scalar_subquery()

    tournament_id = bindparam("tournament_id", type_=Integer)
    in_tournament = TournamentSession.tournament_id == tournament_id
    changes = select().select_from(ScoreChange).join(TournamentSession, TournamentSession.id == ScoreChange.session_id)
    columns = {
        "tournament_version": Tournament.version,
        "last_change": changes.add_columns(func.coalesce(func.max(ScoreChange.id), 0))
        .where(in_play(tournament_id)).scalar_subquery(),
        "sessions": scalar(func.count(), TournamentSession, in_tournament),
        "sessions_version": scalar(func.coalesce(func.sum(TournamentSession.version), 0), TournamentSession,
                                   in_tournament),
        "players": scalar(func.count(), Player, Player.tournament_id == tournament_id),
        "players_version": scalar(func.coalesce(func.sum(Player.version), 0), Player,
                                  Player.tournament_id == tournament_id),
        "penalties": scalar(func.count(), Penalty, Penalty.tournament_id == tournament_id),
        "penalties_version": scalar(func.coalesce(func.sum(Penalty.version), 0), Penalty,
                                    Penalty.tournament_id == tournament_id),
        "changes": changes.add_columns(func.count()).where(in_play(tournament_id)).scalar_subquery(),
    }
    if set(columns) != set(ChangeMarker._fields):
        raise RuntimeError("The change marker's query and its fields differ.")
    return select(*(columns[name].label(name) for name in ChangeMarker._fields)).where(Tournament.id == tournament_id)


# Built once: every live poll runs it, and building the statement cost more than running it.
_CHANGE_MARKER = _change_marker_query()


def change_marker(tournament_id: int) -> ChangeMarker | None:
    """A marker that changes whenever anything the public pages show changes; None for no tournament.

    One small query: the tournament's version (settings, hidden standings), the last score change in the
    sessions in play (hands, totals and penalties all leave one), the sessions' and players' counts and summed
    versions (every update bumps a row's version, so the sums only grow), the penalties' likewise, and the
    number of score changes in the sessions in play. The number matters as much as the last one: two tables'
    hands commit in any order, so the change with the highest id can be seen before another one with a lower id.
    """
    if not is_id(tournament_id):  # no such id fits the database's integer columns
        return None
    row = db.session.execute(_CHANGE_MARKER, {"tournament_id": tournament_id}).first()
    return None if row is None else ChangeMarker._make([int(value) for value in row])


def seating_marker(marker: ChangeMarker) -> tuple[int, ...]:
    """The part of a `change_marker` that seating follows (`ChangeMarker.seating`)."""
    return marker.seating


def _changes_above_query() -> Select:
    """The number of score changes in the tournament's sessions in play, on every row of those with an id above
    `floor` (one row with no change when there is none): one statement, so both are read at the same moment."""
    tournament_id = bindparam("tournament_id", type_=Integer)
    total = (select(func.count().label("total")).select_from(ScoreChange)
             .join(TournamentSession, TournamentSession.id == ScoreChange.session_id)
             .where(in_play(tournament_id))).subquery()
    above = (select(ScoreChange.id, ScoreChange.session_id, ScoreChange.table_number)
             .join(TournamentSession, TournamentSession.id == ScoreChange.session_id)
             .where(in_play(tournament_id), ScoreChange.id > bindparam("floor", type_=Integer))).subquery()
    return (select(total.c.total, above.c.id, above.c.session_id, above.c.table_number)
            .select_from(total.outerjoin(above, true())))


_CHANGES_ABOVE = _changes_above_query()


def changes_above(tournament_id: int, floor: int) -> tuple[int, list[Row]]:
    """The number of score changes in the sessions in play, and those with an id above `floor` (rows of id,
    session_id, table_number), read at the same moment."""
    rows: Sequence[Row] = db.session.connection().execute(
        _CHANGES_ABOVE, {"tournament_id": tournament_id, "floor": floor}).all()
    return rows[0].total, [row for row in rows if row.id is not None]
