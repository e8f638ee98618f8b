"""The facts the standings and the rank history are computed from: seats, summed hand payments, totals-only
tables' totals, active penalties and the players, read with a fixed, small number of SQL queries (payments are
summed per session, table and player by the database), and brought up to date after score changes by reading
the changed tables again.

A new fact (for a tie-break, say) is one field of `TableFacts` read by one of the statements below; what is
derived from the facts for the ranking (`TournamentFacts.table_results`) is shared by the standings and the
rank history.
"""

from __future__ import annotations

import gc
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import ColumnElement, Integer, Row, Select, bindparam, func, select, tuple_

from tournament.extensions import db
from tournament.models import (
    Hand,
    HandPayment,
    Penalty,
    Player,
    PlayerStatus,
    Seat,
    SessionStatus,
    SessionTable,
    Substitution,
    TableMode,
    TableTotal,
    Tournament,
    TournamentSession,
)
from tournament.models.substitutions import keeps_table_points
from tournament.services.results.ranking import Entrant, TableResult
from tournament.services.results.standings.marker import ChangeMarker, changes_above

COUNTED_STATUSES = (SessionStatus.IN_PLAY.value, SessionStatus.FINISHED.value)


@dataclass
class TableFacts:
    """The facts of one table of one session."""

    seats: dict[int, str]            # player id -> seat wind (a substitute: the seat they took)
    mode: str = TableMode.HANDS.value
    has_hands: bool = False
    payments: dict[int, int] | None = None
    totals: dict[int, int] | None = None
    # (outgoing, incoming, from hand, reason) in the order they took effect
    substitutions: list[tuple[int, int, int, str]] | None = None

    @property
    def counted(self) -> bool:
        """The table has an entered result: a hand (hand-by-hand tables) or a total (totals-only tables)."""
        return bool(self.totals) if self.mode == TableMode.TOTALS else self.has_hands

    def table_scores(self) -> dict[int, int]:
        """Score per player before penalties; every seated player appears, results of others too."""
        source = (self.totals if self.mode == TableMode.TOTALS else self.payments) or {}
        scores = dict.fromkeys(self.seats, 0)
        for player_id, value in source.items():
            scores[player_id] = scores.get(player_id, 0) + value
        return scores

    def session_scores(self, penalties: dict[int, int]) -> dict[int, int]:
        """Score per player with the session's active penalties (by player id) deducted."""
        return {player_id: score - penalties.get(player_id, 0) for player_id, score in self.table_scores().items()}

    def placed(self, scores: dict[int, int]) -> dict[int, int]:
        """The players who are placed at the table for table points, with their scores: after a substitution
        the outgoing player is not (MERS 4.3), nor the incoming one unless they took the seat's place (MERS
        4.1-4.2, `keeps_table_points`): then the other three take 4, 2 and 1."""
        eligible = dict(scores)
        for out_id, in_id, from_hand, reason in self.substitutions or ():
            eligible.pop(out_id, None)
            if not keeps_table_points(reason, from_hand):
                eligible.pop(in_id, None)
        return eligible


def _table_statements(some_tables: bool) -> tuple[Select, Select, Select, Select]:
    """The seats, summed payments and tables with totals of the sessions whose ids are bound as `sessions` (a
    list); with `some_tables`, of the tables bound as `tables` alone (a list of (session id, table number)).

    Each query starts from the tournament's sessions and joins down (the session index drives it). Built once,
    run with bound values: building a statement costs more than running these small ones.
    """
    in_sessions = TournamentSession.id.in_(bindparam("sessions", expanding=True))

    def at(model) -> ColumnElement[bool]:
        if not some_tables:
            return in_sessions
        return in_sessions & tuple_(model.session_id, model.table_number).in_(bindparam("tables", expanding=True))

    seats = (select(Seat.session_id, Seat.table_number, Seat.seat_wind, Seat.player_id)
             .join(TournamentSession, TournamentSession.id == Seat.session_id).where(at(Seat)))
    # One row per (session, table, player) with the summed deltas; a hand without payments (a draw)
    # still yields a row with no player, which is enough to make the table counted.
    payments = (select(Hand.session_id, Hand.table_number, HandPayment.player_id, func.sum(HandPayment.delta))
                .select_from(TournamentSession)
                .join(Hand, Hand.session_id == TournamentSession.id)
                .outerjoin(HandPayment, HandPayment.hand_id == Hand.id)
                # A players' entry counts once confirmed (services.play.confirmations): until then it is not a fact.
                # `Hand.in_standings` is that rule, which a table's totals on the staff pages follow too.
                .where(at(Hand), Hand.in_standings)
                .group_by(Hand.session_id, Hand.table_number, HandPayment.player_id))
    totals = (select(SessionTable.session_id, SessionTable.table_number, SessionTable.mode,
                     TableTotal.player_id, TableTotal.score)
              .join(TournamentSession, TournamentSession.id == SessionTable.session_id)
              .outerjoin(TableTotal, TableTotal.table_id == SessionTable.id)
              .where(at(SessionTable)))
    substitutions = (select(Substitution.session_id, Substitution.table_number, Substitution.out_player_id,
                            Substitution.in_player_id, Substitution.from_hand, Substitution.reason)
                     .join(TournamentSession, TournamentSession.id == Substitution.session_id)
                     .where(at(Substitution)).order_by(Substitution.from_hand, Substitution.id))
    return seats, payments, totals, substitutions


_ALL_TABLES = _table_statements(some_tables=False)
_SOME_TABLES = _table_statements(some_tables=True)
# Summed active penalties per session and player, of the sessions bound as `sessions`.
_ACTIVE_PENALTIES = (select(Penalty.session_id, Penalty.player_id, func.sum(Penalty.amount))
                     .join(TournamentSession, TournamentSession.id == Penalty.session_id)
                     .where(TournamentSession.id.in_(bindparam("sessions", expanding=True)),
                            Penalty.cancelled_at.is_(None))
                     .group_by(Penalty.session_id, Penalty.player_id))
_PLAYERS = (select(Player.id, Player.first_name, Player.last_name, Player.country, Player.team, Player.is_substitute,
                   Player.status)
            .where(Player.tournament_id == bindparam("tournament_id", type_=Integer)).order_by(Player.id))


def _run(statement: Select, values: dict) -> Sequence[Row]:
    """Plain rows through the session's connection: no ORM result processing for thousands of rows."""
    return db.session.connection().execute(statement, values).all()


def plain_rows(statement: Select) -> Sequence[Row]:
    """Plain rows of a statement with its values inside (the statistics' queries)."""
    return _run(statement, {})


def load_tables(session_key: dict[int, int],
                only: Sequence[tuple[int, int]] | None = None) -> dict[tuple[int, int], TableFacts]:
    """Seats, hand payments and totals of the sessions `session_key` maps (their ids to the key used in the
    result: the session number): three queries. `only`, a list of (session id, table number), restricts the
    load to those tables."""
    tables: dict[tuple[int, int], TableFacts] = {}
    seats, payments, totals, substitutions = _ALL_TABLES if only is None else _SOME_TABLES
    values = {"sessions": list(session_key), "tables": list(only or ())}

    def table(session_id: int, number: int) -> TableFacts:
        key = (session_key[session_id], number)
        facts = tables.get(key)
        if facts is None:
            facts = tables[key] = TableFacts(seats={})
        return facts

    for session_id, number, wind, player_id in _run(seats, values):
        table(session_id, number).seats[player_id] = wind
    for session_id, number, player_id, total in _run(payments, values):
        facts = table(session_id, number)
        facts.has_hands = True
        if player_id is not None:
            facts.payments = facts.payments or {}
            facts.payments[player_id] = int(total or 0)
    for session_id, number, mode, player_id, score in _run(totals, values):
        facts = table(session_id, number)
        facts.mode = str(mode)
        if player_id is not None:
            facts.totals = facts.totals or {}
            facts.totals[player_id] = score
    for session_id, number, out_id, in_id, from_hand, reason in _run(substitutions, values):
        facts = table(session_id, number)
        facts.substitutions = [*(facts.substitutions or ()), (out_id, in_id, from_hand, str(reason))]
        facts.seats[in_id] = facts.seats.get(out_id, "")
    return tables


def load_penalties(session_key: dict[int, int]) -> dict[tuple[int, int], int]:
    """Active penalty points per (session number, player)."""
    rows = _run(_ACTIVE_PENALTIES, {"sessions": list(session_key)})
    return {(session_key[session_id], player_id): int(total) for session_id, player_id, total in rows}


def penalties_at(penalties: dict[tuple[int, int], int], session: int) -> dict[int, int]:
    """The active penalty points of one session, by player id."""
    return {player_id: amount for (number, player_id), amount in penalties.items() if number == session}


def entrant(player: Row, played: set[int]) -> Entrant:
    """A player row (`TournamentFacts.players`) as the ranking sees them. Only players who sat at a table of a
    session in play are ranked (a no-show is not: MERS ranks results, and the EMA file must not list them);
    substitutes never are. A disqualified player who played stays in the results with 0 table points (MERS
    4.4); one who withdrew keeps what they played.

    Names as `Player.full_name` and `Player.sort_name` give them, from plain columns (no ORM objects
    for a thousand players).
    """
    return _entrant_of(tuple(player), player.id in played)


@lru_cache(maxsize=8192)
def _entrant_of(player: tuple, has_played: bool) -> Entrant:
    # Cached: the players rarely change while hands are entered, and a standings asks for all of them.
    player_id, first_name, last_name, country, team, is_substitute, status = player
    return Entrant(player_id=player_id, name=f"{first_name} {last_name}", sort_name=f"{last_name}, {first_name}",
                   country=country or "", team=(team or "").strip(), ranked=has_played and not is_substitute,
                   disqualified=status == PlayerStatus.DISQUALIFIED)


@contextmanager
def no_gc_pauses() -> Iterator[None]:
    """Tens of thousands of short-lived tuples (rows, cells) would trigger many full cyclic-GC passes
    over everything the process holds; they form no cycles, so collection waits until the end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@dataclass(frozen=True)
class TournamentFacts:
    """The facts a standings is computed from, with what is needed to bring them up to date later."""

    tournament_id: int
    marker: ChangeMarker | None       # the change marker read before the facts
    numbers: tuple[int, ...]          # the counted sessions' numbers
    session_key: dict[int, int]       # their ids -> numbers
    players: Sequence[Row]            # id, first and last name, country, team, is_substitute, status
    tables: dict[tuple[int, int], TableFacts]   # by (session number, table number)
    penalties: dict[tuple[int, int], int]       # active penalty points by (session number, player id)
    # Every score change of the sessions in play with an id up to `floor` is in these facts, and there were
    # `changes` of them.
    floor: int
    changes: int

    def table_results(self, penalties_move_table_points: bool = True) -> list[TableResult]:
        """Every table as the ranking takes it (penalties deducted), in (session, table) order; placed by the
        scores before penalties unless `penalties_move_table_points` (the tournament's setting)."""
        by_session: dict[int, dict[int, int]] = defaultdict(dict)
        for (session, player_id), amount in self.penalties.items():
            by_session[session][player_id] = amount
        results = []
        for (session, number), table in sorted(self.tables.items()):
            scores = table.session_scores(by_session[session])
            placing = None if penalties_move_table_points else table.table_scores()
            if table.substitutions:
                placing = table.placed(scores if placing is None else placing)
            results.append(TableResult(session=session, table=number, scores=scores, counted=table.counted,
                                       placing_scores=placing))
        return results

    def penalty_totals(self, upto: int | None = None) -> dict[int, int]:
        """Active penalty points per player, of the sessions numbered `upto` or less (default: all)."""
        totals: dict[int, int] = defaultdict(int)
        for (session, player_id), amount in self.penalties.items():
            if upto is None or session <= upto:
                totals[player_id] += amount
        return totals


def read(t: Tournament, marker: ChangeMarker | None = None) -> TournamentFacts:
    """All the facts, read afresh: five queries whatever the size of the tournament. A change committed after
    `marker` was read may be in them too: it is then read again by the next update, which is harmless (a table
    is always reloaded whole)."""
    sessions = db.session.execute(
        select(TournamentSession.id, TournamentSession.number)
        .where(TournamentSession.tournament_id == t.id, TournamentSession.status.in_(COUNTED_STATUSES))
        .order_by(TournamentSession.number)
    ).all()
    session_key = {session_id: number for session_id, number in sessions}
    players = _run(_PLAYERS, {"tournament_id": t.id})
    # The sessions read above, by id: a session that starts meanwhile cannot half-appear.
    tables = load_tables(session_key) if sessions else {}
    penalties = load_penalties(session_key) if sessions else {}
    return TournamentFacts(tournament_id=t.id, marker=marker, numbers=tuple(number for _, number in sessions),
                           session_key=session_key, players=players, tables=tables, penalties=penalties,
                           floor=marker.last_change if marker else -1, changes=marker.changes if marker else -1)


def updated(last: TournamentFacts, marker: ChangeMarker) -> TournamentFacts | None:
    """`last` brought up to date by reloading only the tables with new score changes, and the penalties if
    they changed; None when that cannot be done safely (the caller then reads everything afresh).

    Only when the markers differ in score changes and penalties alone: their seating parts (settings,
    sessions, players) are the same. The changes with an id above `last.floor` are read with the number of
    all changes, in one statement.
    If the number below the floor grew, a change committed late (after one with a higher id) would be
    missed: everything is then read afresh.
    """
    if last.marker is None or last.floor < 0 or last.marker.seating != marker.seating:
        return None
    count, new = changes_above(last.tournament_id, last.floor)
    if count - len(new) != last.changes or any(
        row.table_number is None or row.session_id not in last.session_key for row in new
    ):
        return None
    changed = sorted({(row.session_id, row.table_number) for row in new})
    tables = dict(last.tables)
    if changed:
        fresh = load_tables(last.session_key, only=changed)
        for session_id, number in changed:
            key = (last.session_key[session_id], number)
            if key in fresh:
                tables[key] = fresh[key]
            else:
                tables.pop(key, None)
    penalties = last.penalties
    if marker.penalty_part != last.marker.penalty_part:
        penalties = load_penalties(last.session_key)
    return TournamentFacts(tournament_id=last.tournament_id, marker=marker, numbers=last.numbers,
                           session_key=last.session_key, players=last.players,
                           tables=tables, penalties=penalties,
                           floor=max([last.floor, *(row.id for row in new)]), changes=count)
