"""A tournament's time zone: every timestamp is stored as naive UTC (`models._common.utcnow`) and shown in the
zone of the tournament it belongs to (an IANA name such as Europe/Helsinki, `Tournament.time_zone`).

Pure: no Flask, no database. The pages use it through the `local` template filter, the PDFs through the
aware datetimes the services hand them, the iCalendar files through `to_local`.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from babel.dates import format_skeleton

DEFAULT_TIME_ZONE = "UTC"
MAX_NAME_LENGTH = 64
# Names the system's zone database lists that name no place: the machine's own zone, a placeholder.
_NOT_PLACES = {"localtime", "Factory", "posixrules"}


@cache
def known_zones() -> frozenset[str]:
    """Every IANA zone name this machine's zone database knows."""
    return frozenset(available_timezones() - _NOT_PLACES)


@cache
def zone_choices() -> tuple[str, ...]:
    """The names to choose from on a form: places (Area/City) first in alphabetical order, then UTC."""
    places = sorted(name for name in known_zones() if "/" in name and not name.startswith(("Etc/", "SystemV/")))
    return (DEFAULT_TIME_ZONE, *places)


def is_known(name: object) -> bool:
    return isinstance(name, str) and name in known_zones()


def zone(name: str | None) -> ZoneInfo:
    """The zone named `name`; UTC for an empty or unknown name (a row written before the setting existed)."""
    return ZoneInfo(name) if is_known(name) else ZoneInfo(DEFAULT_TIME_ZONE)


def to_local(moment: datetime | None, name: str | None) -> datetime | None:
    """A stored naive-UTC moment as an aware datetime in the zone `name` (None stays None)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone(name))


def to_utc(local: datetime, name: str | None) -> datetime:
    """A wall-clock time read in the zone `name` (naive, as a form gives it) as naive UTC, for storing.

    In the hour the clocks go back a time happens twice: the first one is taken (fold=0). In the hour they
    skip, the time does not exist: zoneinfo reads it with the offset before the change, an hour later in
    effect, which is what a person who set their watch by the old time means."""
    if local.tzinfo is None:
        local = local.replace(tzinfo=zone(name))
    return local.astimezone(UTC).replace(tzinfo=None)


def exists_locally(local: datetime, name: str | None) -> bool:
    """Whether the naive wall-clock time `local` is read on a clock in the zone `name` (not in a skipped hour)."""
    return to_local(to_utc(local, name), name).replace(tzinfo=None) == local  # type: ignore[union-attr]


# The strftime patterns the pages use, as CLDR skeletons for a reader of another language ("%Z" stays the zone's
# abbreviation): 10.00 and 5.12.2026 in Finnish, 10:00 and 2026/12/5 in Chinese. English keeps the patterns.
PATTERN_SKELETONS = {
    "%H:%M": ("Hm",), "%H:%M:%S": ("Hms",), "%H:%M %Z": ("Hm", "%Z"),
    "%Y-%m-%d %H:%M": ("yMd", "Hm"), "%Y-%m-%d %H:%M:%S": ("yMd", "Hms"), "%Y-%m-%d %H:%M %Z": ("yMd", "Hm", "%Z"),
}


def format_local(moment: datetime | None, name: str | None, pattern: str = "%Y-%m-%d %H:%M",
                 language: str | None = None) -> str:
    """`moment` (naive UTC) in the zone `name`, formatted with a strftime `pattern` ('' for None); with a
    `language` other than English, a pattern of PATTERN_SKELETONS is written that language's way."""
    local = to_local(moment, name)
    if local is None:
        return ""
    skeletons = PATTERN_SKELETONS.get(pattern) if language and language != "en" else None
    if skeletons is None:
        return local.strftime(pattern)
    return " ".join(local.strftime(part) if part.startswith("%") else format_skeleton(part, local, locale=language)
                    for part in skeletons)


# The weekday and month forms, as CLDR skeletons: each language orders and abbreviates them its own way
# (24-hour times throughout, as tournaments keep them).
DAY_FORMS = {"weekday time": ("EHm",), "day time": ("MMMEd", "Hm"), "day": ("yMMMEd",)}


def format_day(local: datetime, form: str, language: str) -> str:
    """A local time as a day and/or time in `language` (a locale: fi, zh, en ...): `form` is one of DAY_FORMS.
    "Fri 16 Jan 10:00", "pe 16.1. 10.00", "周五10:00"."""
    language = "en_GB" if language == "en" else language  # the pages' English is British: "Fri 16 Jan"
    return " ".join(format_skeleton(skeleton, local, locale=language) for skeleton in DAY_FORMS[form])


def iso_local(moment: datetime | None, name: str | None) -> str | None:
    """ISO 8601 with the zone's offset, to the second: 2026-05-16T10:00:00+03:00 (None stays None)."""
    local = to_local(moment, name)
    return None if local is None else local.isoformat(timespec="seconds")


def abbreviation(name: str | None, at: datetime | None = None) -> str:
    """What the zone is called at `at` (naive UTC; now if None): EEST, EET, UTC, or +08 where it has no letters."""
    local = to_local(at or datetime.now(UTC), name)
    return local.tzname() or DEFAULT_TIME_ZONE  # type: ignore[union-attr]


def offset_label(name: str | None, at: datetime | None = None) -> str:
    """The zone's offset from UTC at `at`, as UTC+03:00 (UTC for none)."""
    local = to_local(at or datetime.now(UTC), name)
    offset = local.utcoffset() or timedelta(0)  # type: ignore[union-attr]
    if not offset:
        return "UTC"
    sign = "+" if offset >= timedelta(0) else "-"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"UTC{sign}{minutes // 60:02d}:{minutes % 60:02d}"
