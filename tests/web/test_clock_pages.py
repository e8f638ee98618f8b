"""The clock's pages: the public projector and its JSON, the staff's buttons and time calls, the referee
board, and the table page's own remaining time and hands not played."""

from __future__ import annotations

import re

from tests.helpers import add_players, csrf_token, make_user
from tournament.extensions import db
from tournament.services.play import clock, scoring
from tournament.services.play.scoring import HandData
from tournament.services.seating import draws as draw_service


def staff_url(t, path: str = "") -> str:
    return f"/manage/tournaments/{t.id}/play/1{path}"


def press(client, t, path: str, data: dict | None = None):
    token = csrf_token(client, staff_url(t, "/clock"))
    return client.post(staff_url(t, path), data={"csrf_token": token, **(data or {})}, follow_redirects=True)


def test_projector_is_public_once_published(client, session_in_play):
    t = session_in_play
    page = client.get(f"/t/{t.id}/sessions/1/clock")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Session 1" in html and "1:30:00" in html and "Not started" in html
    assert "js/clock.js" in html and "<script>" not in html  # no inline script
    assert 'data-warning-seconds="900"' in html
    data = client.get(f"/t/{t.id}/sessions/1/clock.json").get_json()
    assert data["state"] == "not_started" and data["remaining_seconds"] == 5400 and len(data["tables"]) == 2
    assert client.get(f"/t/{t.id}/sessions/2/clock").status_code == 404


def test_projector_of_a_draft_is_not_public(client, tournament):
    add_players(tournament, 4)
    draw_service.draw_next(tournament, seed=1)
    db.session.commit()
    assert client.get(f"/t/{tournament.id}/sessions/1/clock").status_code == 404
    assert client.get(f"/t/{tournament.id}/sessions/1/clock.json").status_code == 404


def test_projector_shows_time_and_tables_with_their_own_extra_time(client, session_in_play, organiser):
    t = session_in_play
    from datetime import timedelta

    from tournament.models._common import utcnow

    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=80))
    clock.extend(t, 1, 120, organiser)          # every table: the hall's clock
    clock.extend(t, 1, 300, organiser, table=2)  # table 2 has its own end
    db.session.commit()
    html = client.get(f"/t/{t.id}/sessions/1/clock").get_data(as_text=True)
    assert "clock-warning" in html and "Last 15 minutes" in html
    digits = re.search(r"data-clock-digits[^>]*>([^<]+)<", html).group(1)
    assert digits in ("12:00", "11:59")  # 10 minutes plus the 2 everyone got
    assert re.search(r'data-table="2"[^>]*>Table 2 <span class="extra">\+05:00</span>', html)
    assert 'data-table="1"' not in html.split("data-clock-extra")[1]
    clock.end(t, 1, organiser)
    db.session.commit()
    html = client.get(f"/t/{t.id}/sessions/1/clock").get_data(as_text=True)
    assert "clock-time" in html and re.search(r"data-clock-digits[^>]*>Time<", html)


def test_staff_buttons_extra_time_and_time_calls(client, session_in_play, referee_on_staff):
    t = session_in_play
    page = client.get(staff_url(t, "/clock"))
    assert page.status_code == 200 and "Start the clock" in page.get_data(as_text=True)
    html = press(client, t, "/clock/start").get_data(as_text=True)
    assert "The clock is running." in html and "Pause" in html
    assert "already started" in press(client, t, "/clock/start").get_data(as_text=True)
    assert "The clock is paused." in press(client, t, "/clock/pause").get_data(as_text=True)
    assert "The clock is running again." in press(client, t, "/clock/resume").get_data(as_text=True)
    html = press(client, t, "/clock/extend", {"minutes": "4", "table": "2"}).get_data(as_text=True)
    assert "4 extra minutes for table 2." in html
    assert "From 1 to 60 minutes." in press(client, t, "/clock/extend", {"minutes": "0"}).get_data(as_text=True)
    state = clock.session_clock(t, 1)
    assert [r.extra_seconds for r in state.tables] == [0, 240]

    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    db.session.commit()
    html = press(client, t, "/tables/1/time", {"t1-hand_in_progress": "2"}).get_data(as_text=True)
    assert "Time called at table 1 during hand 2. It is finished and entered." in html
    assert clock.session_clock(t, 1).table(1).hand_in_progress == 2
    # Referees cannot undo a time call: organisers can.
    token = csrf_token(client, staff_url(t, "/clock"))
    assert client.post(staff_url(t, "/tables/1/time/undo"), data={"csrf_token": token}).status_code == 403
    # The table page shows its own clock, and the hands after the time call as not played.
    html = client.get(staff_url(t, "/tables/1")).get_data(as_text=True)
    assert 'data-clock="table"' in html and 'data-table="1"' in html
    assert "time was called during hand 2" in html
    assert html.count("Not played: time was called") == 14
    assert "missing 2" in html


def test_board_puts_tables_over_time_first(client, session_in_play, referee_on_staff, organiser):
    t = session_in_play
    from datetime import timedelta

    from tournament.models._common import utcnow

    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=91))
    clock.extend(t, 1, 600, organiser, table=1)
    db.session.commit()
    page = client.get(staff_url(t, "/board"))
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.index('data-table="2"') < html.index('data-table="1"')
    assert "over time: call time and record the hand in progress" in html
    data = client.get(staff_url(t, "/board.json")).get_json()
    assert [(r["table"], r["needs_referee"], r["over_time"]) for r in data["tables"]] == [(2, True, True),
                                                                                        (1, False, False)]
    assert data["clock"]["state"] == "running" and data["clock"]["remaining_seconds"] == 0


def test_staff_pages_need_the_staff(client, session_in_play, auth):
    t = session_in_play
    assert client.get(staff_url(t, "/clock")).status_code == 302  # to the login page
    assert client.get(staff_url(t, "/board.json")).status_code in (302, 401)
    outsider = make_user("out@example.org", "referee")
    auth.login(outsider)
    assert client.get(staff_url(t, "/clock")).status_code == 403
    assert client.get(staff_url(t, "/board")).status_code == 403
    token = csrf_token(client, "/account")
    assert client.post(staff_url(t, "/clock/start"), data={"csrf_token": token}).status_code == 403
    assert clock.session_clock(t, 1).state == "not_started"


def test_junk_posts_are_refused_without_errors(client, session_in_play, referee_on_staff):
    t = session_in_play
    token = csrf_token(client, staff_url(t, "/clock"))
    for path, data in (("/clock/extend", {"minutes": "x", "table": "99"}), ("/clock/extend", {"minutes": "5", "table": "9"}),
                       ("/tables/1/time", {"t1-hand_in_progress": "17"}), ("/tables/9/time", {}),
                       ("/clock/explode", {}), ("/tables/1/time/undo", {})):
        response = client.post(staff_url(t, path), data={"csrf_token": token, **data})
        assert response.status_code in (302, 400, 403, 404), (path, response.status_code)
    assert clock.session_clock(t, 1).tables[0].extra_seconds == 0
    assert not clock.session_clock(t, 1).table(1).time_called


def test_a_draft_sessions_clock_page_gives_no_extra_time(organiser_client, tournament):
    """Issue 31: the staff page of a draft session's clock offered extra time, and gave it."""
    add_players(tournament, 4)
    session = draw_service.draw_next(tournament, seed=1)
    db.session.commit()
    page = organiser_client.get(staff_url(tournament, "/clock")).get_data(as_text=True)
    assert "Give extra time" not in page and "Start the clock" not in page
    html = press(organiser_client, tournament, "/clock/extend", {"minutes": "5", "table": ""}).get_data(as_text=True)
    assert "Session 1 is draft, not in play: its clock takes no extra time." in html
    db.session.expire_all()
    assert clock.state_of(tournament, session).tables[0].extra_seconds == 0
