"""The clock follows the session (issue 32 item 6): starting play offers the clock in the same tap; finishing a
session stops its clock (the API no longer says "running"); the session check says when the clock never ran;
one projector address for the weekend, /t/<id>/clock, shows the session in play and, between sessions, when the
next one starts (the per-session addresses keep working)."""

from __future__ import annotations

from datetime import datetime, timedelta

from tests.helpers import csrf_token, token_for
from tournament.extensions import db
from tournament.models import SessionStatus
from tournament.models._common import utcnow
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle, schedule


def totals_everywhere(t, number: int) -> None:
    session = play.get_session(t, number)
    for table in play.table_numbers(session):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(t, number, table, dict(zip(ids, [30, 10, -15, -25], strict=True)), None)


def api_clock_state(client, t, number: int, organiser) -> str:
    answer = client.get(f"/api/v1/tournaments/{t.id}/sessions/{number}/clock",
                        headers={"Authorization": f"Bearer {token_for(organiser)}"})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return answer.get_json()["state"]


# ----------------------------------------------------------------------------- finishing stops the clock


def test_finishing_a_session_stops_its_running_clock(client, session_in_play, organiser):
    t = session_in_play
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=10))
    totals_everywhere(t, 1)
    db.session.commit()
    assert api_clock_state(client, t, 1, organiser) == "running"
    lifecycle.finish_session(t, 1)
    db.session.commit()
    assert api_clock_state(client, t, 1, organiser) == "ended"
    session = play.get_session(t, 1)
    last = clock.events_of(session)[-1]
    assert (last.kind, last.user_id, last.at) == ("end", None, session.finished_at)
    # no time called at the tables: the session check had passed
    assert all(not row.time_called for row in clock.state_of(t, session).tables)
    assert client.get(f"/t/{t.id}/sessions/1/clock.json").get_json()["state"] == "ended"


def test_finishing_stops_a_paused_clock_and_leaves_one_never_started(session_in_play, organiser):
    t = session_in_play
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=10))
    clock.pause(t, 1, organiser, now=utcnow() - timedelta(minutes=5))
    lifecycle.finish_session(t, 1, force=True)
    assert clock.state_of(t, play.get_session(t, 1)).state == "ended"
    # never started: finishing records nothing
    draw_service.draw_next(t, seed=3)
    lifecycle.start_session(t, 2)
    lifecycle.finish_session(t, 2, force=True)
    assert clock.events_of(play.get_session(t, 2)) == []


def test_the_staff_history_says_the_finish_stopped_the_clock(organiser_client, session_in_play, organiser):
    t = session_in_play
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=10))
    lifecycle.finish_session(t, 1, force=True)
    db.session.commit()
    html = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/clock").get_data(as_text=True)
    assert "stopped: the session was finished" in html
    assert "ended: time called for everyone" not in html


def test_the_session_check_says_when_the_clock_never_ran(organiser_client, session_in_play, organiser):
    t = session_in_play
    url = f"/manage/tournaments/{t.id}/play/1"
    html = organiser_client.get(url).get_data(as_text=True)
    assert 'data-testid="clock-never-ran"' in html and "never ran" in html
    clock.start(t, 1, organiser)
    db.session.commit()
    html = organiser_client.get(url).get_data(as_text=True)
    assert "never ran" not in html and 'data-testid="clock-offer"' not in html


# ----------------------------------------------------------------------------- starting play, and the clock


def _drawn(t, count: int = 8):
    from tests.helpers import add_players

    add_players(t, count)
    draw_service.draw_next(t, seed=2)
    db.session.commit()


def test_start_play_is_a_step_of_its_own_with_the_clock_in_one_tap(organiser_client, tournament):
    t = tournament
    _drawn(t)
    url = f"/manage/tournaments/{t.id}/play/1/start-play"
    # the score entry page's button leads to the step, which says what starting locks
    assert url in organiser_client.get(f"/manage/tournaments/{t.id}/play/1").get_data(as_text=True)
    assert url in organiser_client.get(f"/manage/tournaments/{t.id}/play?all=1").get_data(as_text=True)
    step = organiser_client.get(url)
    assert step.status_code == 200
    html = step.get_data(as_text=True)
    assert "The seating is locked" in html and "Start play and the clock" in html
    assert "It is published" in html  # a draft is published by starting it
    assert play.get_session(t, 1).status == SessionStatus.DRAFT  # looking changes nothing
    # a published session: the draws page's button leads there too
    lifecycle.set_status(play.get_session(t, 1), "published")
    db.session.commit()
    assert url in organiser_client.get(f"/manage/tournaments/{t.id}/draws/1").get_data(as_text=True)
    assert "It is published" not in organiser_client.get(url).get_data(as_text=True)
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url), "with_clock": "y"},
                                   follow_redirects=True)
    assert answer.request.path == f"/manage/tournaments/{t.id}/play/1"
    text = answer.get_data(as_text=True)
    assert "Session 1 is in play" in text and "The clock is running." in text
    db.session.expire_all()
    session = play.get_session(t, 1)
    assert session.status == SessionStatus.IN_PLAY and clock.state_of(t, session).state == "running"


def test_start_play_without_the_clock_then_one_tap_on_the_session_page(organiser_client, tournament):
    t = tournament
    _drawn(t)
    url = f"/manage/tournaments/{t.id}/play/1/start-play"
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url)},
                                   follow_redirects=True)
    text = answer.get_data(as_text=True)
    assert "Session 1 is in play" in text and "The clock is running." not in text
    assert 'data-testid="clock-offer"' in text  # the offer on the page play started on
    db.session.expire_all()
    assert clock.state_of(t, play.get_session(t, 1)).state == "not_started"
    session_url = f"/manage/tournaments/{t.id}/play/1"
    pressed = organiser_client.post(f"{session_url}/clock/start", follow_redirects=True, data={
        "csrf_token": csrf_token(organiser_client, session_url), "next": session_url})
    assert pressed.request.path == session_url  # back where the button was
    assert "The clock is running." in pressed.get_data(as_text=True)
    db.session.expire_all()
    assert clock.state_of(t, play.get_session(t, 1)).state == "running"


def test_a_referee_cannot_start_play(referee_client, tournament, referee):
    from tests.helpers import csrf_token as token_of
    from tournament.services.people.tournaments import add_staff

    t = tournament
    _drawn(t)
    add_staff(t, referee.email, "referee")
    db.session.commit()
    url = f"/manage/tournaments/{t.id}/play/1/start-play"
    assert referee_client.get(url).status_code == 403
    answer = referee_client.post(url, data={"csrf_token": token_of(referee_client, f"/manage/tournaments/{t.id}/play/1"),
                                            "with_clock": "y"})
    assert answer.status_code == 403
    db.session.expire_all()
    assert play.get_session(t, 1).status == SessionStatus.DRAFT


def test_start_play_refusals(organiser_client, tournament):
    t = tournament
    _drawn(t)
    url = f"/manage/tournaments/{t.id}/play/1/start-play"
    # a stale or missing CSRF token starts nothing
    organiser_client.post(url, data={"with_clock": "y"})
    db.session.expire_all()
    assert play.get_session(t, 1).status == SessionStatus.DRAFT
    # a finished session is not started again: the refusal flashed, nothing changes
    lifecycle.start_session(t, 1)
    lifecycle.finish_session(t, 1, force=True)
    db.session.commit()
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url), "with_clock": "y"},
                                   follow_redirects=True)
    assert "reopen it instead" in answer.get_data(as_text=True)
    db.session.expire_all()
    assert play.get_session(t, 1).status == SessionStatus.FINISHED
    # a session not drawn
    assert organiser_client.get(f"/manage/tournaments/{t.id}/play/9/start-play").status_code == 404


# ----------------------------------------------------------------------------- the hall's one address


def test_hall_session_follows_the_weekend(tournament):
    t = tournament
    t.session_count = 3
    _drawn(t)
    schedule.set_planned_starts(t, {2: datetime(2030, 5, 2, 15, 0)})  # the tournament's zone: UTC
    assert schedule.hall_session(t) == schedule.HallSession(None, 1, None)
    lifecycle.start_session(t, 1)
    assert schedule.hall_session(t) == schedule.HallSession(1)
    lifecycle.finish_session(t, 1, force=True)
    assert schedule.hall_session(t) == schedule.HallSession(None, 2, datetime(2030, 5, 2, 15, 0))
    draw_service.draw_next(t, seed=3)
    lifecycle.start_session(t, 2)
    assert schedule.hall_session(t).in_play == 2
    lifecycle.reopen_session(t, 1)  # a correction while session 2 is played: the hall stays on 2
    assert schedule.hall_session(t).in_play == 2
    lifecycle.finish_session(t, 1, force=True)
    lifecycle.finish_session(t, 2, force=True)
    draw_service.draw_next(t, seed=4)
    lifecycle.start_session(t, 3)
    lifecycle.finish_session(t, 3, force=True)
    assert schedule.hall_session(t) == schedule.HallSession(None)


def test_one_projector_address_for_the_weekend(client, session_in_play, organiser):
    t = session_in_play
    t.session_count = 2
    db.session.commit()
    page = client.get(f"/t/{t.id}/clock")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Session 1" in html and "1:30:00" in html and f'data-clock-url="/t/{t.id}/clock.json"' in html
    assert 'data-hall-key="1||"' in html
    data = client.get(f"/t/{t.id}/clock.json").get_json()
    assert (data["session"], data["key"], data["clock"]["state"]) == (1, "1||", "not_started")
    # between sessions: the next one and its planned start, in the tournament's zone
    schedule.set_planned_starts(t, {2: datetime(2030, 5, 4, 14, 0)})
    lifecycle.finish_session(t, 1, force=True)
    db.session.commit()
    html = client.get(f"/t/{t.id}/clock").get_data(as_text=True)
    assert 'data-testid="next-session">Session 2<' in html and "14:00" in html and "data-clock-digits" not in html
    data = client.get(f"/t/{t.id}/clock.json").get_json()
    assert data["session"] is None and data["clock"] is None and data["next_session"] == 2
    assert data["next_start"].startswith("2030-05-04T14:00")
    # the per-session address still works
    assert client.get(f"/t/{t.id}/sessions/1/clock").status_code == 200
    # the staff's Projector button opens the hall's address
    from tests.helpers import login

    login(client, organiser.email)
    staff = client.get(f"/manage/tournaments/{t.id}/play/1/clock").get_data(as_text=True)
    assert f'href="/t/{t.id}/clock"' in staff


def test_the_hall_address_of_an_unknown_tournament_is_a_404(client):
    assert client.get("/t/999999/clock").status_code == 404
    assert client.get("/t/999999/clock.json").status_code == 404
