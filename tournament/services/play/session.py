"""Play at the tables: who sits where at each hand, the tables and their modes, and whether a session is in
play (starting, finishing and reopening one are `services.seating.lifecycle`).

The seat rotation is `tournament.rotation.hand_winds` (pure, shared with the printed score sheets);
`play.hand_winds` is the same function.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func, select
from sqlalchemy.orm import joinedload

from tournament.draws.model import SEAT_WIND_NAMES
from tournament.extensions import db
from tournament.messages import msg, status_word
from tournament.models import (
    HANDS_PER_SESSION,
    SEAT_WINDS,
    ClockEvent,
    ClockEventKind,
    Hand,
    HandPayment,
    Player,
    Seat,
    SessionStatus,
    SessionTable,
    Substitution,
    TableMode,
    TableTotal,
    Tournament,
    TournamentSession,
)
from tournament.models.clock import TIME_CALL_KINDS
from tournament.rotation import HandWinds, hand_winds  # noqa: F401 - callers say play.hand_winds
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound
from tournament.services.play.time_calls import TimeCall

WIND_NAMES = SEAT_WIND_NAMES  # one home: tournament.draws.model

# ----------------------------------------------------------------------------- sessions and tables


def get_session(t: Tournament, number: int, *, to_score: bool = False) -> TournamentSession:
    """The session numbered `number`. `to_score`: read for a hand or totals being written, under a shared lock
    (PostgreSQL) held until the write commits: finishing the session waits for the writes in flight, and a
    write that starts after the finish sees the session finished (it reads the row as committed). Otherwise a
    hand could be stored in a session already finished, which the standings' change marker would not see."""
    query = select(TournamentSession).where(TournamentSession.tournament_id == t.id,
                                            TournamentSession.number == number)
    if to_score:
        query = query.with_for_update(read=True).execution_options(populate_existing=True)
    session = db.session.scalar(query)
    if session is None:
        raise NotFound(msg("Session %(number)s has not been drawn.", number=number))
    return session


@dataclass(frozen=True)
class SeatedPlayer:
    start_wind: str  # the seat drawn for the session
    player: Player

    @property
    def player_id(self) -> int:
        return self.player.id


def table_numbers(session: TournamentSession) -> list[int]:
    return sorted({seat.table_number for seat in session.seats})


def table_players(session: TournamentSession, table_number: int) -> list[SeatedPlayer]:
    """The four players of a table in starting-seat order E, S, W, N."""
    if "seats" in session.__dict__:  # already loaded (a draw being made): its seats, flushed or not
        at_table = [s for s in session.seats if s.table_number == table_number]
    else:  # score entry: the four seats alone, not the whole session's (400 rows at 100 tables)
        at_table = list(db.session.scalars(
            select(Seat).where(Seat.session_id == session.id, Seat.table_number == table_number)
            .options(joinedload(Seat.player))))
    seats = sorted(at_table, key=lambda s: s.wind_order)
    if not seats:
        raise NotFound(msg("Session %(number)s has no table %(table_number)s.", number=session.number, table_number=table_number))
    return [SeatedPlayer(start_wind=s.seat_wind, player=s.player) for s in seats]


def substitutions_at(session: TournamentSession, table_number: int) -> list[Substitution]:
    """The table's substitutions in the order they took effect."""
    return list(db.session.scalars(
        select(Substitution).where(Substitution.session_id == session.id, Substitution.table_number == table_number)
        .order_by(Substitution.from_hand, Substitution.id)))


def players_at_hand(session: TournamentSession, table_number: int, hand_number: int,
                    substitutions: list[Substitution] | None = None) -> list[SeatedPlayer]:
    """The four players of hand `hand_number`, E, S, W, N by starting seat: the drawn seats with every
    substitution that took effect by that hand (the incoming player keeps the outgoing one's seat)."""
    subs = substitutions_at(session, table_number) if substitutions is None else substitutions
    return with_substitutions(table_players(session, table_number), subs, hand_number)


def with_substitutions(players: list[SeatedPlayer], substitutions: list[Substitution],
                       hand_number: int) -> list[SeatedPlayer]:
    """The drawn players of a table as they sit at hand `hand_number` (no query)."""
    for sub in substitutions:
        if sub.from_hand <= hand_number:
            players = [SeatedPlayer(start_wind=p.start_wind, player=sub.in_player) if p.player_id == sub.out_player_id
                       else p for p in players]
    return players


def session_table(session: TournamentSession, table_number: int, *, lock: bool = False) -> SessionTable:
    """The table's row, created on first use; `lock` serialises writers of one table (PostgreSQL row lock)."""
    query = select(SessionTable).where(
        SessionTable.session_id == session.id, SessionTable.table_number == table_number
    )
    if lock:
        query = query.with_for_update()
    row = db.session.scalar(query)
    if row is None:
        # A row is only ever created for a table of the session's seating: found, the table exists.
        table_players(session, table_number)  # 404 for a table that does not exist
        with changes():
            row = SessionTable(session_id=session.id, table_number=table_number)
            db.session.add(row)
        if lock:
            row = db.session.scalar(query)
    return row


@dataclass(frozen=True)
class TableSummary:
    """A table of a session at a glance, with the names `scoring.TableSheet` gives the same facts."""

    table_number: int
    players: list[SeatedPlayer]  # E, S, W, N
    mode: str
    totals: dict[int, int]  # player id -> session score from hands or totals, penalties not included
    entered: int  # hands entered
    missing: list[int]  # hand numbers still to enter (hands mode; none past a time call's limit)


def session_tables(session: TournamentSession) -> list[TableSummary]:
    """Every table of the session at a glance for the staff play page, in five queries whatever the size
    (a score sheet per table was ~22 queries a table: 3,726 at 125 tables). The same players, mode, totals,
    entered and missing hands as `scoring.table_sheet` (tests/services/test_session_tables.py holds the two
    to the same answers)."""
    seated: dict[int, list[tuple[int, str, Player]]] = {}
    for table, wind, player in db.session.execute(
        select(Seat.table_number, Seat.seat_wind, Player).join(Player, Player.id == Seat.player_id)
        .where(Seat.session_id == session.id)
    ):
        seated.setdefault(table, []).append((SEAT_WINDS.index(wind), wind, player))
    modes: dict[int, str] = {}
    table_totals: dict[int, dict[int, int]] = {}
    for table, mode, player_id, score in db.session.execute(
        select(SessionTable.table_number, SessionTable.mode, TableTotal.player_id, TableTotal.score)
        .outerjoin(TableTotal, TableTotal.table_id == SessionTable.id).where(SessionTable.session_id == session.id)
    ):
        modes[table] = str(mode)
        if player_id is not None:
            table_totals.setdefault(table, {})[player_id] = score
    in_session = (Hand.session_id == session.id, Hand.number.between(1, HANDS_PER_SESSION))
    entered: dict[int, set[int]] = {}
    for table, number in db.session.execute(select(Hand.table_number, Hand.number).where(*in_session)):
        entered.setdefault(table, set()).add(number)
    paid: dict[int, dict[int, int]] = {}  # the totals count what the standings count: `Hand.in_standings`
    for table, player_id, total in db.session.execute(
        select(Hand.table_number, HandPayment.player_id, func.sum(HandPayment.delta))
        .join(HandPayment, HandPayment.hand_id == Hand.id).where(*in_session, Hand.in_standings)
        .group_by(Hand.table_number, HandPayment.player_id)
    ):
        paid.setdefault(table, {})[player_id] = int(total)
    # The standing time call of a table is its latest call or undo (as `clock.time_call` reads it).
    calls: dict[int, TimeCall | None] = {}
    for table, kind, in_progress, last_hand, at in db.session.execute(
        select(ClockEvent.table_number, ClockEvent.kind, ClockEvent.hand_in_progress, ClockEvent.last_hand,
               ClockEvent.at)
        .where(ClockEvent.session_id == session.id,
               ClockEvent.kind.in_((*TIME_CALL_KINDS, ClockEventKind.TIME_CALL_UNDONE)))
        .order_by(ClockEvent.at, ClockEvent.id)
    ):
        calls[table] = (TimeCall(table, in_progress, last_hand, at, kind == ClockEventKind.TIME_CALLED_AT_END)
                        if kind in TIME_CALL_KINDS else None)

    out = []
    for table, seats in sorted(seated.items()):
        players = [SeatedPlayer(start_wind=wind, player=player) for _, wind, player in sorted(seats, key=lambda s: s[0])]
        mode = modes.get(table, str(TableMode.HANDS))
        numbers = entered.get(table, set())
        if mode == TableMode.TOTALS:
            totals, missing = dict(table_totals.get(table, {})), []
        else:
            totals = {sp.player_id: 0 for sp in players} | paid.get(table, {})
            call = calls.get(table)
            missing = [n for n in range(1, HANDS_PER_SESSION + 1)
                       if n not in numbers and not (call is not None and n > call.limit)]
        out.append(TableSummary(table, players, mode, totals, len(numbers), missing))
    return out


def session_to_find(sessions: list[TournamentSession], *, coming_first: bool = False) -> TournamentSession | None:
    """The published session people look for their seat in: the one in play, else the first published and not
    started yet, else the last published. `coming_first` (the projector's next seating): the first not started
    comes before the one in play."""
    published = [s for s in sessions if s.is_published]
    in_play = [s for s in published if s.status == SessionStatus.IN_PLAY]
    coming = [s for s in published if s.status == SessionStatus.PUBLISHED]
    first, then = (coming, in_play) if coming_first else (in_play, coming)
    return (first or then or published[-1:] or [None])[0]


def require_in_play(session: TournamentSession) -> None:
    if session.status == SessionStatus.FINISHED:  # closed after its check: reopening is the organisers' act
        raise ConflictError(msg("Session %(number)s is finished, not in play: an organiser must reopen it"
                                " before its results can be entered or corrected.", number=session.number))
    if session.status != SessionStatus.IN_PLAY:
        raise ConflictError(msg("Session %(number)s is %(state)s, not in play: start it before entering "
                                "results.", number=session.number, state=status_word(session.status)))
