"""The iCalendar files, parsed back with the icalendar library as a calendar client reads them: the tournament's
(every session with a planned start) and a player's (their table and seat in each description), times in the
tournament's zone with its VTIMEZONE, UIDs that stay the same from one download to the next and end with the
installation's name (PUBLIC_URL's host, else its stored id: two installations never share one), the words in
the tournament's language (issue 35 item 6)."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from zoneinfo import ZoneInfo

import icalendar
import pytest
from flask_babel import force_locale, gettext
from flask_migrate import upgrade

from tests.helpers import add_players, make_tournament, make_user
from tests.web.race_harness import POSTGRES_ONLY, ROUNDS, Browser, live_server, together
from tournament import create_app
from tournament.extensions import db
from tournament.models import Installation
from tournament.services.core.installation import installation_id
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
    assert [str(e["summary"]) for e in events] == ["Helsinki Open: Session 1", "Helsinki Open: Session 2"]
    assert {str(e["description"]) for e in events} == {"Helsinki Open\n3 sessions of 90 minutes"}
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
    assert str(first["summary"]) == f"Helsinki Open: Session 1 · Table {seat.table_number}"
    lines = str(first["description"]).split("\n")
    assert lines[:3] == [me.full_name, f"Session 1 · Table {seat.table_number}", f"Seat wind: {wind}"]
    assert lines[3].startswith("With: ") and len(lines[3].split(", ")) == 3  # the three opponents
    # Session 2 is not drawn: the event is there, its table to be announced.
    assert str(second["summary"]) == "Helsinki Open: Session 2"
    assert str(second["description"]) == f"{me.full_name}\nNo seating has been published yet."
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


# --- UIDs of their installation, words of the tournament's language (issue 35 item 6) -----------------------


def uids(response) -> set[str]:
    data = response.data if hasattr(response, "data") else response.body.encode()  # a test client's, a Browser's
    return {str(e["uid"]) for e in icalendar.Calendar.from_ical(data).walk("VEVENT")}


def test_uids_end_with_public_urls_host(app, client, timetabled):
    t, players = timetabled
    token = player_links.token_of(player_links.link_of(t, players[0].id))
    db.session.commit()
    app.config["PUBLIC_URL"] = "https://mahjong.example.org"
    found = uids(client.get(f"/t/{t.id}/schedule.ics")) | uids(client.get(f"/p/{token}/schedule.ics"))
    assert found == {f"t{t.id}-s1@mahjong.example.org", f"t{t.id}-s2@mahjong.example.org",
                     f"t{t.id}-s1-p{players[0].id}@mahjong.example.org",
                     f"t{t.id}-s2-p{players[0].id}@mahjong.example.org"}
    # Two sites on one machine differ by their port (PUBLIC_URL keeps one that is not the scheme's own).
    app.config["PUBLIC_URL"] = "http://192.168.1.10:8081"
    assert all(uid.endswith("@192.168.1.10:8081") for uid in uids(client.get(f"/t/{t.id}/schedule.ics")))


def calendar_of_a_new_installation(url: str) -> tuple[set[str], str]:
    """A fresh database migrated (its installation id written by the migration), tournament 1 in it with a
    timetable, and its calendar as that installation serves it without PUBLIC_URL: (UIDs, installation id)."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url, "PUBLIC_URL": None})
    with app.app_context():
        upgrade()
        stored = db.session.get(Installation, 1).uid
        t = make_tournament(make_user("club@example.org", "organiser"), name="Club Open")
        schedule.set_planned_starts(t, {1: datetime(2026, 3, 1, 10, 0)})
        db.session.commit()
        assert t.id == 1
        found = uids(app.test_client().get("/t/1/schedule.ics"))
        db.session.remove()
        db.engine.dispose()
    return found, stored


def test_two_installations_never_share_a_uid(tmp_path):
    """Two clubs, each with a tournament 1 and no PUBLIC_URL: one person subscribing to both calendars keeps
    both sets of events. Each installation's UIDs end with its own id, the same after a restart."""
    first, first_id = calendar_of_a_new_installation(f"sqlite:///{tmp_path / 'club-a.db'}")
    second, second_id = calendar_of_a_new_installation(f"sqlite:///{tmp_path / 'club-b.db'}")
    assert first_id != second_id
    assert first == {f"t1-s1@{first_id}"} and second == {f"t1-s1@{second_id}"}
    assert not first & second
    # The first club's app started again (another process, a restart): the same UIDs, not a new id.
    again = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'club-a.db'}",
                        "PUBLIC_URL": None})
    with again.app_context():
        assert uids(again.test_client().get("/t/1/schedule.ics")) == first
        db.session.remove()
        db.engine.dispose()


def test_a_missing_installation_row_is_made_once(app_ctx):
    db.session.execute(db.delete(Installation))
    db.session.commit()
    made = installation_id()
    assert made == installation_id()  # read back, not made again
    db.session.commit()
    assert db.session.scalar(db.select(db.func.count()).select_from(Installation)) == 1
    assert len(made) == 36 and made.count("-") == 4


@pytest.mark.postgres
@POSTGRES_ONLY
def test_concurrent_first_calendars_make_one_installation_id(app, timetabled):
    """Six workers asked for the first calendar at the same moment, the row missing: one id, one row."""
    t, _ = timetabled
    with live_server(app) as url:
        for _ in range(ROUNDS):
            db.session.execute(db.delete(Installation))
            db.session.commit()
            answers = together(*[partial(Browser(url).get, f"/t/{t.id}/schedule.ics") for _ in range(6)])
            assert {a.status for a in answers} == {200}
            domains = {uid.rpartition("@")[2] for a in answers for uid in uids(a)}
            db.session.remove()
            assert domains == {db.session.get(Installation, 1).uid}


def test_the_words_are_in_the_tournaments_language(client, organiser):
    t = make_tournament(organiser, name="Helsingin kisat", venue="Kalasatama", session_count=2,
                        session_minutes=90, language="fi", time_zone="Europe/Helsinki")
    players = add_players(t, 8)
    schedule.set_planned_starts(t, {1: datetime(2026, 1, 16, 10, 0)})
    token = player_links.token_of(player_links.link_of(t, players[0].id))
    db.session.commit()
    with force_locale("fi"):
        session_1 = gettext("Session %(num)d", num=1)
        not_yet = gettext("No seating has been published yet.")
    assert session_1 != "Session 1" and not_yet != "No seating has been published yet."
    [event] = icalendar.Calendar.from_ical(client.get(f"/t/{t.id}/schedule.ics").data).walk("VEVENT")
    assert str(event["summary"]) == f"Helsingin kisat: {session_1}"
    assert "minuuttia" in str(event["description"])  # 2 sessions of 90 minutes, in Finnish
    assert str(event["location"]) == "Kalasatama"  # the venue as the organisers wrote it
    [own] = icalendar.Calendar.from_ical(client.get(f"/p/{token}/schedule.ics").data).walk("VEVENT")
    assert str(own["description"]) == f"{players[0].full_name}\n{not_yet}"
    # The reader's language changes nothing: the file is the tournament's.
    english = client.get(f"/t/{t.id}/schedule.ics", headers={"Accept-Language": "en"})
    assert f"Helsingin kisat: {session_1}".encode() in english.data.replace(b"\r\n ", b"")
