"""Creating and editing tournaments, and who may run them."""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import date

from sqlalchemy import select

from tournament.extensions import db
from tournament.models import (
    END_RULES,
    RULESETS,
    TIE_BREAKS,
    Role,
    StaffRole,
    Tournament,
    TournamentStaff,
    User,
)
from tournament.services.db import changes
from tournament.services.errors import ConflictError, NotFound, PermissionDenied, ServiceError
from tournament.services.users import find_user_by_email

# Limits shared by the form and the service, so both say the same thing.
LIMITS = {
    "session_count": (1, 30),
    "session_minutes": (30, 300),
    "false_mahjong_under_minimum": (0, 200),
    "false_mahjong_not_winning": (0, 200),
    "table_point": (0, 100),
}


@dataclass
class TournamentData:
    """What an organiser states about a tournament."""

    name: str
    venue: str = ""
    start_date: date | None = None
    end_date: date | None = None
    ruleset: str = "ema"
    session_count: int = 7
    session_minutes: int = 120
    end_rule: str = "finish_hand"
    false_mahjong_under_minimum: int = 10
    false_mahjong_not_winning: int = 20
    table_points: tuple[int, int, int, int] = (4, 2, 1, 0)
    tie_breaks: tuple[str, ...] = ("firsts", "best_session")

    @classmethod
    def from_tournament(cls, t: Tournament) -> TournamentData:
        return cls(
            name=t.name,
            venue=t.venue,
            start_date=t.start_date,
            end_date=t.end_date,
            ruleset=t.ruleset,
            session_count=t.session_count,
            session_minutes=t.session_minutes,
            end_rule=t.end_rule,
            false_mahjong_under_minimum=t.false_mahjong_under_minimum,
            false_mahjong_not_winning=t.false_mahjong_not_winning,
            table_points=tuple(t.table_points_list),  # type: ignore[arg-type]
            tie_breaks=tuple(t.tie_break_list),
        )


def validate(data: TournamentData) -> dict[str, str]:
    """Every problem with `data`, keyed by field name (empty when all is well)."""
    errors: dict[str, str] = {}
    data.name = (data.name or "").strip()
    data.venue = (data.venue or "").strip()
    if not data.name:
        errors["name"] = "The tournament needs a name."
    elif len(data.name) > 120:
        errors["name"] = "Names are at most 120 characters."
    if len(data.venue) > 200:
        errors["venue"] = "The venue is at most 200 characters."
    if data.start_date and data.end_date and data.end_date < data.start_date:
        errors["end_date"] = "The last day cannot be before the first day."
    if data.ruleset not in RULESETS:
        errors["ruleset"] = f"Choose a ruleset: {', '.join(RULESETS)}."
    if data.end_rule not in END_RULES:
        errors["end_rule"] = f"Choose an end-of-session rule: {', '.join(END_RULES)}."
    for name in ("session_count", "session_minutes", "false_mahjong_under_minimum", "false_mahjong_not_winning"):
        low, high = LIMITS[name]
        value = getattr(data, name)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            errors[name] = f"Must be a whole number from {low} to {high}."
    points = data.table_points
    low, high = LIMITS["table_point"]
    if len(points) != 4 or not all(
        isinstance(p, int) and not isinstance(p, bool) and low <= p <= high for p in points
    ):
        errors["table_points"] = f"Give four whole numbers from {low} to {high}."
    elif list(points) != sorted(points, reverse=True):
        errors["table_points"] = "Table points must not increase from 1st to 4th place."
    unknown = [t for t in data.tie_breaks if t not in TIE_BREAKS]
    if unknown:
        errors["tie_breaks"] = f"Unknown tie-break {unknown[0]!r}."
    elif len(set(data.tie_breaks)) != len(data.tie_breaks):
        errors["tie_breaks"] = "Each tie-break may be used once."
    return errors


def _apply(t: Tournament, data: TournamentData) -> None:
    for f in fields(TournamentData):
        if f.name in ("table_points", "tie_breaks"):
            continue
        setattr(t, f.name, getattr(data, f.name))
    t.table_points = ",".join(str(p) for p in data.table_points)
    t.tie_breaks = ",".join(data.tie_breaks)


def create_tournament(owner: User, data: TournamentData) -> Tournament:
    if not owner.is_organiser:
        raise PermissionDenied("Only organisers create tournaments.")
    errors = validate(data)
    if errors:
        raise ServiceError("Please correct the marked fields.", errors=errors)
    with changes():
        t = Tournament(created_by_id=owner.id)
        _apply(t, data)
        t.staff.append(TournamentStaff(user_id=owner.id, role=StaffRole.ORGANISER.value))
        db.session.add(t)
    return t


def update_tournament(t: Tournament, data: TournamentData, expected_version: int | None = None) -> Tournament:
    """Apply `data`; refuse when the tournament changed since the form was loaded."""
    errors = validate(data)
    if errors:
        raise ServiceError("Please correct the marked fields.", errors=errors)
    if expected_version is not None and expected_version != t.version:
        raise ConflictError(
            "This tournament was changed by someone else while you were editing. "
            "Your changes were not saved; the form now shows the current values."
        )
    with changes():
        _apply(t, data)
    return t


def get_tournament(tournament_id: int) -> Tournament:
    t = db.session.get(Tournament, tournament_id)
    if t is None:
        raise NotFound("No such tournament.")
    return t


def list_tournaments() -> list[Tournament]:
    return list(
        db.session.scalars(
            select(Tournament).order_by(Tournament.start_date.desc().nulls_last(), Tournament.id.desc())
        )
    )


def staff_role(user: User | None, t: Tournament) -> str | None:
    """The user's role in this tournament: 'organiser', 'referee' or None."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for member in t.staff:
        if member.user_id == user.id:
            return member.role
    return None


def can_manage(user: User | None, t: Tournament) -> bool:
    return staff_role(user, t) == StaffRole.ORGANISER and bool(user and user.is_organiser)


def can_referee(user: User | None, t: Tournament) -> bool:
    return staff_role(user, t) in (StaffRole.ORGANISER, StaffRole.REFEREE)


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
    if role not in {r.value for r in StaffRole}:
        raise ServiceError("Choose organiser or referee.", field="role")
    user = find_user_by_email(email or "")
    if user is None:
        raise ServiceError(f"No account with the email {email!r}. Create it first.", field="email")
    if role == StaffRole.ORGANISER and user.role != Role.ORGANISER:
        raise ServiceError(f"{user.email} is a referee account and cannot organise.", field="role")
    if staff_role(user, t):
        raise ServiceError(f"{user.email} is already on the staff.", field="email")
    with changes():
        member = TournamentStaff(tournament_id=t.id, user_id=user.id, role=role)
        db.session.add(member)
    db.session.refresh(t)
    return member


def remove_staff(t: Tournament, member_id: int, acting: User) -> None:
    member = db.session.get(TournamentStaff, member_id)
    if member is None or member.tournament_id != t.id:
        raise NotFound("No such staff member.")
    organisers = [m for m in t.staff if m.role == StaffRole.ORGANISER]
    if member.role == StaffRole.ORGANISER and len(organisers) == 1:
        raise ServiceError("A tournament keeps at least one organiser.")
    with changes():
        db.session.delete(member)
    db.session.refresh(t)
