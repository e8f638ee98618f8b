"""Creating and editing tournaments, and who may run them."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date

from sqlalchemy import select

from tournament import timezones
from tournament.constants import DEFAULT_LANGUAGE, LANGUAGES
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import (
    DrawPriority,
    EndRule,
    EntryMode,
    Role,
    Ruleset,
    TieBreak,
    Tournament,
    TournamentStaff,
    User,
)
from tournament.models.tournaments import (
    DEFAULT_FOUL_TYPES,
    DEFAULT_RULESET,
    DEFAULT_TABLE_POINTS,
    DEFAULT_TIE_BREAKS,
)
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, PermissionDenied, ServiceError
from tournament.services.core.records import expect_version, get_or_404
from tournament.services.people.registration.countries import country3
from tournament.services.people.users import find_user_by_email
from tournament.text import control_refusal
from tournament.timezones import DEFAULT_TIME_ZONE

# Limits shared by the form and the service, so both say the same thing.
LIMITS = {
    "session_count": (1, 30),
    "session_minutes": (30, 300),
    "warning_minutes": (0, 60),
    "appeal_minutes": (0, 240),
    "false_mahjong_under_minimum": (0, 200),
    "false_mahjong_not_winning": (0, 200),
    "table_point": (0, 100),
}
MAX_FOUL_TYPES = 30


@dataclass
class TournamentData:
    """What an organiser states about a tournament."""

    name: str
    venue: str = ""
    country: str | None = None  # the host country: stored as EMA writes it (NED); codes and names are read
    start_date: date | None = None
    end_date: date | None = None
    ruleset: str = DEFAULT_RULESET
    session_count: int = 7
    session_minutes: int = 120
    end_rule: str = EndRule.FINISH_HAND
    warning_minutes: int = 15
    appeal_minutes: int = 30  # GB 3.12.2
    false_mahjong_under_minimum: int = 10
    false_mahjong_not_winning: int = 20
    table_points: tuple[int, int, int, int] = DEFAULT_TABLE_POINTS
    tie_breaks: tuple[str, ...] = DEFAULT_TIE_BREAKS
    penalties_affect_table_points: bool = True
    foul_types: tuple[str, ...] = DEFAULT_FOUL_TYPES
    entry_mode: str = EntryMode.REFEREE  # who enters the hands: staff, or the players from their links
    time_zone: str = DEFAULT_TIME_ZONE  # an IANA zone: every time is shown in it (stored in UTC)
    language: str = DEFAULT_LANGUAGE  # its pages' language when the reader's says nothing, and its PDFs'
    draw_priority: str = DrawPriority.REPEATS_FIRST  # what the draws avoid first: repeat opponents or teammates

    @classmethod
    def from_tournament(cls, t: Tournament) -> TournamentData:
        return cls(
            name=t.name,
            venue=t.venue,
            country=t.country,
            start_date=t.start_date,
            end_date=t.end_date,
            ruleset=t.ruleset,
            session_count=t.session_count,
            session_minutes=t.session_minutes,
            end_rule=t.end_rule,
            warning_minutes=t.warning_minutes,
            appeal_minutes=t.appeal_minutes,
            false_mahjong_under_minimum=t.false_mahjong_under_minimum,
            false_mahjong_not_winning=t.false_mahjong_not_winning,
            table_points=tuple(t.table_points_list),  # type: ignore[arg-type]
            tie_breaks=tuple(t.tie_break_list),
            penalties_affect_table_points=t.penalties_affect_table_points,
            foul_types=tuple(t.foul_type_list),
            entry_mode=t.entry_mode,
            time_zone=t.time_zone,
            language=t.language,
            draw_priority=t.draw_priority,
        )


def validate(data: TournamentData) -> dict[str, str]:
    """Every problem with `data`, keyed by field name (empty when all is well)."""
    errors: dict[str, str] = {}
    data.name = (data.name or "").strip()
    data.venue = (data.venue or "").strip()
    if not data.name:
        errors["name"] = msg("The tournament needs a name.")
    elif len(data.name) > 120:
        errors["name"] = msg("Names are at most 120 characters.")
    elif problem := control_refusal(data.name, msg("the tournament's name")):
        errors["name"] = problem
    if len(data.venue) > 200:
        errors["venue"] = msg("The venue is at most 200 characters.")
    elif problem := control_refusal(data.venue, msg("the venue")):
        errors["venue"] = problem
    host = country3(data.country) if isinstance(data.country, str) else ""
    if data.country not in (None, "") and not host:
        shown = data.country[:60] if isinstance(data.country, str) else data.country
        errors["country"] = msg("Unknown country %(country)r: give a code such as NED, NL or NLD, or the country's "
                                "name.", country=shown)
    else:
        data.country = host or None
    if data.start_date and data.end_date and data.end_date < data.start_date:
        errors["end_date"] = msg("The last day cannot be before the first day.")
    if data.ruleset not in set(Ruleset):
        errors["ruleset"] = msg("Choose a ruleset: %(choices)s.", choices=", ".join(Ruleset))
    if data.end_rule not in set(EndRule):
        errors["end_rule"] = msg("Choose an end-of-session rule: %(choices)s.", choices=", ".join(EndRule))
    if not timezones.is_known(data.time_zone):
        shown = data.time_zone[:40] if isinstance(data.time_zone, str) else data.time_zone
        errors["time_zone"] = msg("Unknown time zone %(zone)r: give an IANA name such as Europe/Helsinki or UTC.",
                                     zone=shown)
    if not isinstance(data.language, str) or data.language not in LANGUAGES:
        errors["language"] = msg("Choose a language: %(choices)s.", choices=", ".join(LANGUAGES))
    if not isinstance(data.draw_priority, str) or data.draw_priority not in set(DrawPriority):
        errors["draw_priority"] = msg("Choose what the draws avoid first: %(choices)s.",
                                      choices=", ".join(DrawPriority))
    if data.entry_mode not in set(EntryMode):
        errors["entry_mode"] = msg("Choose who enters the hands: %(choices)s.", choices=", ".join(EntryMode))
    for name in ("session_count", "session_minutes", "warning_minutes", "appeal_minutes",
                 "false_mahjong_under_minimum", "false_mahjong_not_winning"):
        low, high = LIMITS[name]
        value = getattr(data, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            errors[name] = msg("Must be a whole number from %(low)s to %(high)s.", low=low, high=high)
    if "warning_minutes" not in errors and "session_minutes" not in errors \
            and data.warning_minutes >= data.session_minutes:
        errors["warning_minutes"] = msg("The warning must come before the end of the session.")
    points = data.table_points
    low, high = LIMITS["table_point"]
    if len(points) != 4 or not all(
        isinstance(p, int) and not isinstance(p, bool) and low <= p <= high for p in points
    ):
        errors["table_points"] = msg("Give four whole numbers from %(low)s to %(high)s.", low=low, high=high)
    elif list(points) != sorted(points, reverse=True):
        errors["table_points"] = msg("Table points must not increase from 1st to 4th place.")
    if not isinstance(data.penalties_affect_table_points, bool):
        errors["penalties_affect_table_points"] = msg("Say yes or no.")
    fouls = data.foul_types
    if not (isinstance(fouls, tuple | list) and 1 <= len(fouls) <= MAX_FOUL_TYPES
            and all(isinstance(f, str) and f.strip() and len(f) <= 60 for f in fouls)):
        errors["foul_types"] = msg("List 1 to %(max)s foul types of at most 60 characters each.", max=MAX_FOUL_TYPES)
    elif problem := next(filter(None, (control_refusal(f, msg("the foul types")) for f in fouls)), None):
        errors["foul_types"] = problem
    elif len({f.strip().casefold() for f in fouls}) != len(fouls):
        errors["foul_types"] = msg("Each foul type may be listed once.")
    else:
        data.foul_types = tuple(" ".join(f.split()) for f in fouls)
    unknown = [t for t in data.tie_breaks if t not in set(TieBreak)]
    if unknown:
        errors["tie_breaks"] = msg("Unknown tie-break %(name)r.", name=unknown[0])
    elif len(set(data.tie_breaks)) != len(data.tie_breaks):
        errors["tie_breaks"] = msg("Each tie-break may be used once.")
    return errors


def _apply(t: Tournament, data: TournamentData) -> None:
    for f in fields(TournamentData):
        value = getattr(data, f.name)
        setattr(t, f.name, list(value) if f.name in ("table_points", "tie_breaks", "foul_types") else value)


def create_tournament(owner: User, data: TournamentData) -> Tournament:
    if not owner.is_organiser:
        raise PermissionDenied(msg("Only organisers create tournaments."))
    errors = validate(data)
    if errors:
        raise ServiceError(msg("Please correct the marked fields."), errors=errors)
    with changes():
        t = Tournament(created_by_id=owner.id)
        _apply(t, data)
        t.staff.append(TournamentStaff(user_id=owner.id, role=Role.ORGANISER))
        db.session.add(t)
    return t


def update_tournament(t: Tournament, data: TournamentData, expected_version: int | None) -> Tournament:
    """Apply `data`; refuse when the tournament changed since the form was loaded."""
    errors = validate(data)
    if errors:
        raise ServiceError(msg("Please correct the marked fields."), errors=errors)
    expect_version(t, expected_version, "This tournament was changed by someone else while you were editing. "
                   "Your changes were not saved; the form now shows the current values.")
    with changes():
        _apply(t, data)
    return t


def get_tournament(tournament_id: int) -> Tournament:
    return get_or_404(Tournament, tournament_id, "No such tournament.")


def list_tournaments() -> list[Tournament]:
    return list(
        db.session.scalars(
            select(Tournament).order_by(Tournament.start_date.desc().nulls_last(), Tournament.id.desc())
        )
    )


def staff_role(user: User | None, t: Tournament) -> Role | None:
    """The user's role in this tournament: 'organiser', 'referee' or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for member in t.staff:
        if member.user_id == user.id:
            return member.role
    return None


def can_manage(user: User | None, t: Tournament) -> bool:
    return staff_role(user, t) == Role.ORGANISER and bool(user and user.is_organiser)


def can_referee(user: User | None, t: Tournament) -> bool:
    return staff_role(user, t) in (Role.ORGANISER, Role.REFEREE)


def usual_time_zone(user: User) -> str | None:
    """The time zone of the latest tournament this organiser created, if any: a new tournament's form starts
    there (a Finnish organiser's next event is in Helsinki's zone, not UTC)."""
    return db.session.scalar(select(Tournament.time_zone).where(Tournament.created_by_id == user.id)
                             .order_by(Tournament.id.desc()).limit(1))


def tournaments_for(user: User) -> list[Tournament]:
    return list(
        db.session.scalars(
            select(Tournament)
            .join(TournamentStaff)
            .where(TournamentStaff.user_id == user.id)
            .order_by(Tournament.start_date.desc().nulls_last(), Tournament.id.desc())
        )
    )


def add_staff(t: Tournament, email: str, role: str) -> TournamentStaff:
    """Put an existing account on the staff at once: the administrator's path (tests, scripts). No page or API
    route calls it: an organiser adds staff by an invitation its owner accepts (services/people/invitations.py)."""
    if role not in {r.value for r in Role}:
        raise ServiceError(msg("Choose organiser or referee."), field="role")
    user = find_user_by_email(email or "")
    if user is None:
        raise ServiceError(msg("No account with the email %(email)r yet: invite them below, and they "
                               "choose their own password through the link.", email=email), field="email")
    if role == Role.ORGANISER and user.role != Role.ORGANISER:
        raise ServiceError(msg("%(email)s is a referee account and cannot organise.", email=user.email), field="role")
    already = msg("%(email)s is already on the staff.", email=user.email)
    if staff_role(user, t):
        raise ServiceError(already, field="email")
    try:
        with changes():
            member = TournamentStaff(tournament_id=t.id, user_id=user.id, role=role)
            db.session.add(member)
    except ConflictError:
        # Added by another request at the same moment: the unique (tournament, user) key refused this one.
        raise ConflictError(already, field="email") from None
    db.session.refresh(t)
    return member


def remove_staff(t: Tournament, member_id: int) -> None:
    member = get_or_404(TournamentStaff, member_id, "No such staff member.", tournament_id=t.id)
    if member.role == Role.ORGANISER:
        # Two organisers removing each other at once: the tournament's row lock makes the second wait until
        # the first has committed, and it then counts the organisers left (a fresh read, not t.staff).
        db.session.execute(select(Tournament.id).where(Tournament.id == t.id).with_for_update())
        organisers = db.session.scalars(select(TournamentStaff.id).where(
            TournamentStaff.tournament_id == t.id, TournamentStaff.role == Role.ORGANISER)).all()
        if member.id not in organisers:
            raise ConflictError(msg("This organiser was removed by someone else meanwhile."))
        if len(organisers) == 1:
            raise ServiceError(msg("A tournament keeps at least one organiser."))
    with changes():
        db.session.delete(member)
    db.session.refresh(t)
