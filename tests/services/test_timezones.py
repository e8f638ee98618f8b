"""The tournament's time zone (tournament/timezones.py, pure) and the timetable service: times stored in UTC,
read and entered in the tournament's zone, an unknown zone refused naming the field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.helpers import make_tournament
from tournament import timezones
from tournament.extensions import db
from tournament.models.schedule import SessionStart
from tournament.services.core.errors import ServiceError
from tournament.services.people.tournaments import TournamentData, update_tournament, validate
from tournament.services.seating import schedule

HELSINKI = "Europe/Helsinki"


def test_utc_stored_is_shown_in_the_zone_summer_and_winter():
    # EEST (UTC+3) in May, EET (UTC+2) in January: 08:00 UTC is 11:00 then 10:00.
    assert timezones.format_local(datetime(2026, 5, 16, 8, 0), HELSINKI, "%H:%M %Z") == "11:00 EEST"
    assert timezones.format_local(datetime(2026, 1, 16, 8, 0), HELSINKI, "%H:%M %Z") == "10:00 EET"
    assert timezones.format_local(datetime(2026, 1, 16, 8, 0), "UTC", "%H:%M %Z") == "08:00 UTC"
    assert timezones.iso_local(datetime(2026, 1, 16, 8, 0), HELSINKI) == "2026-01-16T10:00:00+02:00"
    assert timezones.format_local(None, HELSINKI) == "" and timezones.iso_local(None, HELSINKI) is None


def test_local_wall_clock_to_utc_and_the_skipped_hour():
    assert timezones.to_utc(datetime(2026, 5, 16, 10, 0), HELSINKI) == datetime(2026, 5, 16, 7, 0)
    assert timezones.to_utc(datetime(2026, 5, 16, 10, 0), "Asia/Shanghai") == datetime(2026, 5, 16, 2, 0)
    # 29 March 2026: Helsinki's clocks go from 03:00 to 04:00; 03:30 is read on no clock there.
    assert not timezones.exists_locally(datetime(2026, 3, 29, 3, 30), HELSINKI)
    assert timezones.exists_locally(datetime(2026, 3, 29, 4, 30), HELSINKI)
    # An aware UTC moment converts the same as a naive one.
    aware = datetime(2026, 5, 16, 8, 0, tzinfo=UTC)
    assert timezones.to_local(aware, HELSINKI) == timezones.to_local(datetime(2026, 5, 16, 8, 0), HELSINKI)


def test_known_zones_and_labels():
    assert timezones.is_known(HELSINKI) and timezones.is_known("UTC")
    assert not timezones.is_known("Europe/Atlantis") and not timezones.is_known("localtime")
    assert not timezones.is_known(None) and not timezones.is_known(3)
    assert timezones.zone_choices()[0] == "UTC" and HELSINKI in timezones.zone_choices()
    assert timezones.offset_label(HELSINKI, datetime(2026, 5, 16, 8, 0)) == "UTC+03:00"
    assert timezones.offset_label("America/St_Johns", datetime(2026, 1, 16)) == "UTC-03:30"
    assert timezones.offset_label("UTC") == "UTC"
    # A zone name nobody stored (a row from before the setting) reads as UTC rather than failing.
    assert timezones.format_local(datetime(2026, 5, 16, 8, 0), "", "%H:%M") == "08:00"


def test_unknown_zone_refused_naming_the_field():
    errors = validate(TournamentData(name="Open", time_zone="Europe/Atlantis"))
    assert set(errors) == {"time_zone"}
    assert "Europe/Atlantis" in errors["time_zone"] and "IANA" in errors["time_zone"]
    assert "time_zone" in validate(TournamentData(name="Open", time_zone=None))  # type: ignore[arg-type]
    assert validate(TournamentData(name="Open", time_zone=HELSINKI)) == {}


def test_the_setting_is_saved_and_kept(organiser):
    t = make_tournament(organiser, time_zone=HELSINKI)
    assert t.time_zone == HELSINKI
    assert TournamentData.from_tournament(t).time_zone == HELSINKI
    with pytest.raises(ServiceError) as refused:
        update_tournament(t, TournamentData(name=t.name, time_zone="Mars/Olympus"), t.version)
    assert refused.value.errors.keys() == {"time_zone"}
    db.session.rollback()
    assert make_tournament(organiser, name="Default").time_zone == "UTC"


def test_planned_starts_through_a_whole_day(organiser):
    """Five sessions on one Helsinki Saturday in May, entered in local time, stored in UTC, read back the same;
    a cleared one disappears, a skipped hour and a session the tournament has not are refused whole."""
    t = make_tournament(organiser, time_zone=HELSINKI, session_count=5, session_minutes=90)
    day = {1: datetime(2026, 5, 16, 9, 0), 2: datetime(2026, 5, 16, 11, 0), 3: datetime(2026, 5, 16, 14, 0),
           4: datetime(2026, 5, 16, 16, 0), 5: datetime(2026, 5, 16, 18, 30)}
    timetable = schedule.set_planned_starts(t, day)
    db.session.commit()
    stored = {row.session_number: row.planned_start for row in db.session.scalars(db.select(SessionStart))}
    assert stored == {n: datetime(2026, 5, 16, local.hour - 3, local.minute) for n, local in day.items()}
    assert [timezones.format_local(s.start, t.time_zone, "%H:%M") for s in timetable] == \
        ["09:00", "11:00", "14:00", "16:00", "18:30"]
    assert timezones.format_local(timetable[4].end, t.time_zone, "%H:%M") == "20:00"  # 90 minutes

    schedule.set_planned_starts(t, {3: None, 5: datetime(2026, 5, 16, 19, 0)})
    db.session.commit()
    assert sorted(schedule.planned_starts(t)) == [1, 2, 4, 5]
    assert schedule.planned_start(t, 5) == datetime(2026, 5, 16, 16, 0)

    with pytest.raises(ServiceError) as refused:
        schedule.set_planned_starts(t, {1: datetime(2026, 5, 16, 8, 0), 6: datetime(2026, 5, 16, 20, 0)})
    assert refused.value.field == "session_6"
    db.session.rollback()
    with pytest.raises(ServiceError) as refused:
        schedule.set_planned_starts(t, {2: datetime(2026, 3, 29, 3, 30)})
    assert refused.value.field == "session_2" and "does not exist" in refused.value.message
    db.session.rollback()
    assert schedule.planned_start(t, 1) == datetime(2026, 5, 16, 6, 0)  # the refused change saved nothing


def test_times_and_dates_in_the_readers_way():
    # 08:00 UTC in Helsinki in winter: the strftime patterns of the pages, each language's own way; English keeps them
    moment = datetime(2026, 12, 5, 8, 0)
    assert timezones.format_local(moment, "Europe/Helsinki", "%H:%M", "en") == "10:00"
    assert timezones.format_local(moment, "Europe/Helsinki", "%Y-%m-%d %H:%M", "en") == "2026-12-05 10:00"
    assert timezones.format_local(moment, "Europe/Helsinki", "%H:%M", "fi") == "10.00"
    assert timezones.format_local(moment, "Europe/Helsinki", "%Y-%m-%d %H:%M %Z", "fi") == "5.12.2026 10.00 EET"
    assert timezones.format_local(moment, "Europe/Helsinki", "%Y-%m-%d %H:%M:%S", "zh") == "2026/12/5 10:00:00"
    assert timezones.format_local(moment, "Europe/Helsinki", "%d.%m.", "fi") == "05.12."  # a pattern of its own stays as is
