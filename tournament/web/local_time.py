"""Times on the pages in the tournament's zone: the `local` template filter over `tournament.timezones`.

    {{ change.at|local(tournament, '%H:%M') }}   10:00 for 08:00 UTC in Europe/Helsinki in summer
    {{ change.at|local(tournament) }}            the aware datetime, for a <time datetime> attribute
    {{ start|local_day(tournament, 'weekday time') }}   "Fri 10:00", "pe 10.00", "周五10:00": the reader's way
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Flask
from flask_babel import get_locale

from tournament import timezones


def zone_name(where: Any) -> str | None:
    """The zone of a tournament, or a zone name given as is."""
    return getattr(where, "time_zone", where)


def local(moment: datetime | None, where: Any, pattern: str | None = None) -> datetime | str | None:
    """`moment` (naive UTC) in the zone of `where`; with a strftime `pattern`, the formatted text ('' for None), in
    the reader's way where the language writes times or dates otherwise (timezones.PATTERN_SKELETONS)."""
    if pattern is None:
        return timezones.to_local(moment, zone_name(where))
    return timezones.format_local(moment, zone_name(where), pattern, str(get_locale() or "en"))


def local_day(moment: datetime | None, where: Any, form: str) -> str:
    """`moment` (naive UTC) in the zone of `where`, as a day and/or time in the reader's language: `form` is one
    of timezones.DAY_FORMS ('' for None)."""
    shown = timezones.to_local(moment, zone_name(where))
    if shown is None:
        return ""
    return timezones.format_day(shown, form, str(get_locale() or "en"))


def local_iso(moment: datetime | None, where: Any) -> str:
    """ISO 8601 with the zone's offset, for <time datetime> and the scripts ('' for None)."""
    return timezones.iso_local(moment, zone_name(where)) or ""


def init_app(app: Flask) -> None:
    app.jinja_env.filters["local"] = local
    app.jinja_env.filters["local_iso"] = local_iso
    app.jinja_env.filters["local_day"] = local_day
