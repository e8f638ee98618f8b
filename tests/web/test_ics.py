"""The iCalendar files, parsed back with the icalendar library as a calendar client reads them: the tournament's
(every session with a planned start) and a player's (their table and seat in each description), times in the
tournament's zone with its VTIMEZONE, UIDs that stay the same from one download to the next."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar

from tests.helpers import make_tournament
from tournament.extensions import db
from tournament.services.people import player_links
from tournament.services.seating import draws as draw_service
from tournament.services.seating import schedule

HELSINKI = ZoneInfo("Europe/Helsinki")


def events_of(response) -> list[icalendar.Event]:
    assert response.status_code == 200
    assert response.mimetype == "text/calendar"
    calendar = icalendar.Calendar.from_ical(response.data)
    assert calendar["version"] == "2.0" and calendar.get("prodid")
    assert [tz["tzid"] for tz in calendar.walk("VTIMEZONE")] == ["Europe/Helsinki"]
    return sorted(calendar.walk("VEVENT"), key=lambda e: e.decoded("dtstart"))


def test_tournament_calendar(client, timetabled):
    t, _ = timetabled
    events = events_of(client.get(f"/t/{t.id}/schedule.ics"))
    assert [str(e["summary"]) for e in events] == ["Helsinki Open: session 1", "Helsinki Open: session 2"]
    starts = [e.decoded("dtstart") for e in events]
    assert starts == [datetime(2026, 1, 16, 10, 0, tzinfo=HELSINKI), datetime(2026, 1, 16, 13, 0, tzinfo=HELSINKI)]
    assert all(e["dtstart"].params["TZID"] == "Europe/Helsinki" for e in events)
    assert starts[0].utcoffset() == timedelta(hours=2)  # the same moment as 08:00 UTC
    assert [e.decoded("dtend") - e.decoded("dtstart") for e in events] == [timedelta(minutes=90)] * 2
    assert {str(e["location"]) for e in events} == {"Kalasatama"}
    assert all(str(e["url"]).endswith(f"/t/{t.id}/schedule") for e in events)

    again = events_of(client.get(f"/t/{t.id}/schedule.ics"))
    assert [str(e["uid"]) for e in again] == [str(e["uid"]) for e in events]  # stable: a re-import updates
    assert len({str(e["uid"]) for e in events}) == 2


def test_player_calendar_names_table_and_seat(client, timetabled):
    t, players = timetabled
    me = players[0]
    seat = next(s for s in draw_service.get_session(t, 1).seats if s.player_id == me.id)
    token = player_links.token_of(player_links.link_of(t, me.id))
    db.session.commit()
    response = client.get(f"/p/{token}/schedule.ics")
    assert response.headers["Cache-Control"] == "private, no-store"
    events = events_of(response)
    assert len(events) == 2
    first, second = events
    wind = {"E": "East", "S": "South", "W": "West", "N": "North"}[seat.seat_wind]
    assert str(first["summary"]) == f"Helsinki Open: session 1, table {seat.table_number}"
    assert f"Table {seat.table_number}, seat {wind}." in str(first["description"])
    assert me.full_name in str(first["description"])
    # Session 2 is not drawn: the event is there, its table to be announced.
    assert str(second["summary"]) == "Helsinki Open: session 2"
    assert "announced" in str(second["description"])
    assert second.decoded("dtstart") == datetime(2026, 1, 16, 13, 0, tzinfo=HELSINKI)
    # Another player's events have their own UIDs.
    other = player_links.token_of(player_links.link_of(t, players[1].id))
    db.session.commit()
    theirs = events_of(client.get(f"/p/{other}/schedule.ics"))
    assert not {str(e["uid"]) for e in theirs} & {str(e["uid"]) for e in events}


def test_unknown_link_and_no_timetable(client, organiser, timetabled):
    assert client.get("/p/not-a-real-token/schedule.ics").status_code == 404
    bare = make_tournament(organiser, name="Unplanned")
    response = client.get(f"/t/{bare.id}/schedule.ics")
    assert response.status_code == 200
    calendar = icalendar.Calendar.from_ical(response.data)
    assert calendar.walk("VEVENT") == []
    assert client.get("/t/999999/schedule.ics").status_code == 404


def test_utc_tournament_times_are_utc(client, organiser):
    t = make_tournament(organiser, name="Greenwich", session_count=1)
    schedule.set_planned_starts(t, {1: datetime(2026, 1, 16, 8, 0)})
    db.session.commit()
    response = client.get(f"/t/{t.id}/schedule.ics")
    assert b"DTSTART:20260116T080000Z" in response.data
    event = icalendar.Calendar.from_ical(response.data).walk("VEVENT")[0]
    assert event.decoded("dtstart").utcoffset() == timedelta(0)
