"""The tournament's timetable: when each session is planned to start.

Stored in UTC (`SessionStart`, keyed by session number so that it is set before any draw and outlives
redraws), entered and shown in the tournament's time zone (`tournament.timezones`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select

from tournament import timezones
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import Tournament
from tournament.models.schedule import SessionStart
from tournament.services.core.db import changes
from tournament.services.core.errors import ServiceError


@dataclass(frozen=True)
class PlannedSession:
    """One session of the timetable: its number and planned start (naive UTC, None when not planned)."""

    number: int
    start: datetime | None
    minutes: int

    @property
    def end(self) -> datetime | None:
        return None if self.start is None else self.start + timedelta(minutes=self.minutes)


def session_numbers(t: Tournament) -> list[int]:
    """Every session the timetable covers: those the settings plan and any drawn or timed beyond them."""
    from tournament.models import TournamentSession

    drawn = db.session.scalars(select(TournamentSession.number).where(TournamentSession.tournament_id == t.id))
    return list(range(1, max([t.session_count, *drawn]) + 1))


def planned_starts(t: Tournament) -> dict[int, datetime]:
    """{session number: planned start, naive UTC} of the sessions that have one."""
    return dict(db.session.execute(
        select(SessionStart.session_number, SessionStart.planned_start).where(SessionStart.tournament_id == t.id)
    ).all())


def planned_start(t: Tournament, number: int) -> datetime | None:
    return db.session.scalar(select(SessionStart.planned_start).where(
        SessionStart.tournament_id == t.id, SessionStart.session_number == number))


def timetable(t: Tournament) -> list[PlannedSession]:
    starts = planned_starts(t)
    return [PlannedSession(number, starts.get(number), t.session_minutes) for number in session_numbers(t)]


def set_planned_starts(t: Tournament, local_starts: Mapping[int, datetime | None]) -> list[PlannedSession]:
    """Set (or clear, with None) the planned start of sessions, each given as a wall-clock time in the
    tournament's zone. Refused whole, naming the first bad session (`session_<n>`), when a number is not a
    session of the tournament or a time falls in the hour the clocks skip."""
    numbers = set(session_numbers(t))
    utc: dict[int, datetime | None] = {}
    for number, local in sorted(local_starts.items()):
        field = f"session_{number}"
        if number not in numbers:
            raise ServiceError(msg("The tournament has no session %(number)s.", number=number), field=field)
        if local is None:
            utc[number] = None
            continue
        local = local.replace(second=0, microsecond=0, tzinfo=None)
        if not timezones.exists_locally(local, t.time_zone):
            raise ServiceError(msg("%(local)s does not exist in %(time_zone)s: the clocks skip that hour that night. Choose "
                                   "another time.", local=f"{local:%Y-%m-%d %H:%M}", time_zone=t.time_zone), field=field)
        utc[number] = timezones.to_utc(local, t.time_zone)
    existing = {row.session_number: row for row in db.session.scalars(
        select(SessionStart).where(SessionStart.tournament_id == t.id))}
    with changes():
        for number, start in utc.items():
            row = existing.get(number)
            if start is None:
                if row is not None:
                    db.session.delete(row)
            elif row is None:
                db.session.add(SessionStart(tournament_id=t.id, session_number=number, planned_start=start))
            else:
                row.planned_start = start
    return timetable(t)


@dataclass(frozen=True)
class HallSession:
    """What the hall's one clock address (/t/<id>/clock) shows now: the session in play, whose clock it shows;
    else, between sessions, the next session to play and its planned start (naive UTC, None when not planned);
    neither once every session is finished."""

    in_play: int | None
    next_number: int | None = None
    next_start: datetime | None = None

    @property
    def key(self) -> str:
        """What the page was drawn for: the projector reloads when the hall's session changes."""
        start = self.next_start.isoformat() if self.next_start else ""
        return f"{self.in_play or ''}|{self.next_number or ''}|{start}"


def hall_session(t: Tournament) -> HallSession:
    """The session the hall's clock follows. In play: the latest such session (one reopened for a correction
    while the next is played does not take the hall's clock back). Otherwise the first session after the last
    finished one that is not finished itself, with its planned start."""
    from tournament.models import SessionStatus, TournamentSession

    statuses = dict(db.session.execute(select(TournamentSession.number, TournamentSession.status)
                                       .where(TournamentSession.tournament_id == t.id)).all())
    in_play = [number for number, status in statuses.items() if status == SessionStatus.IN_PLAY]
    if in_play:
        return HallSession(in_play=max(in_play))
    last_finished = max((n for n, status in statuses.items() if status == SessionStatus.FINISHED), default=0)
    upcoming = [n for n in session_numbers(t) if n > last_finished and statuses.get(n) != SessionStatus.FINISHED]
    if not upcoming:
        return HallSession(in_play=None)
    return HallSession(in_play=None, next_number=upcoming[0], next_start=planned_start(t, upcoming[0]))
