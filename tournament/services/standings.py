"""Standings computed from the recorded facts: seats, hand payments, totals-only tables, penalties.

Nothing is stored that could drift: every call reads the facts with a fixed, small number of SQL
queries (payments are summed per session, table and player by the database) and hands them to
`tournament.services.ranking`, which alone decides table points and the order.

Counted sessions are those in play or finished; draft and published ones have no results yet.
A table counts for table points once it has an entered result: a hand (hand-by-hand tables) or a
total (totals-only tables). Active penalties are deducted from the offender's session score.

Many screens ask for the same standings between two hands, so the result is cached, keyed by
`change_marker`: the one place that says when the facts behind the standings have changed. When only
hands, totals or penalties changed, the facts of the last computation are brought up to date by reading
the changed tables again (the score changes say which), not the whole tournament; anything else, or any
doubt, reads everything afresh.
"""

from __future__ import annotations

import gc
import threading
import weakref
from collections import OrderedDict, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from functools import lru_cache

from sqlalchemy import ColumnElement, Integer, Row, Select, bindparam, func, select, true, tuple_

from tournament.extensions import db
from tournament.models import (
    Hand,
    HandPayment,
    Penalty,
    Player,
    PlayerStatus,
    ScoreChange,
    Seat,
    SessionStatus,
    SessionTable,
    TableMode,
    TableTotal,
    Tournament,
    TournamentSession,
)
from tournament.models._common import utcnow
from tournament.services.errors import NotFound
from tournament.services.ranking import (
    Entrant,
    Placing,
    RankedRow,
    TableResult,
    TeamRow,
    format_points,
    rank_players,
    rank_teams,
    split_table_points,
)

COUNTED_STATUSES = (SessionStatus.IN_PLAY.value, SessionStatus.FINISHED.value)
WIND_ORDER = {"E": 0, "S": 1, "W": 2, "N": 3}


@dataclass(frozen=True)
class Standings:
    tournament_id: int
    rows: list[RankedRow]            # ranked players, best first
    team_rows: list[TeamRow]         # teams, best first (empty when nobody has a team)
    session_numbers: tuple[int, ...]  # the sessions counted (in play or finished)
    generated_at: datetime           # naive UTC, like every timestamp of the project
    table_points: tuple[int, ...]
    tie_breaks: tuple[str, ...]
    # What the pages and the API derive from these standings (a rendered JSON body, say), kept with them in
    # the cache so that every poll between two hands does not render the same rows again.
    derived: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def player_ids(self) -> list[int]:
        """Ranked player ids best first: what the Swiss draw takes as `ranking`."""
        return [row.player_id for row in self.rows]


@dataclass(frozen=True)
class PlayerResult:
    """One player at one table of a session."""

    player_id: int
    name: str
    seat_wind: str | None            # None for a player with results but no seat (should not happen)
    is_substitute: bool
    table_score: int                 # sum of hand payments, or the sheet's total
    penalty: int                     # active penalty points deducted
    score: int                       # table_score - penalty: the session score
    place: int | None                # None while the table has no result
    table_points: Fraction

    @property
    def table_points_text(self) -> str:
        return format_points(self.table_points)


@dataclass(frozen=True)
class TableResults:
    table: int
    mode: str                        # "hands" or "totals"
    counted: bool                    # has an entered result
    hands: int                       # hands entered (hand-by-hand tables)
    players: list[PlayerResult]      # in seat order E, S, W, N

    @property
    def balance(self) -> int:
        """Sum of the table scores before penalties: 0 when the payments are consistent."""
        return sum(p.table_score for p in self.players)


@dataclass(frozen=True)
class SessionResults:
    number: int
    status: str
    tables: list[TableResults]
    generated_at: datetime


# ----------------------------------------------------------------------------- table facts


@dataclass
class _Table:
    """The facts of one table while they are gathered."""

    seats: dict[int, str]            # player id -> seat wind
    mode: str = TableMode.HANDS.value
    has_hands: bool = False
    payments: dict[int, int] | None = None
    totals: dict[int, int] | None = None

    @property
    def counted(self) -> bool:
        return bool(self.totals) if self.mode == TableMode.TOTALS else self.has_hands

    def table_scores(self) -> dict[int, int]:
        """Score per player before penalties; every seated player appears, results of others too."""
        source = (self.totals if self.mode == TableMode.TOTALS else self.payments) or {}
        scores = dict.fromkeys(self.seats, 0)
        for player_id, value in source.items():
            scores[player_id] = scores.get(player_id, 0) + value
        return scores


def _table_statements(some_tables: bool) -> tuple[Select, Select, Select]:
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
                .where(at(Hand))
                .group_by(Hand.session_id, Hand.table_number, HandPayment.player_id))
    totals = (select(SessionTable.session_id, SessionTable.table_number, SessionTable.mode,
                     TableTotal.player_id, TableTotal.score)
              .join(TournamentSession, TournamentSession.id == SessionTable.session_id)
              .outerjoin(TableTotal, TableTotal.table_id == SessionTable.id)
              .where(at(SessionTable)))
    return seats, payments, totals


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


def _rows(statement: Select) -> Sequence[Row]:
    """`_run` for a statement with its values inside (the statistics' queries)."""
    return _run(statement, {})


def _load_tables(session_key: dict[int, int],
                 only: Sequence[tuple[int, int]] | None = None) -> dict[tuple[int, int], _Table]:
    """Seats, hand payments and totals of the sessions `session_key` maps (their ids to the key used in the
    result: the session number): three queries. `only`, a list of (session id, table number), restricts the
    load to those tables."""
    tables: dict[tuple[int, int], _Table] = {}
    seats, payments, totals = _ALL_TABLES if only is None else _SOME_TABLES
    values = {"sessions": list(session_key), "tables": list(only or ())}

    def table(session_id: int, number: int) -> _Table:
        key = (session_key[session_id], number)
        facts = tables.get(key)
        if facts is None:
            facts = tables[key] = _Table(seats={})
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
    return tables


def _load_penalties(session_key: dict[int, int]) -> dict[tuple[int, int], int]:
    """Active penalty points per (session number, player)."""
    rows = _run(_ACTIVE_PENALTIES, {"sessions": list(session_key)})
    return {(session_key[session_id], player_id): int(total) for session_id, player_id, total in rows}


def _session_scores(facts: _Table, penalties: dict[int, int]) -> dict[int, int]:
    return {player_id: score - penalties.get(player_id, 0) for player_id, score in facts.table_scores().items()}


def _penalties_at(penalties: dict[tuple[int, int], int], session: int) -> dict[int, int]:
    return {player_id: amount for (number, player_id), amount in penalties.items() if number == session}


# ----------------------------------------------------------------------------- standings


def _entrant(player: Row, played: set[int]) -> Entrant:
    """Substitutes are never ranked; nor the disqualified, nor those who withdrew without playing.

    Names as `Player.full_name` and `Player.sort_name` give them, from plain columns (no ORM objects
    for a thousand players).
    """
    return _entrant_of(tuple(player), player.id in played)


@lru_cache(maxsize=8192)
def _entrant_of(player: tuple, has_played: bool) -> Entrant:
    # Cached: the players rarely change while hands are entered, and a standings asks for all of them.
    player_id, first_name, last_name, country, team, is_substitute, status = player
    ranked = not is_substitute and status != PlayerStatus.DISQUALIFIED and (
        has_played or status != PlayerStatus.WITHDRAWN
    )
    return Entrant(player_id=player_id, name=f"{first_name} {last_name}", sort_name=f"{last_name}, {first_name}",
                   country=country or "", team=(team or "").strip(), ranked=ranked)


@contextmanager
def _no_gc_pauses() -> Iterator[None]:
    """Tens of thousands of short-lived tuples (rows, cells) would trigger many full cyclic-GC passes
    over everything the process holds; they form no cycles, so collection waits until the end."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _in_play(tournament_id) -> ColumnElement[bool]:
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
    return select(
        Tournament.version,
        changes.add_columns(func.coalesce(func.max(ScoreChange.id), 0)).where(_in_play(tournament_id)).scalar_subquery(),
        scalar(func.count(), TournamentSession, in_tournament),
        scalar(func.coalesce(func.sum(TournamentSession.version), 0), TournamentSession, in_tournament),
        scalar(func.count(), Player, Player.tournament_id == tournament_id),
        scalar(func.coalesce(func.sum(Player.version), 0), Player, Player.tournament_id == tournament_id),
        scalar(func.count(), Penalty, Penalty.tournament_id == tournament_id),
        scalar(func.coalesce(func.sum(Penalty.version), 0), Penalty, Penalty.tournament_id == tournament_id),
        changes.add_columns(func.count()).where(_in_play(tournament_id)).scalar_subquery(),
    ).where(Tournament.id == tournament_id)


# Built once: every live poll runs it, and building the statement cost more than running it.
_CHANGE_MARKER = _change_marker_query()
# Where the parts of a marker are (see change_marker).
_LAST_CHANGE, _PENALTIES, _CHANGES = 1, slice(6, 8), 8


def change_marker(tournament_id: int) -> tuple[int, ...] | None:
    """A tuple that changes whenever anything the public pages show changes; None for no tournament.

    One small query: the tournament's version (settings, hidden standings), the last score change in the
    sessions in play (hands, totals and penalties all leave one), the sessions' and players' counts and summed
    versions (every update bumps a row's version, so the sums only grow), the penalties' likewise, and the
    number of score changes in the sessions in play. The number matters as much as the last one: two tables'
    hands commit in any order, so the change with the highest id can be seen before another one with a lower id.
    """
    if not 0 < tournament_id < 2**31:  # no such id fits the database's integer columns
        return None
    row = db.session.execute(_CHANGE_MARKER, {"tournament_id": tournament_id}).first()
    return None if row is None else tuple(int(value) for value in row)


def seating_marker(marker: tuple[int, ...]) -> tuple[int, ...]:
    """The part of a `change_marker` that seating follows: the tournament's version and its sessions' and
    players' counts and versions; not the score changes and penalties."""
    return marker[:1] + marker[2:6]


_CACHE_SIZE = 16
# One cache per database engine (an app has one): tests that reset a database get a fresh app and cache.
_caches: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_cache_lock = threading.Lock()
# The facts of the last standings computed, per database engine and tournament id.
_last_facts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def standings(t: Tournament) -> Standings:
    """The tournament's individual and team standings, computed from the recorded facts.

    One query when nothing changed since the last computation. After hands, totals or penalties only,
    the facts of the last computation are brought up to date (`_updated_facts`): a handful of queries
    that read the changed tables alone. Otherwise six queries whatever the size of the tournament
    (sessions, players, seats, summed payments, tables and totals, summed penalties).
    """
    marker = change_marker(t.id)
    key = (t.id, *(marker or ()))
    with _cache_lock:
        cache = _caches.setdefault(db.engine, OrderedDict())
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            return hit
        last = _last_facts.setdefault(db.engine, {}).get(t.id)
    with _no_gc_pauses():
        facts = (_updated_facts(last, marker) if last is not None and marker is not None else None) \
            or _read_facts(t, marker)
        result = _standings(t, facts)
    with _cache_lock:
        cache[key] = result
        while len(cache) > _CACHE_SIZE:
            cache.popitem(last=False)
        kept = _last_facts.setdefault(db.engine, {})
        if kept.get(t.id) is None or kept[t.id].changes <= facts.changes:  # the newer of two
            kept[t.id] = facts
    return result


def clear_caches() -> None:
    """Forget every standings and facts kept (benches measure the computation itself)."""
    with _cache_lock:
        _caches.clear()
        _last_facts.clear()


def counted_facts(t: Tournament) -> tuple[tuple[int, ...], list[Row], dict, dict[tuple[int, int], int]]:
    """What the standings are computed from: the counted session numbers, the players (plain rows), the
    tables of the counted sessions (`_Table` by (session number, table)) and the active penalties by
    (session number, player id). Five queries whatever the size of the tournament."""
    facts = _read_facts(t, None)
    return facts.numbers, facts.players, facts.tables, facts.penalties


@dataclass(frozen=True)
class _Facts:
    """The facts a standings is computed from, with what is needed to bring them up to date later."""

    tournament_id: int
    marker: tuple[int, ...] | None   # the change marker read before the facts
    numbers: tuple[int, ...]          # the counted sessions' numbers
    session_key: dict[int, int]       # their ids -> numbers
    players: list[Row]
    tables: dict[tuple[int, int], _Table]
    penalties: dict[tuple[int, int], int]
    # Every score change of the sessions in play with an id up to `floor` is in these facts, and there were
    # `changes` of them.
    floor: int
    changes: int


def _read_facts(t: Tournament, marker: tuple[int, ...] | None) -> _Facts:
    """All the facts, read afresh. A change committed after `marker` was read may be in them too: it is then
    read again by the next update, which is harmless (a table is always reloaded whole)."""
    sessions = db.session.execute(
        select(TournamentSession.id, TournamentSession.number)
        .where(TournamentSession.tournament_id == t.id, TournamentSession.status.in_(COUNTED_STATUSES))
        .order_by(TournamentSession.number)
    ).all()
    session_key = {session_id: number for session_id, number in sessions}
    players = _run(_PLAYERS, {"tournament_id": t.id})
    # The sessions read above, by id: a session that starts meanwhile cannot half-appear.
    tables = _load_tables(session_key) if sessions else {}
    penalties = _load_penalties(session_key) if sessions else {}
    return _Facts(tournament_id=t.id, marker=marker, numbers=tuple(number for _, number in sessions),
                  session_key=session_key,
                  players=players, tables=tables, penalties=penalties,
                  floor=marker[_LAST_CHANGE] if marker else -1, changes=marker[_CHANGES] if marker else -1)


def _changes_above_query() -> Select:
    """The number of score changes in the tournament's sessions in play, on every row of those with an id above
    `floor` (one row with no change when there is none): one statement, so both are read at the same moment."""
    tournament_id = bindparam("tournament_id", type_=Integer)
    total = (select(func.count().label("total")).select_from(ScoreChange)
             .join(TournamentSession, TournamentSession.id == ScoreChange.session_id)
             .where(_in_play(tournament_id))).subquery()
    above = (select(ScoreChange.id, ScoreChange.session_id, ScoreChange.table_number)
             .join(TournamentSession, TournamentSession.id == ScoreChange.session_id)
             .where(_in_play(tournament_id), ScoreChange.id > bindparam("floor", type_=Integer))).subquery()
    return (select(total.c.total, above.c.id, above.c.session_id, above.c.table_number)
            .select_from(total.outerjoin(above, true())))


_CHANGES_ABOVE = _changes_above_query()


def _updated_facts(last: _Facts, marker: tuple[int, ...]) -> _Facts | None:
    """`last` brought up to date by reloading only the tables with new score changes, and the penalties if
    they changed; None when that cannot be done safely (the caller then reads everything afresh).

    Only when the markers differ in score changes and penalties alone: their seating parts (settings,
    sessions, players) are the same. The changes with an id above `last.floor` are read with the number of
    all changes, in one statement.
    If the number below the floor grew, a change committed late (after one with a higher id) would be
    missed: everything is then read afresh.
    """
    if last.marker is None or last.floor < 0 or seating_marker(last.marker) != seating_marker(marker):
        return None
    rows = _run(_CHANGES_ABOVE, {"tournament_id": last.tournament_id, "floor": last.floor})
    count = rows[0].total
    new = [row for row in rows if row.id is not None]
    if count - len(new) != last.changes or any(
        row.table_number is None or row.session_id not in last.session_key for row in new
    ):
        return None
    changed = sorted({(row.session_id, row.table_number) for row in new})
    tables = dict(last.tables)
    if changed:
        fresh = _load_tables(last.session_key, only=changed)
        for session_id, number in changed:
            key = (last.session_key[session_id], number)
            if key in fresh:
                tables[key] = fresh[key]
            else:
                tables.pop(key, None)
    penalties = last.penalties
    if marker[_PENALTIES] != last.marker[_PENALTIES]:
        penalties = _load_penalties(last.session_key)
    return _Facts(tournament_id=last.tournament_id, marker=marker, numbers=last.numbers,
                  session_key=last.session_key, players=last.players,
                  tables=tables, penalties=penalties,
                  floor=max([last.floor, *(row.id for row in new)]), changes=count)


def _standings(t: Tournament, facts: _Facts) -> Standings:
    numbers, players, tables, penalties = facts.numbers, facts.players, facts.tables, facts.penalties
    by_session: dict[int, dict[int, int]] = defaultdict(dict)
    for (session, player_id), amount in penalties.items():
        by_session[session][player_id] = amount

    results = [
        TableResult(session=session, table=number, scores=_session_scores(table, by_session[session]),
                    counted=table.counted)
        for (session, number), table in sorted(tables.items())
    ]
    played = {player_id for r in results for player_id in r.scores}  # seated in a session in play
    penalty_totals: dict[int, int] = defaultdict(int)
    for (_, player_id), amount in penalties.items():
        penalty_totals[player_id] += amount

    rows = rank_players(
        [_entrant(p, played) for p in players], results,
        table_points=t.table_points_list, tie_breaks=t.tie_break_list,
        penalties=penalty_totals, session_numbers=numbers,
    )
    return Standings(
        tournament_id=t.id, rows=rows, team_rows=rank_teams(rows), session_numbers=numbers,
        generated_at=utcnow(), table_points=tuple(t.table_points_list), tie_breaks=tuple(t.tie_break_list),
    )


# ----------------------------------------------------------------------------- one session


def session_results(t: Tournament, number: int) -> SessionResults:
    """Per-table results of one drawn session: players in seat order, scores, penalties, table points.

    Works for any drawn session; one that is not in play yet simply has no counted table. Pages
    decide whether a draft session may be shown.
    """
    session = db.session.execute(
        select(TournamentSession.id, TournamentSession.status)
        .where(TournamentSession.tournament_id == t.id, TournamentSession.number == number)
    ).first()
    if session is None:
        raise NotFound(f"Session {number} has not been drawn yet.")
    session_id, status = session
    session_key = {session_id: number}

    tables = _load_tables(session_key)
    penalties = _penalties_at(_load_penalties(session_key), number)
    hand_counts = dict(db.session.execute(
        select(Hand.table_number, func.count(Hand.id)).where(Hand.session_id == session_id)
        .group_by(Hand.table_number)
    ).all())
    player_ids = {player_id for facts in tables.values() for player_id in facts.table_scores()}
    people = {
        p.id: p for p in db.session.scalars(select(Player).where(Player.tournament_id == t.id,
                                                                 Player.id.in_(player_ids)))
    } if player_ids else {}

    out = []
    for (_, table_number), facts in sorted(tables.items()):
        raw = facts.table_scores()
        scores = _session_scores(facts, penalties)
        placings: dict[int, Placing] = (
            split_table_points(scores, t.table_points_list) if facts.counted else {}
        )
        players = []
        for player_id in sorted(raw, key=lambda pid: (WIND_ORDER.get(facts.seats.get(pid, ""), 9), pid)):
            person = people.get(player_id)
            placing = placings.get(player_id)
            players.append(PlayerResult(
                player_id=player_id,
                name=person.full_name if person else f"#{player_id}",
                seat_wind=facts.seats.get(player_id),
                is_substitute=bool(person and person.is_substitute),
                table_score=raw[player_id],
                penalty=penalties.get(player_id, 0),
                score=scores[player_id],
                place=placing.place if placing else None,
                table_points=placing.table_points if placing else Fraction(0),
            ))
        out.append(TableResults(table=table_number, mode=facts.mode, counted=facts.counted,
                                hands=int(hand_counts.get(table_number, 0)), players=players))
    return SessionResults(number=number, status=str(status), tables=out, generated_at=utcnow())
