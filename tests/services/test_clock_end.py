"""End, time called for everyone (issue 21 item 3): under finish_hand the hand in progress at each table may be
finished and no later one entered, as after a table's own time call; End can be undone (a clock event), the
clock then as if it had not been pressed and the hands limits lifted, a table's own call kept."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from sqlalchemy import select

from tournament.extensions import db
from tournament.models import ClockEvent, ClockEventKind
from tournament.services import ConflictError
from tournament.services.play import clock, scoring
from tournament.services.play.scoring import HandData

T0 = datetime(2026, 6, 1, 10, 0, 0)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def enter(t, table: int, numbers) -> None:
    for n in numbers:
        scoring.enter_hand(t, 1, table, HandData(number=n, result="draw"), None)


def test_end_lets_each_table_finish_its_hand_in_progress_and_no_later_one(in_play, organiser):
    t, user = in_play, organiser
    assert t.end_rule == "finish_hand"
    clock.start(t, 1, user, now=at(0))
    enter(t, 1, [1, 2, 3])  # table 2 has entered nothing: hand 1 is in progress there
    state = clock.end(t, 1, user, now=at(100))
    assert state.state == "ended"
    assert [(row.table, row.hand_in_progress, row.time_call.at_end) for row in state.tables] == \
        [(1, 4, True), (2, 1, True)]
    enter(t, 1, [4])  # the hand in progress is finished and entered
    with pytest.raises(ConflictError, match="called for everyone during hand 4 at table 1: hand 5 was not played"):
        enter(t, 1, [5])
    enter(t, 2, [1])
    with pytest.raises(ConflictError, match="hand 2 was not played"):
        enter(t, 2, [2])
    # The table sheets and the session check read the same limit.
    assert scoring.table_sheet(t, 1, 1).not_played == list(range(5, 17))
    assert scoring.session_problems(t, 1) == []


def test_a_tables_own_time_call_stands_through_end_and_its_undo(in_play, organiser):
    t, user = in_play, organiser
    clock.start(t, 1, user, now=at(0))
    enter(t, 1, [1, 2])
    clock.call_time(t, 1, 1, None, user, now=at(90))  # between hands, after hand 2
    clock.end(t, 1, user, now=at(100))
    kinds = list(db.session.scalars(select(ClockEvent.kind).where(ClockEvent.table_number == 1)))
    assert kinds == [ClockEventKind.TIME_CALLED]  # End recorded nothing at table 1
    clock.undo_end(t, 1, user, now=at(101))
    with pytest.raises(ConflictError, match="after hand 2, with no hand in progress"):
        enter(t, 1, [3])
    enter(t, 2, [1, 2, 3])  # table 2's limit from End is lifted


def test_undo_end_runs_the_clock_as_if_end_had_not_been_pressed(in_play, organiser):
    t, user = in_play, organiser
    minutes = t.session_minutes
    clock.start(t, 1, user, now=at(0))
    clock.extend(t, 1, 300, user, now=at(1))  # 5 minutes for every table
    clock.end(t, 1, user, now=at(30))
    with pytest.raises(ConflictError, match="cannot be extended"):
        clock.extend(t, 1, 60, user, now=at(31))
    state = clock.undo_end(t, 1, user, now=at(32))
    assert state.state == "running"
    assert state.table(1).remaining_seconds == (minutes + 5 - 32) * 60
    assert not state.table(1).time_called and not state.table(2).time_called
    clock.extend(t, 1, 60, user, now=at(33))  # extra time may be given again
    with pytest.raises(ConflictError, match="no End to undo"):
        clock.undo_end(t, 1, user, now=at(34))
    # A paused clock ended and undone is paused again, at the time it showed.
    clock.pause(t, 1, user, now=at(40))
    clock.end(t, 1, user, now=at(41))
    state = clock.undo_end(t, 1, user, now=at(50))
    assert state.state == "paused" and state.table(1).remaining_seconds == (minutes + 6 - 40) * 60
    # And it can be ended again, limiting the hands once more.
    clock.resume(t, 1, user, now=at(51))
    assert clock.end(t, 1, user, now=at(52)).table(2).hand_in_progress == 1
    history = [e.kind for e in clock.event_log(clock.play.get_session(t, 1))[0]][::-1]
    assert history.count(ClockEventKind.END_UNDONE) == 2 and history.count(ClockEventKind.END) == 3


def test_a_referee_names_the_hand_really_in_progress_after_end(in_play, organiser, referee):
    t = in_play
    clock.start(t, 1, organiser, now=at(0))
    enter(t, 1, [1, 2])
    clock.end(t, 1, organiser, now=at(100))  # End takes hand 3 as in progress at table 1
    state = clock.call_time(t, 1, 1, 4, referee, now=at(101))  # hand 3 was finished on paper, 4 was being played
    assert state.table(1).hand_in_progress == 4 and not state.table(1).time_call.at_end
    enter(t, 1, [3, 4])
    with pytest.raises(ConflictError, match="during hand 4: hand 5 was not played"):
        enter(t, 1, [5])
    # The table's own call now stands: undoing End leaves it.
    clock.undo_end(t, 1, organiser, now=at(102))
    with pytest.raises(ConflictError, match="hand 5 was not played"):
        enter(t, 1, [5])


def test_under_stop_immediately_end_guesses_no_hand_in_progress(in_play, organiser):
    t, user = in_play, organiser
    t.end_rule = "stop_immediately"
    clock.start(t, 1, user, now=at(0))
    enter(t, 1, [1])
    state = clock.end(t, 1, user, now=at(100))
    # Stopping a guessed hand would store a finished one as not scored: the referees call time at each table.
    assert not any(row.time_called for row in state.tables)
    assert scoring.table_sheet(t, 1, 1).entered == 1
