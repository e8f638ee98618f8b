"""The session clock through its services, with an injected "now": start, pause, resume, extra time, end,
time called at a table under both end rules, undo, and the state rebuilt from the events after a restart."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from tests.helpers import add_players
from tournament.extensions import db
from tournament.models import ClockEvent, Hand, HandResult, ScoreAction, ScoreChange
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.play.clock import clock_state
from tournament.services.play.scoring import HandData
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle

T0 = datetime(2026, 6, 1, 10, 0, 0)
MIN = timedelta(minutes=1)
SEC = timedelta(seconds=1)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def draws(t, table: int, numbers) -> None:
    for n in numbers:
        scoring.enter_hand(t, 1, table, HandData(number=n, result="draw"), None)


# ----------------------------------------------------------------------------- the pure function


class Ev:
    def __init__(self, kind, at, seconds=None, table_number=None, hand_in_progress=None, last_hand=None):
        self.kind, self.at, self.seconds, self.table_number = kind, at, seconds, table_number
        self.hand_in_progress, self.last_hand = hand_in_progress, last_hand


def test_clock_state_is_a_function_of_events_and_now():
    events = [Ev("start", at(0)), Ev("pause", at(10)), Ev("pause", at(11)),  # a second screen's pause: ignored
              Ev("resume", at(30)), Ev("extend", at(31), seconds=90, table_number=2)]
    s = clock_state(events, 3600, 900, [1, 2], at(40))
    assert s.state == "running"
    assert s.remaining_seconds == 3600 - 20 * 60  # 10 min before the pause, 10 after the resume
    assert s.ends_at == at(30) + timedelta(seconds=3600 - 600)
    assert [(r.table, r.extra_seconds, r.remaining_seconds) for r in s.tables] == [(1, 0, 2400), (2, 90, 2490)]
    # Before the pause was pressed it was running; an event in the future is not applied yet.
    assert clock_state(events, 3600, 900, [1, 2], at(5)).remaining_seconds == 3300
    assert clock_state(events, 3600, 900, [1, 2], at(20)).state == "paused"
    # Whole seconds, rounded up: 0.4 s left still shows 1, never a second early.
    assert clock_state(events[:1], 60, 0, [1], at(0, 59.6)).remaining_seconds == 1
    assert clock_state(events[:1], 60, 0, [1], at(0, 61)).remaining_seconds == 0  # never below zero
    assert clock_state([], 3600, 900, [1], at(0)).state == "not_started"


def test_warning_from_the_tournaments_setting_until_time():
    start = [Ev("start", at(0))]
    assert not clock_state(start, 3600, 900, [1], at(45) - SEC).warning  # 15:01 left
    assert clock_state(start, 3600, 900, [1], at(45)).warning            # 15:00 left
    assert clock_state(start, 3600, 900, [1], at(59, 59)).warning        # 0:01 left
    at_zero = clock_state(start, 3600, 900, [1], at(60))
    assert not at_zero.warning and at_zero.remaining_seconds == 0 and at_zero.state == "ended"
    assert not clock_state(start, 3600, 0, [1], at(59)).warning  # warning time 0: no warning


# ----------------------------------------------------------------------------- actions


def test_start_pause_resume_and_refusals(in_play, organiser):
    t, user = in_play, organiser
    with pytest.raises(ConflictError, match="only a running clock"):
        clock.pause(t, 1, user, now=at(0))
    s = clock.start(t, 1, user, now=at(0))
    assert (s.state, s.remaining_seconds, s.ends_at) == ("running", 7200, at(120))
    with pytest.raises(ConflictError, match="already started"):
        clock.start(t, 1, user, now=at(1))
    with pytest.raises(ConflictError, match="only a paused clock"):
        clock.resume(t, 1, user, now=at(1))
    s = clock.pause(t, 1, user, now=at(10))
    assert (s.state, s.remaining_seconds, s.ends_at) == ("paused", 110 * 60, None)
    with pytest.raises(ConflictError):
        clock.pause(t, 1, user, now=at(11))
    assert clock.session_clock(t, 1, now=at(25)).remaining_seconds == 110 * 60  # paused: time stands still
    s = clock.resume(t, 1, user, now=at(30))
    assert s.ends_at == at(140)
    assert clock.session_clock(t, 1, now=at(40)).remaining_seconds == 100 * 60
    events = db.session.scalars(select(ClockEvent).order_by(ClockEvent.id)).all()
    assert [(e.kind, e.user_id, e.at) for e in events] == [
        ("start", user.id, at(0)), ("pause", user.id, at(10)), ("resume", user.id, at(30))]


def test_the_clock_of_a_session_not_in_play_does_not_start(tournament, organiser):
    # Issue 22: starting the clock no longer puts a session in play (a referee's back door to start play).
    add_players(tournament, 4)
    session = draw_service.draw_next(tournament, seed=1)
    lifecycle.set_status(session, "published")
    with pytest.raises(ConflictError, match="not in play"):
        clock.start(tournament, 1, organiser, now=at(0))
    assert session.status == "published"


def _events(session) -> list[str]:
    return list(db.session.scalars(select(ClockEvent.kind).where(ClockEvent.session_id == session.id)
                                   .order_by(ClockEvent.id)))


@pytest.mark.parametrize("status", ["draft", "published"])
def test_no_clock_action_on_a_session_not_yet_in_play(tournament, organiser, status):
    """Issue 31: extra time was given to a draft session's clock. Every action is a 409 now, nothing stored."""
    add_players(tournament, 4)
    session = draw_service.draw_next(tournament, seed=1)
    if status == "published":
        lifecycle.set_status(session, "published")
    actions = {
        "start": lambda: clock.start(tournament, 1, organiser, now=at(0)),
        "pause": lambda: clock.pause(tournament, 1, organiser, now=at(1)),
        "resume": lambda: clock.resume(tournament, 1, organiser, now=at(2)),
        "extend": lambda: clock.extend(tournament, 1, 300, organiser, now=at(3)),
        "extend a table": lambda: clock.extend(tournament, 1, 300, organiser, table=1, now=at(3)),
        "end": lambda: clock.end(tournament, 1, organiser, now=at(4)),
        "undo end": lambda: clock.undo_end(tournament, 1, organiser, now=at(5)),
        "call time": lambda: clock.call_time(tournament, 1, 1, 2, organiser, now=at(6)),
        "undo a time call": lambda: clock.undo_time_call(tournament, 1, 1, organiser, now=at(7)),
    }
    for name, action in actions.items():
        with pytest.raises(ConflictError, match=f"Session 1 is {status}, not in play") as refused:
            action()
        assert refused.value.status_code == 409, name
    assert _events(session) == [] and session.status == status


def test_a_finished_sessions_clock_may_only_be_stopped(in_play, organiser):
    """A clock still running when its session was finished may be paused or ended; nothing else."""
    session = play.get_session(in_play, 1)
    clock.start(in_play, 1, organiser, now=at(0))
    lifecycle.finish_session(in_play, 1, force=True)
    refused = {
        "resume": lambda: clock.resume(in_play, 1, organiser, now=at(2)),
        "extend": lambda: clock.extend(in_play, 1, 300, organiser, now=at(3)),
        "call time": lambda: clock.call_time(in_play, 1, 1, 2, organiser, now=at(4)),
    }
    for name, action in refused.items():
        with pytest.raises(ConflictError, match="Session 1 is finished, not in play") as refusal:
            action()
        assert refusal.value.status_code == 409, name
    assert clock.pause(in_play, 1, organiser, now=at(5)).state == "paused"
    assert clock.end(in_play, 1, organiser, now=at(6)).state == "ended"
    with pytest.raises(ConflictError, match="Session 1 is finished, not in play"):
        clock.undo_end(in_play, 1, organiser, now=at(7))
    assert [kind for kind in _events(session) if kind != "time_called_at_end"] == ["start", "pause", "end"]


def test_extra_time_for_one_table_and_for_all_adds_up(in_play, organiser):
    t, user = in_play, organiser
    clock.start(t, 1, user, now=at(0))
    clock.extend(t, 1, 300, user, table=1, now=at(5))
    clock.extend(t, 1, 60, user, table=1, now=at(6))
    s = clock.extend(t, 1, 120, user, now=at(7))  # every table
    assert [(r.table, r.extra_seconds) for r in s.tables] == [(1, 480), (2, 120)]
    s = clock.session_clock(t, 1, now=at(120))
    assert (s.state, s.remaining_seconds) == ("running", 0)  # time is up, but the tables have extra time
    assert [r.remaining_seconds for r in s.tables] == [480, 120]
    assert clock.session_clock(t, 1, now=at(124)).tables[1].remaining_seconds == 0
    assert clock.session_clock(t, 1, now=at(128)).state == "ended"  # out of time everywhere
    with pytest.raises(ServiceError, match="1 to 3600"):
        clock.extend(t, 1, 0, user, now=at(8))
    with pytest.raises(ServiceError, match="1 to 3600"):
        clock.extend(t, 1, 3601, user, now=at(8))
    with pytest.raises(NotFound):
        clock.extend(t, 1, 60, user, table=9, now=at(8))
    # A table that started late may be given time after the main clock ran out.
    s = clock.extend(t, 1, 600, user, table=2, now=at(129))
    assert s.state == "running" and s.table(2).remaining_seconds == 120 + 600 - 9 * 60


def test_end_calls_time_for_everyone(in_play, organiser):
    t, user = in_play, organiser
    with pytest.raises(ConflictError, match="not started"):
        clock.end(t, 1, user, now=at(0))
    clock.start(t, 1, user, now=at(0))
    clock.extend(t, 1, 600, user, table=2, now=at(1))
    s = clock.end(t, 1, user, now=at(100))
    assert (s.state, s.remaining_seconds, s.ends_at, s.warning) == ("ended", 0, None, False)
    assert [r.remaining_seconds for r in s.tables] == [0, 0]
    for action in (clock.end, clock.pause, clock.resume, clock.start):
        with pytest.raises(ConflictError):
            action(t, 1, user, now=at(101))
    with pytest.raises(ConflictError, match="cannot be extended"):
        clock.extend(t, 1, 60, user, now=at(101))


def test_restart_rebuilds_the_same_state_from_the_events(in_play, organiser, app):
    t, user = in_play, organiser
    clock.start(t, 1, user, now=at(0))
    clock.pause(t, 1, user, now=at(20))
    clock.resume(t, 1, user, now=at(25))
    clock.extend(t, 1, 240, user, table=2, now=at(26))
    clock.call_time(t, 1, 1, None, user, now=at(27))
    before = clock.session_clock(t, 1, now=at(90))
    db.session.commit()
    tid = t.id
    # A restart: a fresh database session, nothing kept in memory.
    db.session.remove()
    with app.app_context():
        again = clock.session_clock(db.session.get(type(t), tid), 1, now=at(90))
    assert again == before
    assert (again.remaining_seconds, again.table(2).remaining_seconds) == (35 * 60, 35 * 60 + 240)  # 85 of 120 minutes run
    assert again.table(1).time_called and not again.table(2).time_called


# ----------------------------------------------------------------------------- time called: the end rule


def test_finish_hand_the_hand_in_progress_counts_and_no_later_hand(in_play, organiser):
    t, user = in_play, organiser
    assert t.end_rule == "finish_hand"
    clock.start(t, 1, user, now=at(0))
    draws(t, 1, [1, 2, 3])
    s = clock.call_time(t, 1, 1, 5, user, now=at(120))
    assert s.table(1).time_called and s.table(1).hand_in_progress == 5
    draws(t, 1, [4, 5])  # hand 4 was played before, hand 5 is finished and counts
    with pytest.raises(ConflictError, match="Time was called at table 1 during hand 5: hand 6 was not played"):
        draws(t, 1, [6])
    with pytest.raises(ConflictError, match="Time was called"):
        draws(t, 1, [16])
    assert db.session.scalar(select(Hand.id).where(Hand.number == 6)) is None
    draws(t, 2, [1, 2, 3, 4, 5, 6, 7])  # the other table is not concerned
    sheet = scoring.table_sheet(t, 1, 1)
    assert sheet.missing == [] and sheet.not_played == list(range(6, 17))
    # The session check accepts table 1 (five hands, time called) but not table 2 (hands 8-16 missing).
    problems = scoring.session_problems(t, 1)
    assert [p.table for p in problems] == [2]
    with pytest.raises(ConflictError, match="already called"):
        clock.call_time(t, 1, 1, 6, user, now=at(121))


def test_hand_in_progress_before_the_hands_entered_is_refused(in_play, organiser):
    t, user = in_play, organiser
    draws(t, 1, [1, 2, 3])
    with pytest.raises(ConflictError, match="Hand 3 is already entered"):
        clock.call_time(t, 1, 1, 2, user, now=at(1))
    with pytest.raises(ServiceError, match="1 to 16"):
        clock.call_time(t, 1, 1, 17, user, now=at(1))
    with pytest.raises(NotFound):
        clock.call_time(t, 1, 7, None, user, now=at(1))


def test_no_hand_in_progress_limits_entry_to_the_hands_already_entered(in_play, organiser):
    t, user = in_play, organiser
    draws(t, 1, [1, 2, 3, 4])
    clock.call_time(t, 1, 1, None, user, now=at(1))
    with pytest.raises(ConflictError, match="after hand 4, with no hand in progress"):
        draws(t, 1, [5])
    # The limit is what was entered when time was called: a hand deleted and re-entered is still allowed.
    scoring.delete_hand(t, 1, 1, 4, None)
    draws(t, 1, [4])
    sheet = scoring.table_sheet(t, 1, 1)
    assert sheet.missing == [] and sheet.not_played == list(range(5, 17))


def test_stop_immediately_the_hand_in_progress_is_not_scored(in_play, organiser):
    t, user = in_play, organiser
    t.end_rule = "stop_immediately"
    draws(t, 1, [1, 2])
    with pytest.raises(ConflictError, match="already entered at table 1, so it was finished"):
        clock.call_time(t, 1, 1, 2, user, now=at(1))
    clock.call_time(t, 1, 1, 3, user, now=at(2))
    hand = db.session.scalar(select(Hand).where(Hand.table_number == 1, Hand.number == 3))
    assert hand.result == HandResult.NOT_SCORED
    assert sorted(hand.payment_map().values()) == [0, 0, 0, 0]
    with pytest.raises(ConflictError, match="stop-immediately rule it scores nothing"):
        scoring.correct_hand(t, 1, 1, 3, HandData(number=3, result="draw"), None)
    with pytest.raises(ConflictError, match="stop-immediately"):
        scoring.delete_hand(t, 1, 1, 3, None)
    with pytest.raises(ConflictError, match="hand 4 was not played"):
        draws(t, 1, [4])
    sheet = scoring.table_sheet(t, 1, 1)
    assert sheet.entered == 3 and sheet.missing == [] and sheet.not_played == list(range(4, 17))
    assert sum(sheet.totals.values()) == 0
    assert not [p for p in scoring.session_problems(t, 1) if p.table == 1]
    actions = db.session.scalars(select(ScoreChange.action).where(ScoreChange.hand_number == 3)).all()
    assert actions == [ScoreAction.HAND_NOT_SCORED]


def test_undo_of_a_time_call_keeps_the_history(in_play, organiser, referee):
    t, user = in_play, organiser
    t.end_rule = "stop_immediately"
    with pytest.raises(ConflictError, match="nothing to undo"):
        clock.undo_time_call(t, 1, 1, user, now=at(1))
    draws(t, 1, [1])
    clock.call_time(t, 1, 1, 2, referee, now=at(2))
    s = clock.undo_time_call(t, 1, 1, user, now=at(3))
    assert not s.table(1).time_called
    assert db.session.scalar(select(Hand.id).where(Hand.number == 2)) is None  # the not-scored hand is gone
    draws(t, 1, [2, 3])  # play goes on
    kinds = db.session.execute(select(ClockEvent.kind, ClockEvent.user_id, ClockEvent.hand_in_progress)
                               .order_by(ClockEvent.id)).all()
    assert [tuple(k) for k in kinds] == [("time_called", referee.id, 2), ("time_call_undone", user.id, None)]
    assert ScoreAction.HAND_DELETED_TIME_CALL_UNDONE in db.session.scalars(select(ScoreChange.action)).all()
    # Called again later, with the new hand in progress.
    clock.call_time(t, 1, 1, 4, referee, now=at(4))
    assert clock.time_call(play.get_session(t, 1), 1).hand_in_progress == 4


def test_totals_tables_have_no_hands_to_stop(in_play, organiser):
    t, user = in_play, organiser
    ids = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    scoring.enter_totals(t, 1, 2, dict(zip(ids, [10, -10, 5, -5], strict=True)), None)
    with pytest.raises(ConflictError, match="totals only"):
        clock.call_time(t, 1, 2, 3, user, now=at(1))


# ----------------------------------------------------------------------------- the referee board


def test_board_puts_the_tables_needing_a_referee_first(in_play, organiser):
    t, user = in_play, organiser
    clock.start(t, 1, user, now=at(0))
    clock.extend(t, 1, 600, user, table=1, now=at(1))
    draws(t, 1, [1, 2])
    draws(t, 2, [1, 2, 3])
    _, rows = clock.board(t, 1, now=at(60))
    assert [r.table for r in rows] == [2, 1]  # nobody needs a referee: least time left first
    assert not any(r.needs_referee for r in rows)
    assert (rows[1].entered, rows[1].current_hand, rows[1].clock.extra_seconds) == (2, 3, 600)
    _, rows = clock.board(t, 1, now=at(121))
    assert [r.table for r in rows] == [2, 1]
    assert rows[0].over_time and rows[0].needs_referee and "over time" in rows[0].reason
    assert not rows[1].over_time  # its extra time runs until 130 minutes
    clock.call_time(t, 1, 2, 5, user, now=at(122))
    _, rows = clock.board(t, 1, now=at(122))
    assert rows[0].table == 2 and rows[0].needs_referee and rows[0].reason == "time called: 2 hands still to enter"
    draws(t, 2, [4, 5])
    _, rows = clock.board(t, 1, now=at(123))
    assert [(r.table, r.needs_referee) for r in rows] == [(1, False), (2, False)]
