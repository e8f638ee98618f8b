"""iCalendar files (RFC 5545) of the timetable: one for the tournament (every session with a planned start) and
one per player (their sessions, with their table and seat once the seating is published).

Times carry the tournament's zone (DTSTART;TZID=Europe/Helsinki with its VTIMEZONE; UTC as ...Z), so a calendar
client shows them right wherever its owner is. UIDs are stable (tournament, session, player): fetching the file
again after a change updates the events instead of adding copies. They end with this installation's name,
`t1-s2-p7@tournament.example.org` (PUBLIC_URL's host, with its port when not the scheme's own) or, without
PUBLIC_URL, its stored id (`...@0b6f...-...`): two clubs' tournament 1 never overwrite each other in one
person's calendar. The words (SUMMARY, DESCRIPTION) are in the tournament's language, like its PDFs; the
LOCATION is the venue as the organisers wrote it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, date, datetime
from urllib.parse import urlsplit

import icalendar
from flask_babel import force_locale, gettext, ngettext

from tournament import timezones
from tournament.draws.model import SEAT_WIND_NAMES
from tournament.models import Player, Tournament
from tournament.models._common import utcnow
from tournament.services.core.installation import installation_id
from tournament.services.seating import draws, schedule
from tournament.services.seating.schedule import PlannedSession

PRODUCT = "-//MCR Tournament//Timetable//EN"
MIMETYPE = "text/calendar"


def uid_domain(public_url: str | None) -> str:
    """What every UID ends with after its @: PUBLIC_URL's host (canonical, tournament.config.public_url: lower
    case, a port only when not the scheme's own, so two sites on one machine differ too), else this
    installation's id, kept in its database (services/core/installation.py)."""
    if public_url:
        return urlsplit(public_url).netloc.lower()
    return installation_id()


def _uid(t: Tournament, number: int, domain: str, player: Player | None = None) -> str:
    who = f"-p{player.id}" if player is not None else ""
    return f"t{t.id}-s{number}{who}@{domain}"


# Line breaks of any kind (CR LF, CR, LF, NEL, LS, PS), and every other control character but the tab, which
# RFC 5545's TEXT cannot hold (section 3.3.11: no CTL but HTAB).
_LINE_BREAK = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _text(value: str) -> icalendar.vText:
    """A TEXT value as RFC 5545 has it: a line break as the escaped \\n, no other control character, folded by
    icalendar at 75 octets. Names and venues cannot hold a control character any more, but older data may:
    a name with a line break made the .ics a 500 (X-WR-CALNAME was written raw)."""
    return icalendar.vText(_CONTROL.sub("", _LINE_BREAK.sub("\n", value)))


def _calendar(t: Tournament, name: str) -> icalendar.Calendar:
    cal = icalendar.Calendar()
    cal.add("prodid", PRODUCT)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", _text(name))
    cal.add("x-wr-timezone", t.time_zone)
    return cal


def _event(t: Tournament, planned: PlannedSession, uid: str, summary: str, description: str, url: str | None,
           stamp: datetime) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", uid)
    event.add("dtstamp", stamp)
    event.add("dtstart", timezones.to_local(planned.start, t.time_zone))
    event.add("dtend", timezones.to_local(planned.end, t.time_zone))
    event.add("summary", _text(summary))
    if description:
        event.add("description", _text(description))
    if t.venue:
        event.add("location", _text(t.venue))
    if url:
        event.add("url", url)
    return event


def _finish(cal: icalendar.Calendar, sessions: Sequence[PlannedSession]) -> bytes:
    starts = [s.start for s in sessions if s.start is not None]
    if starts:
        # The VTIMEZONE of the zone, its rules from the year before the first session to the year after the last.
        first, last = min(starts), max(starts)
        cal.add_missing_timezones(first_date=date(first.year - 1, 1, 1), last_date=date(last.year + 2, 1, 1))
    return cal.to_ical()


def tournament_calendar(t: Tournament, url: str | None = None, public_url: str | None = None) -> bytes:
    """Every session that has a planned start, as events of the session's length. `url`: the public page;
    `public_url`: the site's PUBLIC_URL (None when unset), which the UIDs end with."""
    sessions = [s for s in schedule.timetable(t) if s.start is not None]
    stamp = utcnow().replace(tzinfo=UTC)
    domain = uid_domain(public_url)
    cal = _calendar(t, t.name)
    with force_locale(t.language):
        length = ngettext("%(num)d session of %(minutes)d minutes", "%(num)d sessions of %(minutes)d minutes",
                          t.session_count, minutes=t.session_minutes)
        for planned in sessions:
            cal.add_component(_event(t, planned, _uid(t, planned.number, domain),
                                     f"{t.name}: {gettext('Session %(num)d', num=planned.number)}",
                                     f"{t.name}\n{length}", url, stamp))
    return _finish(cal, sessions)


def player_calendar(t: Tournament, player: Player, url: str | None = None, public_url: str | None = None) -> bytes:
    """The player's sessions: each with a planned start, its description naming their table, seat wind and
    opponents once the seating is published. `url`: the player's own page; `public_url` as above."""
    sessions = [s for s in schedule.timetable(t) if s.start is not None]
    seats = {entry.session: entry for entry in draws.player_schedule(t, player.id)}
    stamp = utcnow().replace(tzinfo=UTC)
    domain = uid_domain(public_url)
    cal = _calendar(t, f"{t.name}: {player.full_name}")
    with force_locale(t.language):
        for planned in sessions:
            entry = seats.get(planned.number)
            if entry is not None:
                where = gettext("Session %(num)d · Table %(table)d", num=planned.number, table=entry.table)
                if entry.previous_table:  # moved after the seating was published: say so where it shows
                    where += f" ({gettext('changed (was %(num)s)', num=entry.previous_table)})"
                summary = f"{t.name}: {where}"
                wind = gettext(SEAT_WIND_NAMES.get(entry.wind, entry.wind))
                lines = [player.full_name, where, f"{gettext('Seat wind')}: {wind}"]
                if entry.opponents:
                    lines.append(f"{gettext('With')}: {', '.join(entry.opponents)}")
            else:
                summary = f"{t.name}: {gettext('Session %(num)d', num=planned.number)}"
                lines = [player.full_name, gettext("No seating has been published yet.")]
            cal.add_component(_event(t, planned, _uid(t, planned.number, domain, player), summary,
                                     "\n".join(lines), url, stamp))
    return _finish(cal, sessions)


def filename(t: Tournament, player: Player | None = None) -> str:
    return f"tournament-{t.id}" + (f"-player-{player.id}" if player is not None else "") + ".ics"

