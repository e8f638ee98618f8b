"""Control characters in free text (issue 31): a line break in a tournament's name or venue, a player's name or
club, a penalty's or a call's reason is a 400 naming the field, on the API and on the forms; notes keep their
lines. The timetable's .ics of a name stored with a line break before this rule (X-WR-CALNAME was written raw:
a 500) is a 200 with the line break escaped as RFC 5545 has it."""

from __future__ import annotations

import icalendar
import pytest

from tests.helpers import assert_error, post_form
from tournament.extensions import db
from tournament.models import Player, Tournament
from tournament.services.people import registration as reg

SETTINGS = {"name": "Nordic Open", "venue": "Stockholm", "start_date": "2027-05-01", "end_date": "2027-05-02",
            "ruleset": "ema", "session_count": "7", "session_minutes": "120", "end_rule": "finish_hand",
            "false_mahjong_under_minimum": "10", "false_mahjong_not_winning": "20", "points_first": "4",
            "points_second": "2", "points_third": "1", "points_fourth": "0", "tie_break_1": "firsts",
            "tie_break_2": "best_session", "tie_break_3": ""}
PLAYER = {"first_name": "Aino", "last_name": "Virtanen", "country": "FI", "club": "", "team": "", "ema_number": "",
          "status": "registered", "notes": ""}


@pytest.mark.parametrize(("field", "value"), [
    ("name", "Open\r\nX-INJECTED:1"), ("name", "Open\u2028Two"), ("venue", "Hall\nB"), ("venue", "Hall\x0bB"),
    ("foul_types", ["Late\r\nstart", "Other"]),
])
def test_the_api_refuses_a_line_break_in_a_tournament(api, field, value):
    body = {"name": "Open", field: value}
    answer = assert_error(api.post("/tournaments", body), 400, field)
    assert "one line of text" in answer["error"] and "(U+" in answer["error"]
    assert db.session.query(Tournament).count() == 0


def test_the_settings_form_refuses_a_line_break_in_the_venue(organiser_client, tournament, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/edit"
    response = post_form(organiser_client, url, {**SETTINGS, "venue": "Hall\r\nB", "version": str(tournament.version)})
    assert response.status_code == 400
    assert ("Remove the line break or other control character (U+000D) from the venue: it is one line of text."
            in response.get_data(as_text=True))
    db.session.refresh(tournament)
    assert (tournament.name, tournament.venue) == ("Helsinki Open", "")


@pytest.mark.parametrize(("field", "value"), [
    ("first_name", "Aino\nMaria"), ("last_name", "Vir\rtanen"), ("club", "HMC\r\nX"), ("team", "Team\x1bFI"),
])
def test_the_api_refuses_a_line_break_in_a_player(api, tid, field, value):
    answer = assert_error(api.post(f"/tournaments/{tid}/players", {**PLAYER, field: value}), 400, field)
    assert "one line of text" in answer["error"]
    assert db.session.query(Player).count() == 0


def test_the_player_form_refuses_a_line_break_in_a_name_and_keeps_the_lines_of_the_notes(
        organiser_client, tournament, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/players/new"
    response = post_form(organiser_client, url, {**PLAYER, "first_name": "Aino\r\nMaria"})
    assert response.status_code == 400
    assert "control character (U+000D) from the first name" in response.get_data(as_text=True)
    response = post_form(organiser_client, url, {**PLAYER, "notes": "Wheelchair\x07"})
    assert response.status_code == 400
    assert "Remove the control character (U+0007) from the notes" in response.get_data(as_text=True)
    assert db.session.query(Player).count() == 0
    response = post_form(organiser_client, url, {**PLAYER, "notes": "Wheelchair\r\nTable near the door"})
    assert response.status_code == 302
    assert db.session.query(Player).one().notes == "Wheelchair\r\nTable near the door"


def test_the_api_refuses_a_line_break_in_reasons(api, seated):
    t, (east, *_) = seated
    penalties = f"/tournaments/{t.id}/penalties"
    body = {"player_id": east, "session": 1, "amount": 5}
    assert_error(api.post(penalties, {**body, "reason": "Late\r\nagain"}), 400, "reason")
    given = api.post(penalties, {**body, "reason": "Late"}, expect=201).get_json()
    assert_error(api.delete(f"{penalties}/{given['id']}", {"reason": "Wrong\nplayer"}), 400, "reason")
    calls = f"/tournaments/{t.id}/sessions/1/tables/1/calls"
    assert_error(api.post(calls, {"situation": "Tiles\nknocked over"}), 400, "situation")
    assert_error(api.post(calls, {"situation": "Tiles knocked over", "ruling": "War\rning"}), 400, "ruling")
    other = reg.add_player(t, reg.PlayerData(first_name="Sub", last_name="Stitute", is_substitute=True))
    db.session.commit()
    assert_error(api.post(f"/tournaments/{t.id}/players/{other.id}/disqualify", {"reason": "Cheating\nX"}),
                 400, "reason")
    assert_error(api.post(f"/tournaments/{t.id}/players/{other.id}/withdraw", {"note": "Ill\r\nagain"}), 400, "note")


def test_an_ics_of_a_name_stored_with_a_line_break_is_a_200(client, timetabled):
    t, _ = timetabled
    # stored before names were checked (or by hand): CR LF, a lone CR, a bell
    t.name, t.venue = "Helsinki\r\nOpen", "Kala\rsatama\x07"
    db.session.commit()
    response = client.get(f"/t/{t.id}/schedule.ics")
    assert response.status_code == 200
    assert all(len(line) <= 75 for line in response.data.split(b"\r\n"))
    assert b"\x07" not in response.data and b"\r\nOpen" not in response.data
    assert b"\r\nX-WR-CALNAME:Helsinki\\nOpen\r\n" in response.data  # a property icalendar reads back raw
    calendar = icalendar.Calendar.from_ical(response.data)
    events = calendar.walk("VEVENT")
    assert [str(e["summary"]) for e in events] == ["Helsinki\nOpen: Session 1", "Helsinki\nOpen: Session 2"]
    assert {str(e["location"]) for e in events} == {"Kala\nsatama"}
