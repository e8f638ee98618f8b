"""The session clock: start, pause, resume, end, extra time, and time called at each table.

The clock is never stored as a counter. Every action is an event (who, when); the state at any moment
is :func:`clock_state` of the events, the session length and that moment. A restart, a reload or a
second screen therefore always shows the same time, and tests inject "now".

When time is called at a table the referee records the hand in progress (or none); the tournament's end
rule then applies in score entry (see :func:`entry_limit`):
  - finish_hand (EMA 2019): the hand in progress is finished and entered; no later hand;
  - stop_immediately (GB 3.5.6): the hand in progress is stored as not scored; no later hand.

End (time called for everyone) under finish_hand also records a time call at every table that has none, with
the hand after the last one entered as the hand in progress: later hands are refused as after a table's own
call, and a referee can still call time at that table to name the hand actually in progress. Undoing the End
restores the clock as if it had not been pressed and takes back those calls (never a table's own).

Every action needs the session in play (a 409 otherwise): a draft, published or finished session's clock stands
still. Finishing a session stops its clock (`stop_with_session`, an End at the moment it finished); a clock
still running in a session finished before that may be stopped (pause, End).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import Protocol

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.messages import Message, MessageList, msg, msg_n, status_word
from tournament.models import (
    HANDS_PER_SESSION,
    ClockEvent,
    ClockEventKind,
    EndRule,
    Hand,
    Player,
    Seat,
    SessionStatus,
    SessionTable,
    TableMode,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.models.clock import TIME_CALL_KINDS
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.time_calls import TimeCall, time_call

MAX_EXTRA_SECONDS = 3600


class ClockPhase(StrEnum):
    """Where the session clock is, from its events."""

    NOT_STARTED = "not_started"
    RUNNING = "running"
    PAUSED = "paused"
    ENDED = "ended"


class EventLike(Protocol):
    kind: ClockEventKind
    at: datetime
    seconds: int | None
    table_number: int | None
    hand_in_progress: int | None
    last_hand: int | None


# ----------------------------------------------------------------------------- the clock as a pure function


@dataclass(frozen=True)
class TableClock:
    table: int
    extra_seconds: int
    remaining_seconds: int
    ends_at: datetime | None  # naive UTC, while the clock runs
    time_call: TimeCall | None

    @property
    def time_called(self) -> bool:
        return self.time_call is not None

    @property
    def hand_in_progress(self) -> int | None:
        return self.time_call.hand_in_progress if self.time_call else None


@dataclass(frozen=True)
class ClockState:
    state: ClockPhase
    duration_seconds: int
    remaining_seconds: int
    ends_at: datetime | None  # naive UTC, None unless running
    warning: bool
    warning_seconds: int
    server_time: datetime  # the "now" this state was computed for
    tables: list[TableClock]
    started_at: datetime | None

    def table(self, number: int) -> TableClock:
        for row in self.tables:
            if row.table == number:
                return row
        raise NotFound(msg("There is no table %(number)s in this session.", number=number))

    @property
    def time_is_up(self) -> bool:
        return self.state == ClockPhase.ENDED or (self.state != ClockPhase.NOT_STARTED and self.remaining_seconds == 0)


def _whole(seconds: float) -> int:
    # Rounded up: the display reaches 0 exactly when the time is up, never a second early.
    return max(0, math.ceil(seconds - 1e-6))


def clock_state(events: Iterable[EventLike], duration_seconds: int, warning_seconds: int,
                tables: Sequence[int], now: datetime) -> ClockState:
    """The clock at `now` from its events, in order. Events after `now` are ignored; an event that makes no
    sense in the state it finds (a second pause, say: two screens pressed at once) changes nothing."""
    state = ClockPhase.NOT_STARTED
    elapsed = 0.0  # running seconds before `running_since`
    running_since: datetime | None = None
    started_at: datetime | None = None
    extra_all = 0
    extra: dict[int, int] = {}
    calls: dict[int, TimeCall] = {}
    before_end: tuple[ClockPhase, float, datetime | None] | None = None  # what an undone End gives back
    for event in events:
        if event.at > now:
            continue
        kind = event.kind
        if kind == ClockEventKind.START and state == ClockPhase.NOT_STARTED:
            state, running_since, started_at = ClockPhase.RUNNING, event.at, event.at
        elif kind == ClockEventKind.PAUSE and state == ClockPhase.RUNNING and running_since is not None:
            elapsed += (event.at - running_since).total_seconds()
            state, running_since = ClockPhase.PAUSED, None
        elif kind == ClockEventKind.RESUME and state == ClockPhase.PAUSED:
            state, running_since = ClockPhase.RUNNING, event.at
        elif kind == ClockEventKind.END and state in (ClockPhase.RUNNING, ClockPhase.PAUSED):
            before_end = (state, elapsed, running_since)
            if running_since is not None:
                elapsed += (event.at - running_since).total_seconds()
            state, running_since = ClockPhase.ENDED, None
        elif kind == ClockEventKind.END_UNDONE and state == ClockPhase.ENDED and before_end is not None:
            # As if End had not been pressed: a running clock kept running all along.
            (state, elapsed, running_since), before_end = before_end, None
        elif kind == ClockEventKind.EXTEND and event.seconds:
            if event.table_number is None:
                extra_all += event.seconds
            else:
                extra[event.table_number] = extra.get(event.table_number, 0) + event.seconds
        elif kind in TIME_CALL_KINDS and event.table_number is not None:
            calls[event.table_number] = TimeCall(event.table_number, event.hand_in_progress, event.last_hand,
                                                 event.at, kind == ClockEventKind.TIME_CALLED_AT_END)
        elif kind == ClockEventKind.TIME_CALL_UNDONE and event.table_number is not None:
            calls.pop(event.table_number, None)

    running_for = elapsed + ((now - running_since).total_seconds() if running_since is not None else 0.0)
    ended = state == ClockPhase.ENDED

    def left(total: int) -> int:
        return 0 if ended else _whole(total - running_for)

    def end_time(total: int) -> datetime | None:
        if running_since is None:
            return None
        return running_since + timedelta(seconds=total - elapsed)

    rows = []
    for number in tables:
        table_extra = extra_all + extra.get(number, 0)
        rows.append(TableClock(number, table_extra, left(duration_seconds + table_extra),
                               end_time(duration_seconds + table_extra), calls.get(number)))
    if state == ClockPhase.RUNNING and rows and all(row.remaining_seconds == 0 for row in rows):
        state = ClockPhase.ENDED  # the time ran out everywhere, extra time included
    remaining = left(duration_seconds)
    warning = state in (ClockPhase.RUNNING, ClockPhase.PAUSED) and 0 < remaining <= warning_seconds
    return ClockState(state=state, duration_seconds=duration_seconds, remaining_seconds=remaining,
                      ends_at=end_time(duration_seconds) if state == ClockPhase.RUNNING else None, warning=warning,
                      warning_seconds=warning_seconds, server_time=now, tables=rows, started_at=started_at)


# ----------------------------------------------------------------------------- reading


def events_of(session: TournamentSession) -> list[ClockEvent]:
    return list(db.session.scalars(
        select(ClockEvent).where(ClockEvent.session_id == session.id).order_by(ClockEvent.at, ClockEvent.id)
    ))


def event_log(session: TournamentSession) -> tuple[list[ClockEvent], dict[int, str]]:
    """The session's clock events newest first, with the names of the staff who pressed them, by user id."""
    events = events_of(session)[::-1]
    names = {u.id: u.display_name for u in db.session.scalars(
        select(User).where(User.id.in_({e.user_id for e in events if e.user_id})))}
    return events, names


def _now(now: datetime | None) -> datetime:
    if now is None:
        return utcnow()
    return now.astimezone(UTC).replace(tzinfo=None) if now.tzinfo else now


def table_numbers(session: TournamentSession) -> list[int]:
    """The session's tables, read without loading every seat: the clock is polled by every screen."""
    if "seats" in session.__dict__:  # already loaded
        return play.table_numbers(session)
    return list(db.session.scalars(select(Seat.table_number).where(Seat.session_id == session.id)
                                   .distinct().order_by(Seat.table_number)))


def state_of(t: Tournament, session: TournamentSession, now: datetime | None = None) -> ClockState:
    return clock_state(events_of(session), t.session_minutes * 60, (t.warning_minutes or 0) * 60,
                       table_numbers(session), _now(now))


def session_clock(t: Tournament, number: int, now: datetime | None = None) -> ClockState:
    return state_of(t, play.get_session(t, number), now)


# ----------------------------------------------------------------------------- actions


def _lock(session: TournamentSession) -> None:
    # Two screens pressing a button at once: the second waits for the first (PostgreSQL row lock).
    db.session.execute(select(TournamentSession.id).where(TournamentSession.id == session.id).with_for_update())


def _add(session: TournamentSession, kind: ClockEventKind, user: User | None, now: datetime, **values: int | None
         ) -> ClockEvent:
    with changes():
        event = ClockEvent(session_id=session.id, kind=kind.value, user_id=user.id if user else None, at=now,
                           **values)
        db.session.add(event)
    return event


def _session_for_action(t: Tournament, number: int) -> TournamentSession:
    session = play.get_session(t, number)
    _lock(session)
    return session


def _refuse(message: Message) -> None:
    raise ConflictError(message)


# A session not in play has a clock that stands still: nothing may start it, run it again, give it extra time
# or call time. Only a clock left running when its session was finished may still be stopped (pause, End).
STOPS = frozenset({ClockEventKind.PAUSE, ClockEventKind.END})


def _require_in_play(session: TournamentSession, kind: ClockEventKind) -> None:
    # The clock only runs for a session in play: starting play (publishing and fixing the seating) is an
    # organiser's act of its own, which the clock's staff buttons must not do by the back door.
    if session.status == SessionStatus.IN_PLAY or (session.status == SessionStatus.FINISHED and kind in STOPS):
        return
    number, state = session.number, status_word(session.status)
    if kind == ClockEventKind.START:
        _refuse(msg("Session %(number)s is %(state)s, not in play: its clock cannot start. An organiser starts "
                    "play first (Play page), then the clock can run.", number=number, state=state))
    if kind == ClockEventKind.RESUME:
        _refuse(msg("Session %(number)s is %(state)s, not in play: its clock cannot run again. An organiser "
                    "starts play first (Play page), then the clock can run.", number=number, state=state))
    if kind == ClockEventKind.EXTEND:
        _refuse(msg("Session %(number)s is %(state)s, not in play: its clock takes no extra time.", number=number,
                    state=state))
    _refuse(msg("Session %(number)s is %(state)s, not in play: its clock does not run.", number=number,
                state=state))


def _started(session: TournamentSession) -> bool:
    """Whether a start was ever stored, at whatever time: a start stamped later than `now` still counts."""
    return db.session.scalar(select(ClockEvent.id).where(
        ClockEvent.session_id == session.id, ClockEvent.kind == ClockEventKind.START).limit(1)) is not None


def start(t: Tournament, number: int, user: User | None, now: datetime | None = None) -> ClockState:
    """Start the clock of a session in play; a session not in play (draft, published, finished) is a 409."""
    session = _session_for_action(t, number)
    now = _now(now)  # read once the row is locked: a start that waited sees the one before it
    _require_in_play(session, ClockEventKind.START)
    current = state_of(t, session, now)
    if current.state != ClockPhase.NOT_STARTED or _started(session):
        state = current.state if current.state != ClockPhase.NOT_STARTED else ClockPhase.RUNNING
        _refuse(msg("The clock of session %(number)s was already started (%(state)s).", number=number,
                    state=status_word(state)))
    _add(session, ClockEventKind.START, user, now)
    return state_of(t, session, now)


def _step(t: Tournament, number: int, user: User | None, now: datetime | None, kind: ClockEventKind,
          allowed: tuple[str, ...], only: str) -> ClockState:
    """Record `kind` when the clock is in one of the `allowed` states; else a conflict naming the state."""
    session = _session_for_action(t, number)
    now = _now(now)  # after the lock, as in start()
    _require_in_play(session, kind)
    current = state_of(t, session, now)
    if current.state not in allowed:
        _refuse(msg("The clock is %(state)s: %(only)s.", state=status_word(current.state), only=only))
    _add(session, kind, user, now)
    return state_of(t, session, now)


def pause(t: Tournament, number: int, user: User | None, now: datetime | None = None) -> ClockState:
    return _step(t, number, user, now, ClockEventKind.PAUSE, (ClockPhase.RUNNING,), msg("only a running clock can be paused"))


def resume(t: Tournament, number: int, user: User | None, now: datetime | None = None) -> ClockState:
    return _step(t, number, user, now, ClockEventKind.RESUME, (ClockPhase.PAUSED,), msg("only a paused clock can be resumed"))


def end(t: Tournament, number: int, user: User | None, now: datetime | None = None) -> ClockState:
    """Call time for everyone: the clock stops at zero for every table, extra time included. Under finish_hand,
    each hands table without a time call of its own gets one with the hand after its last entered in progress:
    that hand may be finished and entered, no later one (as a time call at the table)."""
    state = _step(t, number, user, now, ClockEventKind.END, (ClockPhase.RUNNING, ClockPhase.PAUSED),
                  msg("only a running or paused clock can be ended"))
    if t.end_rule != EndRule.FINISH_HAND:
        # Under stop_immediately the hand in progress scores nothing: guessing it would store a finished
        # hand as not scored, so the referees call time at each table with the hand they see.
        return state
    session = play.get_session(t, number)
    modes = dict(db.session.execute(select(SessionTable.table_number, SessionTable.mode)
                                    .where(SessionTable.session_id == session.id)).all())
    last = dict(db.session.execute(select(Hand.table_number, func.max(Hand.number))
                                   .where(Hand.session_id == session.id).group_by(Hand.table_number)).all())
    for row in state.tables:
        done = last.get(row.table) or 0
        if row.time_called or modes.get(row.table) == TableMode.TOTALS or done >= HANDS_PER_SESSION:
            continue
        _add(session, ClockEventKind.TIME_CALLED_AT_END, user, state.server_time, table_number=row.table,
             hand_in_progress=done + 1, last_hand=done or None)
    return state_of(t, session, state.server_time)


def stop_with_session(t: Tournament, session: TournamentSession, at: datetime | None = None) -> ClockState:
    """Finishing a session stops its clock: a clock running or paused is ended at `at` (the session's
    `finished_at`), by nobody (the staff's history says the session's finish stopped it). Unlike End, no time is
    called at the tables: the session check has passed, or the organiser finished it anyway. A clock never
    started, or already ended, is left as it is."""
    now = _now(at)
    state = state_of(t, session, now)
    if state.state in (ClockPhase.RUNNING, ClockPhase.PAUSED):
        _add(session, ClockEventKind.END, None, now)
        state = state_of(t, session, now)
    return state


def ever_started(session: TournamentSession) -> bool:
    """Whether the session's clock was ever started (the finish check says so when it never ran)."""
    return _started(session)


def _standing_end(session: TournamentSession) -> ClockEvent | None:
    """The End in force: the latest End, unless an undo of it came after."""
    latest = db.session.scalar(select(ClockEvent).where(
        ClockEvent.session_id == session.id, ClockEvent.kind.in_((ClockEventKind.END, ClockEventKind.END_UNDONE)))
        .order_by(ClockEvent.at.desc(), ClockEvent.id.desc()).limit(1))
    return latest if latest is not None and latest.kind == ClockEventKind.END else None


def _explicitly_ended(session: TournamentSession) -> bool:
    return _standing_end(session) is not None


def undo_end(t: Tournament, number: int, user: User | None, now: datetime | None = None) -> ClockState:
    """Take End back (a press by mistake): the clock is as if it had not been pressed (running, counting the
    time since, or paused), and the time calls End recorded are lifted; a table's own time call stays.
    The history keeps both."""
    session = _session_for_action(t, number)
    now = _now(now)
    play.require_in_play(session)
    if _standing_end(session) is None:
        _refuse(msg("Time was not called for everyone: there is no End to undo."))
    _add(session, ClockEventKind.END_UNDONE, user, now)
    for table in table_numbers(session):
        call = time_call(session, table)
        if call is not None and call.at_end:
            _add(session, ClockEventKind.TIME_CALL_UNDONE, user, now, table_number=table)
    return state_of(t, session, now)


def extend(t: Tournament, number: int, seconds: int, user: User | None, table: int | None = None,
           now: datetime | None = None) -> ClockState:
    """Extra time for one table (late start, an incident) or, without `table`, for every table. It adds up."""
    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 1 <= seconds <= MAX_EXTRA_SECONDS:
        raise ServiceError(msg("Extra time is 1 to %(max_extra_seconds)s seconds.", max_extra_seconds=MAX_EXTRA_SECONDS), field="seconds")
    session = _session_for_action(t, number)
    now = _now(now)
    _require_in_play(session, ClockEventKind.EXTEND)
    if table is not None and (isinstance(table, bool) or not isinstance(table, int)
                              or table not in table_numbers(session)):
        raise NotFound(msg("Session %(number)s has no table %(table)s.", number=number, table=table))
    if _explicitly_ended(session):
        _refuse(msg("Time was called for everyone: the clock is ended and cannot be extended."))
    _add(session, ClockEventKind.EXTEND, user, now, seconds=seconds, table_number=table)
    return state_of(t, session, now)


def _entered_numbers(session: TournamentSession, table_number: int) -> list[int]:
    return list(db.session.scalars(select(Hand.number).where(
        Hand.session_id == session.id, Hand.table_number == table_number).order_by(Hand.number)))


def call_time(t: Tournament, number: int, table: int, hand_in_progress: int | None, user: User | None,
              now: datetime | None = None, last_hand_played: int | None = None) -> ClockState:
    """Time is called at a table while `hand_in_progress` was being played (None: between hands). Under the
    stop-immediately rule that hand is stored at once as not scored (no payments).

    Between hands, `last_hand_played` is the last hand finished before the gong, whether or not it is typed in
    yet: the hands up to it may still be entered from the paper sheet (without it, the last hand entered; a
    hand finished and not yet typed in was refused)."""
    if hand_in_progress is not None and (isinstance(hand_in_progress, bool) or not isinstance(hand_in_progress, int)
                                         or not 1 <= hand_in_progress <= HANDS_PER_SESSION):
        raise ServiceError(msg("The hand in progress is 1 to %(hands_per_session)s, or none.", hands_per_session=HANDS_PER_SESSION), field="hand_in_progress")
    if last_hand_played is not None and (
            hand_in_progress is not None or isinstance(last_hand_played, bool)
            or not isinstance(last_hand_played, int) or not 0 <= last_hand_played <= HANDS_PER_SESSION):
        raise ServiceError(msg("Between hands, the last hand played is 0 to %(hands_per_session)s (with a"
                               " hand in progress, leave it out).", hands_per_session=HANDS_PER_SESSION), field="last_hand_played")
    session = _session_for_action(t, number)
    now = _now(now)
    row = play.session_table(session, table, lock=True)  # 404 for a missing table; serialises with hand entry
    play.require_in_play(session)
    if row.mode == TableMode.TOTALS:
        _refuse(msg("Table %(table)s is scored by session totals only: there are no hands to stop.", table=table))
    existing = time_call(session, table)
    if existing is not None and not existing.at_end:  # End's assumed hand in progress may be corrected here
        _refuse(msg("Time was already called at table %(table)s (during hand %(hand)s). An organiser can undo it "
                    "first.", table=table, hand=existing.hand_in_progress) if existing.hand_in_progress else
                msg("Time was already called at table %(table)s (between hands). An organiser can undo it first.",
                    table=table))
    entered = _entered_numbers(session, table)
    last = entered[-1] if entered else None
    if last_hand_played is not None:
        if last is not None and last > last_hand_played:
            raise ConflictError(msg("Hand %(last)s is already entered at table %(table)s: the last hand "
                                    "played is %(last)s or later.", last=last, table=table), field="last_hand_played")
        last = last_hand_played
    if hand_in_progress is not None:
        later = [n for n in entered if n > hand_in_progress]
        if later:
            listed = ", ".join(str(n) for n in later)
            raise ConflictError(msg_n("Hand %(listed)s is already entered at table %(table)s: hand %(hand_in_progress)s cannot "
                                      "have been in progress.",
                                      "Hand %(listed)s are already entered at table %(table)s: hand "
                                      "%(hand_in_progress)s cannot have been in progress.", len(later), listed=listed,
                                      table=table, hand_in_progress=hand_in_progress),
                                field="hand_in_progress")
        if t.end_rule == EndRule.STOP_IMMEDIATELY and hand_in_progress in entered:
            raise ConflictError(msg("Hand %(hand_in_progress)s is already entered at table %(table)s, so "
                                    "it was finished: the hand in progress is a later one, or none.", hand_in_progress=hand_in_progress, table=table), field="hand_in_progress")
    _add(session, ClockEventKind.TIME_CALLED, user, now, table_number=table, hand_in_progress=hand_in_progress,
         last_hand=last)
    if t.end_rule == EndRule.STOP_IMMEDIATELY and hand_in_progress is not None:
        scoring.record_not_scored(t, session, table, hand_in_progress, user)
    return state_of(t, session, now)


def undo_time_call(t: Tournament, number: int, table: int, user: User | None,
                   now: datetime | None = None) -> ClockState:
    """Take a table's time call back (organisers); the history keeps both. A hand stored as not scored
    because of it is removed (with its own history line)."""
    session = _session_for_action(t, number)
    now = _now(now)
    play.session_table(session, table, lock=True)
    play.require_in_play(session)
    existing = time_call(session, table)
    if existing is None:
        _refuse(msg("Time has not been called at table %(table)s: there is nothing to undo.", table=table))
    _add(session, ClockEventKind.TIME_CALL_UNDONE, user, now, table_number=table)
    if existing is not None and existing.hand_in_progress is not None:
        scoring.remove_not_scored(t, session, table, existing.hand_in_progress, user)
    return state_of(t, session, now)


# ----------------------------------------------------------------------------- the referee board

# Why a table is where it is on the board, in English for the API and said again in the reader's language on the
# pages (a row's reason is a MessageList of these).
BOARD_REASONS = {
    "waiting": msg("waiting"),
    "playing": msg("playing"),
    "finished": msg("finished"),
    "time_called": msg("time called"),
    "over_time": msg("over time: call time and record the hand in progress"),
    "to_enter": lambda count: msg_n("time called: %(num)d hand still to enter",
                                    "time called: %(num)d hands still to enter", count),
    "pending": lambda count: msg_n("%(num)d hand awaiting the players' confirmation",
                                   "%(num)d hands awaiting the players' confirmation", count),
    "disputed": lambda hand, reason: msg("hand %(hand)d disputed: %(reason)s", hand=hand, reason=reason),
}


@dataclass(frozen=True)
class BoardDispute:
    """A player's open dispute of a hand, as the board shows it: the referee settles it from there."""

    hand: int
    player_id: int
    name: str    # who disputed it
    reason: str  # what they typed


@dataclass(frozen=True)
class BoardRow:
    table: int
    clock: TableClock
    mode: str
    entered: int
    last_hand: int | None  # the highest hand number entered
    current_hand: int | None  # the hand being played: the one after the last entered, while hands remain
    over_time: bool
    needs_referee: bool
    # Why (a MessageList: the English for the API, each part said again in the reader's language on the pages)
    reason: str
    disputed: int = 0     # hands with an open dispute by a player (services.play.confirmations)
    unconfirmed: int = 0  # players' entries not yet confirmed by all four
    disputes: tuple[BoardDispute, ...] = ()  # the open disputes, oldest first
    situation: str = ""   # the reason but the disputes (a MessageList): the table's clock and hands, for a card


def board(t: Tournament, number: int, now: datetime | None = None) -> tuple[ClockState, list[BoardRow]]:
    """Every table of a session with its clock and progress, the tables needing a referee first: time is up
    and no time call recorded, then time called with hands still to enter, then the rest by least time left.
    A table with a disputed hand comes before all of them: players are waiting for a referee there."""
    from tournament.services.play import confirmations

    session = play.get_session(t, number)
    clock = state_of(t, session, now)
    waiting = confirmations.unconfirmed_tables(session)
    disputes: dict[int, list[BoardDispute]] = {}
    open_disputes = confirmations.open_disputes(t, number)
    names = {p.id: p.full_name for p in db.session.scalars(select(Player).where(
        Player.id.in_({dispute.player_id for dispute, _ in open_disputes})))} if open_disputes else {}
    for dispute, hand in open_disputes:
        disputes.setdefault(hand.table_number, []).append(BoardDispute(
            hand.number, dispute.player_id, names.get(dispute.player_id, ""), dispute.reason))
    counts = {row.table_number: (row.entered, row.last) for row in db.session.execute(
        select(Hand.table_number, func.count(Hand.id).label("entered"), func.max(Hand.number).label("last"))
        .where(Hand.session_id == session.id).group_by(Hand.table_number))}
    modes = dict(db.session.execute(select(SessionTable.table_number, SessionTable.mode)
                                    .where(SessionTable.session_id == session.id)).all())
    rows = []
    for table_clock in clock.tables:
        entered, last = counts.get(table_clock.table, (0, None))
        mode = str(modes.get(table_clock.table, TableMode.HANDS))
        call = table_clock.time_call
        started = clock.state != ClockPhase.NOT_STARTED
        over = started and table_clock.remaining_seconds == 0
        done = mode == TableMode.TOTALS or (last or 0) >= HANDS_PER_SESSION
        current = None if done or call else (last or 0) + 1
        if call is not None:
            # No hand above the limit can exist (refused), so what is missing below it is the difference.
            to_enter = max(0, call.limit - entered) if mode == TableMode.HANDS else 0
            needs, reason = (to_enter > 0, BOARD_REASONS["to_enter"](to_enter) if to_enter > 0
                             else BOARD_REASONS["time_called"])
        elif over and not done:
            needs, reason = True, BOARD_REASONS["over_time"]
        else:
            needs, reason = False, BOARD_REASONS["finished" if done else ("playing" if started else "waiting")]
        counts_here = waiting.get(table_clock.table, {"pending": 0, "disputed": 0})
        situation = [reason]
        parts = situation
        if table_clock.table in disputes:
            parts = [*(BOARD_REASONS["disputed"](d.hand, d.reason) for d in disputes[table_clock.table]),
                     *([reason] if needs else [])]
            needs = True
        elif counts_here["pending"]:
            situation = parts = [reason, BOARD_REASONS["pending"](counts_here["pending"])]
        rows.append(BoardRow(table_clock.table, table_clock, mode, entered, last, current, over, needs,
                             MessageList("; ", parts), counts_here["disputed"], counts_here["pending"],
                             tuple(disputes.get(table_clock.table, ())), MessageList("; ", situation)))
    # Disputes first, then over time without a time call, then time called with hands to enter, then least time left.
    rows.sort(key=lambda r: (not r.disputed, not r.needs_referee, r.clock.time_called, r.clock.remaining_seconds,
                             r.table))
    return clock, rows
