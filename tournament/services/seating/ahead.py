"""The sessions drawn ahead (drawn, not in play) when the field changes: mended at once, moving as few players
as the change must; the re-plan for quality as an explicit action that says first whom it would move; the check
before publishing (players registered who have not checked in, and the action to leave them out).

A change of who plays (a withdrawal, a disqualification, a check-in, a reinstatement, a new registration) comes
through `change_field`, so no session drawn ahead keeps a player who left or leaves out one who came. A
published session mended or re-planned keeps, for each player now at another table, the table they were
published at (`Seat.previous_table`): their page and calendar mark the table changed, and the printing page
offers the schedule cards of just those players.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import select

from tournament import draws as engine
from tournament.extensions import db
from tournament.messages import Message, MessageList, msg, msg_n
from tournament.models import (
    SEAT_WINDS,
    DrawAction,
    DrawMethod,
    Player,
    PlayerStatus,
    Seat,
    SessionStatus,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.core.errors import ConflictError, ServiceError
from tournament.services.people import registration
from tournament.services.seating import draws
from tournament.services.seating.draws import drawn_sessions, record_event, schedule

T = TypeVar("T")
GONE = (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED)


def change_field(t: Tournament, change: Callable[[], T], user: User | None = None) -> tuple[T, str]:
    """A change of who plays (`change()`: a check-in, a withdrawal, a disqualification, a reinstatement, the
    no-shows withdrawn, a new registration, by the registration service), then the sessions drawn ahead and not
    in play mended for the field it leaves (`mend_ahead`). Every page and API route that changes who plays
    comes through here. Returns what `change` returned and what the mending did ("" when the sessions ahead
    already fit)."""
    result = change()
    return result, mend_ahead(t, user)


# ----------------------------------------------------------------------------- which sessions, whom they seat


def sessions_ahead(t: Tournament) -> tuple[list[TournamentSession], list[TournamentSession]]:
    """(the sessions played or in play, the sessions drawn ahead after them: not in play, no hand entered)."""
    existing = drawn_sessions(t)
    played = 0
    for i, s in enumerate(existing):
        if s.is_locked or draws.has_hands(s):
            played = i + 1
    return existing[:played], existing[played:]


def _session_entrants(t: Tournament, session: TournamentSession, people: Sequence[Player], seated_anywhere: set[int],
                      left_out: Sequence[int] = ()) -> engine.Entrants:
    """Whom a session drawn ahead seats now: everyone it seats who has not left, players checked in since, and,
    in a plan (which seats those registered too), players registered since it was made (seated in no session
    yet); substitutes available then (checked in, or registered for a plan, or seated in it). ``left_out``:
    players the organiser leaves out of this session (registered, not checked in)."""
    seated = {seat.player_id for seat in session.seats}
    planning = session.method == DrawMethod.PLAN
    players, substitutes = [], []
    for p in people:
        if p.status in GONE or p.id in left_out:
            continue
        if p.is_substitute:
            if p.id in seated or p.status == PlayerStatus.PRESENT or planning:
                substitutes.append(p.id)
        elif p.id in seated or p.status == PlayerStatus.PRESENT or (planning and p.id not in seated_anywhere):
            players.append(p.id)
    return draws.entrants_of(t, players, substitutes)


# ----------------------------------------------------------------------------- mending


@dataclass(frozen=True)
class MendedSession:
    session: TournamentSession
    moved: list[int]  # players now at another table number
    came: list[int]
    left: list[int]


def mend_ahead(t: Tournament, user: User | None = None, only: int | None = None,
               left_out: Sequence[int] = ()) -> str:  # a Message when something was said
    """Mend the sessions drawn ahead that no longer fit the field (`engine.mend_sessions`: who left gives their
    seats to who came, at most 4 players change table in a session that loses a table), keeping their status
    and seed; says what changed, naming the players who change table. ``only``: that session alone, leaving out
    ``left_out`` (the check before publishing)."""
    played, ahead = sessions_ahead(t)
    if only is not None:
        ahead = [s for s in ahead if s.number == only]
    if not ahead:
        return ""
    people = registration.players_of(t)
    names = {p.id: p.full_name for p in people}
    seated_anywhere = {seat.player_id for s in [*played, *ahead] for seat in s.seats}
    entrants = [_session_entrants(t, s, people, seated_anywhere, left_out) for s in ahead]
    before = schedule(ahead)
    try:
        mended = engine.mend_sessions(before, entrants, history=schedule(played), seed=ahead[0].seed)
    except engine.DrawError as exc:
        # not a refusal: the change that asked for it stands; the draws page keeps warning
        return msg("Sessions drawn ahead could not be mended: %(reason)s. %(warning)s",
                   reason=draws.reason_of(exc), warning=check_ahead(t).message)
    changed = []
    for s, old, new, moved in zip(ahead, before, mended.sessions, mended.moved, strict=True):
        if [tuple(x) for x in old] == [tuple(x) for x in new]:
            continue
        was, now = {p for x in old for p in x}, {p for x in new for p in x}
        changed.append((MendedSession(s, moved, sorted(now - was), sorted(was - now)), new))
    if not changed:
        return ""
    with draws.drawn_meanwhile(changed[0][0].session.number):
        for done, tables in changed:
            reseat(done.session, tables)
            record_event(t, done.session.number, DrawAction.MENDED, user, seed=done.session.seed,
                         detail=_detail(done, names))
    return _said([done for done, _ in changed], names)


def _change_words(left: Sequence[int], came: Sequence[int], names: dict[int, str]) -> Message | None:
    gone, new = ", ".join(names[p] for p in left), ", ".join(names[p] for p in came)
    return (msg("without %(gone)s and with %(missing)s", gone=gone, missing=new) if gone and new else
            msg("without %(names)s", names=gone) if gone else msg("with %(names)s", names=new) if new else None)


def _detail(done: MendedSession, names: dict[int, str]) -> Message:
    """The draw history's line for one mended session (worded for each reader where it is shown)."""
    change = _change_words(done.left, done.came, names)
    moved = ", ".join(names[p] for p in done.moved)
    if change is None:
        return msg("%(names)s change table", names=moved) if moved else msg("everyone else keeps their table")
    if moved:
        return msg("%(change)s; %(names)s change table", change=change, names=moved)
    return msg("%(change)s; everyone else keeps their table", change=change)


def _said(done: Sequence[MendedSession], names: dict[int, str]) -> Message:
    left = sorted({p for d in done for p in d.left}, key=lambda p: names[p])
    came = sorted({p for d in done for p in d.came}, key=lambda p: names[p])
    change = _change_words(left, came, names)
    moving = [d for d in done if d.moved]
    moved = (msg("everyone else keeps their table") if not moving else MessageList("; ", [
        msg_n("session %(number)s: %(names)s changes table", "session %(number)s: %(names)s change table",
              len(d.moved), number=d.session.number, names=", ".join(names[p] for p in d.moved))
        for d in moving]))
    numbers = [d.session.number for d in done]
    span = ", ".join(str(n) for n in numbers) if numbers != list(range(numbers[0], numbers[-1] + 1)) \
        else draws.span(numbers)
    if change is None:
        return msg_n("Session %(span)s mended (%(moved)s).", "Sessions %(span)s mended (%(moved)s).", len(numbers),
                     span=span, moved=moved)
    return msg_n("Session %(span)s mended %(change)s (%(moved)s).", "Sessions %(span)s mended %(change)s (%(moved)s).",
                 len(numbers), span=span, change=change, moved=moved)


def reseat(session: TournamentSession, tables: Sequence[Sequence[int]]) -> list[int]:
    """Seat a session drawn ahead again (player ids E, S, W, N per table, numbered from 1); in a published
    session, a player now at another table keeps the table they were published at (`Seat.previous_table`,
    cleared when they are back at it). Returns the players at another table number than before."""
    was = {seat.player_id: (seat.table_number, seat.previous_table) for seat in session.seats}
    for seat in list(session.seats):
        session.seats.remove(seat)
    db.session.flush()
    moved = []
    for number, table in enumerate(tables, start=1):
        for wind, player_id in zip(SEAT_WINDS, table, strict=True):
            previous = None
            if int(player_id) in was:
                old, first = was[int(player_id)]
                if old != number:
                    moved.append(int(player_id))
                if session.is_published:
                    published = old if first is None else first
                    previous = published if published != number else None
            session.seats.append(Seat(table_number=number, seat_wind=wind, player_id=int(player_id),
                                      previous_table=previous))
    session.drawn_at = utcnow()  # bumps the version: pages still showing the old seating are refused
    return sorted(moved)


# ----------------------------------------------------------------------------- the warning of the draws page


@dataclass(frozen=True)
class AheadCheck:
    """Sessions drawn ahead (not in play) that no longer fit the field: who is seated but gone, who is
    present and planned nowhere (a change the draws did not hear of; `change_field` mends at once)."""

    sessions: list[TournamentSession]
    gone: list[str]
    missing: list[str]

    @property
    def message(self) -> str:
        if not self.sessions:
            return ""
        numbers, count = ", ".join(str(s.number) for s in self.sessions), len(self.sessions)
        gone, missing = ", ".join(self.gone), ", ".join(self.missing)
        left = (msg_n("%(names)s, who has left", "%(names)s, who have left", len(self.gone), names=gone)
                if self.gone else None)
        if left and missing:
            return msg_n("Session %(numbers)s seats %(left)s and leaves out %(missing)s, checked in since.",
                         "Sessions %(numbers)s seat %(left)s and leave out %(missing)s, checked in since.", count,
                         numbers=numbers, left=left, missing=missing)
        if left:
            return msg_n("Session %(numbers)s seats %(left)s.", "Sessions %(numbers)s seat %(left)s.", count,
                         numbers=numbers, left=left)
        return msg_n("Session %(numbers)s leaves out %(missing)s, checked in since.",
                     "Sessions %(numbers)s leave out %(missing)s, checked in since.", count, numbers=numbers,
                     missing=missing)


def check_ahead(t: Tournament) -> AheadCheck:
    _, ahead = sessions_ahead(t)
    people = registration.players_of(t)
    gone = {p.id: p.full_name for p in people if p.status in GONE}
    present = {p.id: p.full_name for p in people if p.status == PlayerStatus.PRESENT and not p.is_substitute}
    hit, out, missing = [], set(), set()
    for s in ahead:
        seated = {seat.player_id for seat in s.seats}
        late = {present[p] for p in present if p not in seated}
        if seated & gone.keys() or late:
            hit.append(s)
            out |= {gone[p] for p in seated & gone.keys()}
            missing |= late
    return AheadCheck(hit, sorted(out), sorted(missing))


# ----------------------------------------------------------------------------- the check before publishing


def not_checked_in(t: Tournament, session: TournamentSession) -> list[Player]:
    """Players (not substitutes) a session not in play seats who are registered but have not checked in, by
    name: a plan seats everyone registered; before publishing, the organiser may leave them out."""
    seated = {seat.player_id for seat in session.seats}
    return registration.by_name(p for p in registration.players_of(t)
                                if p.id in seated and p.status == PlayerStatus.REGISTERED and not p.is_substitute)


def leave_out_not_checked_in(t: Tournament, number: int, expected_version: int | None,
                             user: User | None = None) -> str:
    """Session `number` (drawn ahead, not in play) mended without the players it seats who have not checked in:
    substitutes or a dissolved table take their seats; they stay in the later sessions (a check-in seats them
    again in any session that left them out)."""
    session = draws.get_session(t, number)
    draws.expect_session_version(session, expected_version)
    _, ahead = sessions_ahead(t)
    if session not in ahead:
        raise ConflictError(msg("Session %(number)s is already in play: its seating can no longer change.",
                                number=number))
    absent = [p.id for p in not_checked_in(t, session)]
    if not absent:
        raise ServiceError(msg("Everyone session %(number)s seats has checked in.", number=number))
    return mend_ahead(t, user, only=number, left_out=absent)


# ----------------------------------------------------------------------------- the re-plan for quality


@dataclass(frozen=True)
class Replan:
    """What the re-plan for quality of the sessions drawn ahead gives: per session, the players who would sit at
    another table (players it seats who are not seated now not counted)."""

    sessions: list[TournamentSession]
    tables: list[list[tuple[int, int, int, int]]]
    moved: list[list[int]]

    @property
    def total(self) -> int:
        return len({p for m in self.moved for p in m})

    @property
    def message(self) -> Message:
        parts = [msg_n("%(num)d player in session %(number)s", "%(num)d players in session %(number)s", len(m),
                       number=s.number) for s, m in zip(self.sessions, self.moved, strict=True) if m]
        if not parts:
            return msg("A re-plan for quality would move nobody: the sessions drawn ahead are as good as it finds.")
        return msg("A re-plan for quality would move %(moves)s.", moves=MessageList(", ", parts))


def replan(t: Tournament) -> Replan:
    """The sessions drawn ahead re-planned for quality (`engine.replan_sessions`: the plan in force repaired and
    searched again, or a fresh plan of the remaining sessions, whichever has fewer repeats, teammates together
    and winds off), not stored: what `apply_replan` would do."""
    played, ahead = sessions_ahead(t)
    if not ahead:
        raise ServiceError(msg("No session is drawn ahead: there is nothing to re-plan."))
    people = registration.players_of(t)
    seated_anywhere = {seat.player_id for s in [*played, *ahead] for seat in s.seats}
    # one field for the re-plan: the first session's (a plan seats those registered, a draw those checked in)
    entrants = _session_entrants(t, ahead[0], people, seated_anywhere)
    drawn = schedule(ahead)
    try:
        planned = [[tuple(x) for x in tables] for tables in engine.replan_sessions(
            entrants, seed=ahead[0].seed, history=schedule(played), ahead=drawn, total_sessions=t.session_count)]
    except engine.DrawError as exc:
        raise ServiceError(msg("The sessions drawn ahead cannot be re-planned: %(reason)s.",
                               reason=draws.reason_of(exc))) from exc
    return Replan(ahead, planned, [engine.moved_players(old, new)  # type: ignore[misc]
                                   for old, new in zip(drawn, planned, strict=True)])


def apply_replan(t: Tournament, expected_moves: int | None = None, user: User | None = None) -> Replan:
    """Store the re-plan for quality. ``expected_moves``: the number of players the organiser was told it moves;
    a field or seating changed meanwhile (another number) is a conflict, nothing changed."""
    done = replan(t)
    if expected_moves is not None and expected_moves != done.total:
        raise ConflictError(msg("The sessions drawn ahead changed since the re-plan was shown: it would now move "
                                "%(moves)s players. Nothing was changed; look at it again.", moves=done.total))
    names = {p.id: p.full_name for p in registration.players_of(t)}
    with draws.drawn_meanwhile(done.sessions[0].number):
        for s, tables, moved in zip(done.sessions, done.tables, done.moved, strict=True):
            if [tuple(x) for x in s.tables()] == [tuple(x) for x in tables]:
                continue
            reseat(s, tables)
            record_event(t, s.number, DrawAction.REPLANNED, user, seed=s.seed, detail=(
                msg("for quality (%(names)s change table)", names=", ".join(names[p] for p in moved)) if moved
                else msg("for quality")))
    return done


# ----------------------------------------------------------------------------- who changed table since publishing


@dataclass(frozen=True)
class TableChange:
    session: int
    player_id: int
    name: str
    table: int
    previous_table: int


def table_changes(t: Tournament) -> list[TableChange]:
    """Players whose table in a published session not yet in play changed after it was published, by session
    then name: whom to tell, and whose schedule cards to print again."""
    rows = db.session.execute(
        select(TournamentSession.number, Seat.player_id, Player.first_name, Player.last_name, Seat.table_number,
               Seat.previous_table)
        .join(TournamentSession, TournamentSession.id == Seat.session_id)
        .join(Player, Player.id == Seat.player_id)
        .where(TournamentSession.tournament_id == t.id, TournamentSession.status == SessionStatus.PUBLISHED,
               Seat.previous_table.is_not(None))
    )
    return [TableChange(number, pid, f"{first} {last}", table, previous)
            for number, pid, first, last, table, previous in
            sorted(rows, key=lambda r: (r[0], registration.name_order(r[3], r[2])))]
