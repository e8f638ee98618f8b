"""Typed SQLAlchemy 2 models. Import every model here so Alembic sees the whole metadata."""

from tournament.extensions import db
from tournament.models.players import Player, PlayerStatus
from tournament.models.tournaments import (
    END_RULES,
    RULESETS,
    TIE_BREAKS,
    StaffRole,
    Tournament,
    TournamentStaff,
)
from tournament.models.users import ApiToken, Role, User

__all__ = [
    "END_RULES",
    "RULESETS",
    "TIE_BREAKS",
    "ApiToken",
    "Player",
    "PlayerStatus",
    "Role",
    "StaffRole",
    "Tournament",
    "TournamentStaff",
    "User",
    "db",
]
