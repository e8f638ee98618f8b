"""Seating draws of a tournament's sessions, stored as seats; quality checked before publishing.

The arithmetic lives in `tournament.draws` (pure functions over player ids); this module picks
the players, records seeds and seats, and enforces when a seating may still change.
"""

from __future__ import annotations

import itertools
import random
import secrets
from collections.abc import Hashable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import joinedload
from sqlalchemy.orm.attributes import set_committed_value

from tournament import draws as engine
from tournament.constants import MAX_SEED
from tournament.extensions import db
from tournament.messages import Message, as_data, msg, msg_n
from tournament.models import (
    SEAT_WINDS,
    DrawAction,
    DrawEvent,
    DrawMethod,
    DrawPriority,
    Hand,
    PlayerStatus,
    Seat,
    SessionStatus,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.core.records import expect_version
from tournament.services.people import registration


def new_seed() -> int:
    return secrets.randbelow(MAX_SEED)


# ----------------------------------------------------------------------------- who is drawn


def field_for_draw(t: Tournament, *, planning: bool) -> tuple[list[int], list[int]]:
    """(players, substitutes) to seat.

    Drawing one session seats those checked in (present): withdrawn, disqualified and absent
    players are left out and late arrivals who checked in are included. Planning every session
    up front (before anyone has arrived) seats everyone registered or present.
    """
    if not planning:
        return ([p.id for p in registration.active_players(t)],
                [p.id for p in registration.available_substitutes(t)])
    players, substitutes = [], []
    for p in registration.players_of(t):
        if p.status in (PlayerStatus.REGISTERED, PlayerStatus.PRESENT):
            (substitutes if p.is_substitute else players).append(p.id)
    return players, substitutes


def groups_for(t: Tournament) -> dict[int, Hashable]:
    """Who must not share a table: teammates or clubmates, as the tournament chooses."""
    if t.draw_separation == "none":
        return {}
    attribute = "club" if t.draw_separation == "club" else "team"
    groups: dict[int, Hashable] = {}
    shown: dict[str, str] = {}  # one group however it is capitalised, shown as first spelled (not lower-cased)
    for p in registration.players_of(t):
        name = " ".join((getattr(p, attribute) or "").split())
        if name and not p.is_substitute:
            groups[p.id] = shown.setdefault(name.casefold(), name)
    return groups


def fixed_tables(t: Tournament) -> dict[int, int]:
    """Players with access needs -> the table number they keep in every draw."""
    return {p.id: p.fixed_table for p in registration.players_of(t) if p.fixed_table}


def entrants_for(t: Tournament, *, planning: bool) -> engine.Entrants:
    """Who a draw of this tournament seats (see `field_for_draw`)."""
    return entrants_of(t, *field_for_draw(t, planning=planning))


def entrants_of(t: Tournament, players: Sequence[int], substitutes: Sequence[int]) -> engine.Entrants:
    """These players and substitutes, kept apart by `groups_for` as the tournament's `draw_priority` says, with
    their fixed tables."""
    return engine.Entrants(players, substitutes, groups_for(t), fixed_tables(t),
                           teams_first=t.draw_priority == DrawPriority.TEAMS_FIRST)


def substitute_ids(t: Tournament) -> list[int]:
    return [p.id for p in registration.players_of(t) if p.is_substitute]


# ----------------------------------------------------------------------------- reading


def get_session(t: Tournament, number: int) -> TournamentSession:
    session = db.session.scalar(
        select(TournamentSession).where(TournamentSession.tournament_id == t.id, TournamentSession.number == number)
    )
    if session is None:
        raise NotFound(msg("Session %(number)s has not been drawn yet.", number=number))
    return session


def drawn_sessions(t: Tournament) -> list[TournamentSession]:
    return list(
        db.session.scalars(
            select(TournamentSession)
            .where(TournamentSession.tournament_id == t.id)
            .order_by(TournamentSession.number)
        )
    )


def require_next(t: Tournament, number: int) -> None:
    """Session `number` must be the next one to draw, else a 409 naming the one that is (the API draws new
    sessions only; the pages redraw the last one on purpose)."""
    following = len(drawn_sessions(t)) + 1
    if number != following or number > t.session_count:
        raise ConflictError(msg("Session %(number)s cannot be drawn now: session %(next)s is the next one to draw.",
                                number=number, next=following) if following <= t.session_count else
                            msg("Session %(number)s cannot be drawn now: all %(count)s sessions are drawn.",
                                number=number, count=t.session_count), field="number")


def schedule(sessions: Sequence[TournamentSession]) -> list[list[tuple[int, int, int, int]]]:
    return [s.tables() for s in sessions]


def quality(t: Tournament, upto: int | None = None) -> engine.QualityReport:
    """Quality of the seating of sessions 1..upto (all drawn sessions by default)."""
    sessions = [s for s in drawn_sessions(t) if upto is None or s.number <= upto]
    return engine.quality_report(schedule(sessions), groups_for(t), substitute_ids(t))


# ----------------------------------------------------------------------------- writing


def _seat(session: TournamentSession, tables: Sequence[Sequence[int]]) -> None:
    """Seat the tables (player ids in wind order E, S, W, N), numbered from 1."""
    for table_number, table in enumerate(tables, start=1):
        for wind, player_id in zip(SEAT_WINDS, table, strict=True):
            session.seats.append(Seat(table_number=table_number, seat_wind=wind, player_id=int(player_id)))


def _store(t: Tournament, number: int, tables: Sequence[Sequence[int]], seed: int,
           method: DrawMethod) -> TournamentSession:
    session = TournamentSession(tournament_id=t.id, number=number, seed=seed, method=method,
                                status=SessionStatus.DRAFT, drawn_at=utcnow())
    _seat(session, tables)
    db.session.add(session)
    return session


def _check_seed(seed: int | None) -> int:
    if seed is None:
        return new_seed()
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise ServiceError(msg("The seed must be a whole number from 0 to %(max_seed)s.", max_seed=MAX_SEED), field="seed")
    return seed


def has_hands(session: TournamentSession) -> bool:
    if session.id is None:
        return False
    return db.session.scalar(select(Hand.id).where(Hand.session_id == session.id).limit(1)) is not None


def _refuse_locked(sessions: Sequence[TournamentSession]) -> None:
    # In play, or with hands entered (even if its status was moved back): the seating is what was played.
    locked = [s.number for s in sessions if s.is_locked or has_hands(s)]
    if locked:
        names = ", ".join(str(n) for n in locked)
        raise ServiceError(
            msg_n("Session %(names)s is already in play: its seating can no longer be redrawn.",
                  "Session %(names)s are already in play: its seating can no longer be redrawn.", len(locked),
                  names=names)
        )


def plan_all(t: Tournament, seed: int | None = None, user: User | None = None) -> list[TournamentSession]:
    """Draw every session not yet in play, up front, from one recorded seed.

    Sessions already in play are kept as history; the rest are (re)drawn so that the whole
    tournament has as few repeat opponents and as balanced seat winds as possible.
    """
    seed = _check_seed(seed)
    existing = drawn_sessions(t)
    kept = []
    for s in existing:
        if not s.is_locked:
            break
        kept.append(s)
    _refuse_locked(existing[len(kept):])
    entrants = entrants_for(t, planning=True)
    try:
        if kept:
            history = schedule(kept)
            planned = []
            for _ in range(len(kept), t.session_count):
                tables = engine.draw_session(entrants, seed=seed, history=history + planned,
                                             total_sessions=t.session_count)
                planned.append([tuple(x) for x in tables])
        else:
            planned = engine.plan_tournament(entrants.players, t.session_count, seed=seed, groups=entrants.groups,
                                             substitutes=entrants.substitutes, fixed=entrants.fixed)
    except engine.DrawError as exc:
        raise ServiceError(_draw_error_message(exc, planning=True)) from exc
    with drawn_meanwhile(len(kept) + 1):
        versions = {s.number: s.version for s in existing[len(kept):]}
        _lock_unchanged(existing[len(kept):])
        for s in existing[len(kept):]:
            db.session.delete(s)
        db.session.flush()
        stored = [
            _store(t, number, tables, seed, DrawMethod.PLAN)
            for number, tables in enumerate(planned, start=len(kept) + 1)
        ]
        _continue_versions(stored, versions)
        numbers = span([s.number for s in stored])
        for s in stored:
            record_event(t, s.number, DrawAction.PLANNED, user, seed=seed,
                         detail=msg("sessions %(numbers)s planned up front", numbers=numbers) if len(stored) > 1 else "")
    return stored


def draw_next(t: Tournament, seed: int | None = None, swiss: Swiss | None = None,
              number: int | None = None, expected_number: int | None = None,
              user: User | None = None) -> TournamentSession:
    """Draw one session from the players present now and the seating of the earlier sessions.

    `number` defaults to the first session not drawn yet; naming the last drawn session redraws
    it (allowed until play starts). `swiss` asks for Swiss seating by the standings (`swiss_ranking`, ties by a
    lot from this draw's seed), strict or keeping apart (`Swiss`). A new session
    drawn without a seed reuses the first session's seed: with an unchanged field the draw then follows the same
    plan as an up-front draw, which keeps the tight sizes free of repeat opponents. `expected_number` is the
    new session the caller's page offered: when another request drew it meanwhile, this one is a conflict.
    """
    existing = drawn_sessions(t)
    if number is None:
        number = len(existing) + 1
    if expected_number is not None and expected_number != number:
        raise ConflictError(msg("Session %(expected_number)s was drawn by someone else meanwhile. Nothing"
                                " was changed; check the sessions below.", expected_number=expected_number))
    # No seed: a random one. The draw follows the plan the earlier sessions were drawn from while the field is
    # unchanged, whatever the seed, so a new seed no longer costs repeats, clashes or wind balance.
    seed = _check_seed(seed)
    if not 1 <= number <= t.session_count:
        raise ServiceError(msg("The tournament has %(session_count)s sessions; there is no session "
                               "%(number)s.", session_count=t.session_count, number=number))
    if number > len(existing) + 1:
        raise ServiceError(msg("Draw session %(number)s first.", number=len(existing) + 1))
    later = [s for s in existing if s.number > number]
    if later:
        raise ServiceError(
            msg("Sessions %(first)s–%(last)s come after session %(number)s. Use “Plan all sessions” to redraw "
                "every session not in play, or redraw session %(latest)s only.", first=later[0].number,
                last=later[-1].number, number=number, latest=existing[-1].number)
        )
    replaced = [s for s in existing if s.number == number]
    _refuse_locked(replaced)
    earlier = [s for s in existing if s.number < number]
    history = schedule(earlier)
    try:
        tables = engine.draw_session(entrants_for(t, planning=False), seed=seed, history=history,
                                     ranking=swiss_ranking(t, seed) if swiss else None,
                                     keep_apart=bool(swiss and swiss.keep_apart), total_sessions=t.session_count,
                                     history_seeds=[s.seed for s in earlier])
    except engine.DrawError as exc:
        raise ServiceError(_draw_error_message(exc, planning=False)) from exc
    method = DrawMethod.SWISS if swiss else DrawMethod.DRAW
    with drawn_meanwhile(number):
        versions = {s.number: s.version for s in replaced}
        _lock_unchanged(replaced)
        for s in replaced:
            db.session.delete(s)
        db.session.flush()
        session = _store(t, number, tables, seed, method)
        _continue_versions([session], versions)
        record_event(t, number, DrawAction.REDRAWN if replaced else DrawAction.DRAWN, user, seed=seed,
                     detail="" if swiss is None else msg("by the standings (Swiss, teammates apart)")
                     if swiss.keep_apart else msg("by the standings (Swiss)"))
    return session


def swiss_ranking(t: Tournament, seed: int) -> list[int]:
    """The standings' player ids, best first: what a Swiss draw seats (ranks 1-4 at table 1 ...). Players the
    standings rank equal (table points, score and the tournament's tie-breaks all equal) are ordered by a lot
    drawn from `seed`, the draw's recorded seed: never by name, and the same seed gives the same order."""
    from tournament.services.results import standings as standings_service

    lot = random.Random(seed)
    ordered: list[int] = []
    rows = standings_service.standings(t).rows
    for _, tied in itertools.groupby(rows, key=lambda row: row.rank):
        ids = sorted(row.player_id for row in tied)
        lot.shuffle(ids)
        ordered.extend(ids)
    return ordered


@dataclass(frozen=True)
class Swiss:
    """A Swiss draw (by the standings, ties by lot); ``keep_apart``: then swaps with the nearest groups so that
    no table seats teammates (the tournament's `draw_separation`) and as few as possible seat players who met.
    Without it the draw is strict: the top four at table 1, whoever they are (a final)."""

    keep_apart: bool = False


def span(numbers: Sequence[int]) -> str:
    """Session numbers as a span: "3" or "3–7"."""
    return str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}–{numbers[-1]}"


# ----------------------------------------------------------------------------- provenance


def record_event(t: Tournament, number: int, action: DrawAction, user: User | None, seed: int | None = None,
                 detail: str = "") -> DrawEvent:
    """One line of the seatings' history (flushed with the draw, swap or re-plan it describes). A detail that
    is a message is kept as one too (`detail_words`), so that each reader sees it in their language."""
    words = as_data(detail) if isinstance(detail, Message) else None
    event = DrawEvent(tournament_id=t.id, session_number=number, action=action, seed=seed, detail=detail[:500],
                      detail_words=words, user_id=user.id if user else None)
    db.session.add(event)
    return event


def draw_events(t: Tournament) -> list[DrawEvent]:
    """Every draw, plan, re-plan and swap of the tournament, oldest first."""
    return list(db.session.scalars(select(DrawEvent).where(DrawEvent.tournament_id == t.id)
                                   .options(joinedload(DrawEvent.user)).order_by(DrawEvent.at, DrawEvent.id)))


# What made a session's current seating from its seed: a later swap changes it by hand.
_DRAWING = (DrawAction.PLANNED, DrawAction.DRAWN, DrawAction.REDRAWN, DrawAction.REPLANNED, DrawAction.MENDED)


@dataclass(frozen=True)
class Provenance:
    """Where a session's seating comes from: the event that drew it from its seed (None: drawn before the
    history was kept) and the swaps made by hand since, after which the seed alone no longer reproduces it."""

    drawn: DrawEvent | None
    swaps: list[DrawEvent]

    @property
    def seed_reproduces(self) -> bool:
        return not self.swaps


def provenance(t: Tournament, session: TournamentSession, events: Sequence[DrawEvent] | None = None) -> Provenance:
    mine = [e for e in (draw_events(t) if events is None else events) if e.session_number == session.number]
    drawn = None
    swaps: list[DrawEvent] = []
    for event in mine:
        if event.action in _DRAWING:
            drawn, swaps = event, []
        elif event.action == DrawAction.SWAPPED:
            swaps.append(event)
    return Provenance(drawn=drawn, swaps=swaps)


def _lock_unchanged(sessions: Sequence[TournamentSession]) -> None:
    """Lock the rows a draw replaces; one already replaced or changed by another request is a conflict."""
    for session in sessions:
        current = db.session.scalar(select(TournamentSession.version).where(TournamentSession.id == session.id)
                                    .with_for_update())
        if current != session.version:
            raise ConflictError(_stale_message(session))


def _continue_versions(sessions: Sequence[TournamentSession], versions: dict[int, int]) -> None:
    """A redrawn session is a new row, whose version would start again at 1: it continues from the row it
    replaces instead, so that a page still showing the old seating (same number, old version) is refused."""
    db.session.flush()
    for session in sessions:
        if session.number in versions:
            version = versions[session.number] + 1
            db.session.execute(update(TournamentSession).where(TournamentSession.id == session.id)
                               .values(version=version))
            set_committed_value(session, "version", version)


@contextmanager
def drawn_meanwhile(number: int) -> Iterator[None]:
    """The writes of a draw; another draw of the same session committed meanwhile (the unique session number
    refuses the insert, or the replaced session is already gone) is a clear conflict."""
    try:
        with changes():
            yield
    except ConflictError:
        raise ConflictError(msg("Session %(number)s was drawn by someone else at the same moment. Nothing"
                                " was changed; check the seating below.", number=number)) from None


def redraw(t: Tournament, session: TournamentSession, expected_version: int | None,
           seed: int | None = None, user: User | None = None) -> TournamentSession:
    """Draw the last drawn session again, unless it changed since the page was loaded."""
    expect_version(session, expected_version, _stale_message(session))
    # The row the page showed, locked: a redraw committed since this request loaded it (a new row under the
    # same number) is a conflict here, not a second redraw of the winner's seating.
    _lock_unchanged([session])
    return draw_next(t, seed=seed, number=session.number, user=user)


def _draw_error_message(exc: engine.DrawError, planning: bool) -> Message:
    if planning:
        return msg("The draw cannot be made: %(reason)s. Players registered and substitutes are seated.",
                   reason=reason_of(exc))
    return msg("The draw cannot be made: %(reason)s. Players checked in and substitutes are seated.",
               reason=reason_of(exc))


def reason_of(exc: engine.DrawError) -> Message | str:
    """The engine's own words (a Message the pages translate), or its text."""
    reason = exc.args[0] if exc.args else ""
    return reason if isinstance(reason, Message) else str(exc)


def _stale_message(session: TournamentSession) -> Message:
    return msg("Session %(number)s was changed by someone else meanwhile. Nothing was changed; check the seating "
               "again.", number=session.number)


def expect_session_version(session: TournamentSession, expected_version: int | None) -> None:
    """A page's action on a session changed since it was loaded is a conflict (no version given: none to compare)."""
    if expected_version is not None:
        expect_version(session, expected_version, _stale_message(session))


@dataclass(frozen=True)
class SwapResult:
    session: TournamentSession
    before: engine.QualityReport
    after: engine.QualityReport


def swap(t: Tournament, session: TournamentSession, player_a: int, player_b: int,
         expected_version: int | None, user: User | None = None) -> SwapResult:
    """Exchange two players' seats in a session; an unseated player takes the seated one's place."""
    if session.tournament_id != t.id:
        raise NotFound(msg("No such session in this tournament."))
    _refuse_locked([session])
    expect_version(session, expected_version, _stale_message(session))
    if player_a == player_b:
        raise ServiceError(msg("Choose two different players."), field="player_b")
    players = {p.id: p for p in registration.players_of(t)}
    for field, pid in (("player_a", player_a), ("player_b", player_b)):
        if pid not in players:
            raise ServiceError(msg("Choose a player of this tournament."), field=field)
    seated = {seat.player_id for seat in session.seats}
    if player_a not in seated and player_b not in seated:
        raise ServiceError(msg("At least one of the two players must be seated in this session."), field="player_a")
    for pid in (player_a, player_b):
        if pid not in seated and players[pid].status in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED):
            raise ServiceError(msg("%(name)s is withdrawn and cannot be seated.", name=players[pid].full_name)
                               if players[pid].status == PlayerStatus.WITHDRAWN else
                               msg("%(name)s is disqualified and cannot be seated.", name=players[pid].full_name),
                               field="player_b")
    before = quality(t, upto=session.number)
    tables = schedule(drawn_sessions(t))
    swapped = engine.swap_players(tables, session.number - 1, player_a, player_b)[session.number - 1]
    with changes():
        # Delete and re-insert: swapping player ids in place would briefly break the unique seat keys.
        for seat in list(session.seats):
            session.seats.remove(seat)
        db.session.flush()
        _seat(session, swapped)
        session.drawn_at = utcnow()  # bumps the version: other open pages see the change
        a, b = players[player_a].full_name, players[player_b].full_name
        record_event(t, session.number, DrawAction.SWAPPED, user,
                     detail=f"{a} ⇄ {b}" if player_a in seated and player_b in seated else
                     msg("%(incoming)s seated instead of %(outgoing)s", incoming=b if player_a in seated else a,
                         outgoing=a if player_a in seated else b))
    db.session.refresh(session)
    return SwapResult(session=session, before=before, after=quality(t, upto=session.number))


def set_separation(t: Tournament, separation: str) -> None:
    from tournament.models import DRAW_SEPARATIONS

    if separation not in DRAW_SEPARATIONS:
        raise ServiceError(msg("Choose teammates, clubmates or nobody."), field="separation")
    with changes():
        t.draw_separation = separation


# ----------------------------------------------------------------------------- views for pages


@dataclass(frozen=True)
class SeatView:
    table: int
    wind: str
    player_id: int
    name: str
    sort_name: str
    country: str
    is_substitute: bool
    name_order: tuple[str, str]
    previous_table: int | None = None  # the table published before the session was mended (None: unchanged)


def _seat_view(s: Seat) -> SeatView:
    return SeatView(
        table=s.table_number,
        wind=s.seat_wind,
        player_id=s.player_id,
        name=s.player.full_name,
        sort_name=s.player.sort_name,
        country=s.player.country,
        is_substitute=s.player.is_substitute,
        name_order=registration.name_order(s.player.last_name, s.player.first_name),
        previous_table=s.previous_table,
    )


def seatings(sessions: Sequence[TournamentSession]) -> dict[int, list[SeatView]]:
    """The seats of each session (by session id) with their players, in one query: pages run the same
    number of queries for 8 players as for 1,000 (a lazy `seat.player` was one query per seat)."""
    seats = db.session.scalars(
        select(Seat).where(Seat.session_id.in_([s.id for s in sessions])).options(joinedload(Seat.player))
    ) if sessions else []
    views: dict[int, list[SeatView]] = {s.id: [] for s in sessions}
    for seat in sorted(seats, key=lambda s: (s.table_number, s.wind_order)):
        views[seat.session_id].append(_seat_view(seat))
    return views


def seating(session: TournamentSession) -> list[SeatView]:
    return seatings([session])[session.id]


@dataclass(frozen=True)
class SeatingPage:
    """A session's seats as the pages show them: by table (in wind order) and by player name."""

    tables: list[tuple[int, list[SeatView]]]
    by_name: list[SeatView]


def seating_page(session: TournamentSession | None) -> SeatingPage:
    seats = seating(session) if session is not None else []
    tables: dict[int, list[SeatView]] = {}
    for seat in seats:
        tables.setdefault(seat.table, []).append(seat)
    return SeatingPage(tables=sorted(tables.items()), by_name=sorted(seats, key=lambda s: s.name_order))


@dataclass(frozen=True)
class ScheduleEntry:
    session: int
    table: int
    wind: str
    opponents: tuple[str, ...]
    previous_table: int | None = None  # the table published before a change of the field moved the player


def player_schedule(t: Tournament, player_id: int, published_only: bool = True) -> list[ScheduleEntry]:
    """Where a player sits in every (published) session, with the others at the table."""
    entries = []
    sessions = [s for s in drawn_sessions(t) if s.is_published or not published_only]
    by_session = seatings(sessions)
    for session in sessions:
        seats = by_session[session.id]
        mine = next((s for s in seats if s.player_id == player_id), None)
        if mine is None:
            continue
        others = tuple(s.name for s in seats if s.table == mine.table and s.player_id != player_id)
        entries.append(ScheduleEntry(session=session.number, table=mine.table, wind=mine.wind, opponents=others,
                                     previous_table=mine.previous_table))
    return entries
