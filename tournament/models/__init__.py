"""Typed SQLAlchemy 2 models. Import every model here so Alembic sees the whole metadata."""

from tournament.extensions import db
from tournament.models.account_links import Invitation, PasswordReset
from tournament.models.appeals import Appeal, AppealDecision
from tournament.models.clock import ClockEvent, ClockEventKind
from tournament.models.draws import (
    SEAT_WIND_NAMES,
    SEAT_WINDS,
    DrawAction,
    DrawEvent,
    DrawMethod,
    Seat,
    SessionStatus,
    TournamentSession,
)
from tournament.models.idempotency import IdempotencyKey
from tournament.models.imports import PlayerImport
from tournament.models.installation import Installation
from tournament.models.player_entry import DisputeResolution, HandConfirmation, HandDispute, PlayerLink
from tournament.models.players import Player, PlayerStatus
from tournament.models.referee_calls import RefereeCall
from tournament.models.schedule import SessionStart
from tournament.models.scoring import (
    HANDS_PER_SESSION,
    FalseMahjong,
    FalseMahjongKind,
    Hand,
    HandPayment,
    HandResult,
    HandStatus,
    Penalty,
    ScoreAction,
    ScoreChange,
    SessionTable,
    TableMode,
    TableTotal,
)
from tournament.models.substitutions import Substitution, SubstitutionReason
from tournament.models.tournaments import (
    DRAW_PRIORITIES,
    DRAW_SEPARATIONS,
    END_RULES,
    ENTRY_MODES,
    RULESET_LABELS,
    TIE_BREAKS,
    DrawPriority,
    DrawSeparation,
    EndRule,
    EntryMode,
    Ruleset,
    TieBreak,
    Tournament,
    TournamentStaff,
)
from tournament.models.users import ApiToken, Role, User

__all__ = [
    "Installation",
    "Appeal",
    "Invitation",
    "PasswordReset",
    "DisputeResolution",
    "ENTRY_MODES",
    "EntryMode",
    "HandConfirmation",
    "HandDispute",
    "PlayerLink",
    "RefereeCall",
    "AppealDecision",
    "ClockEvent",
    "ClockEventKind",
    "HANDS_PER_SESSION",
    "IdempotencyKey",
    "FalseMahjong",
    "FalseMahjongKind",
    "Hand",
    "HandPayment",
    "HandResult",
    "HandStatus",
    "Penalty",
    "ScoreAction",
    "ScoreChange",
    "SessionTable",
    "TableMode",
    "TableTotal",
    "DRAW_PRIORITIES",
    "DRAW_SEPARATIONS",
    "SEAT_WINDS",
    "SEAT_WIND_NAMES",
    "DrawAction",
    "DrawEvent",
    "DrawMethod",
    "Seat",
    "Substitution",
    "SubstitutionReason",
    "SessionStart",
    "SessionStatus",
    "TournamentSession",
    "END_RULES",
    "RULESET_LABELS",
    "TIE_BREAKS",
    "DrawPriority",
    "DrawSeparation",
    "EndRule",
    "Ruleset",
    "TieBreak",
    "ApiToken",
    "Player",
    "PlayerImport",
    "PlayerStatus",
    "Role",
    "Tournament",
    "TournamentStaff",
    "User",
    "db",
]
