"""What happens at the tables: hands with their fans and payments, false mahjongs, totals-only tables,
referee penalties, and the history of every change.

Standings are computed from these facts; no total is stored that could drift from them.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ColumnElement, ForeignKey, String, UniqueConstraint, true
from sqlalchemy.ext.hybrid import hybrid_property
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow
from tournament.rotation import HANDS_PER_SESSION  # noqa: F401 - one home: the seat rotation


class HandResult(StrEnum):
    WIN = "win"
    DRAW = "draw"              # wall exhausted: no payments
    NOT_SCORED = "not_scored"  # in progress when time was called under stop_immediately: no payments


class FalseMahjongKind(StrEnum):
    UNDER_MINIMUM = "under_minimum"  # a legal hand under 8 points (flowers not counted)
    NOT_WINNING = "not_winning"      # no winning hand at all


class HandStatus(StrEnum):
    """Where a hand the players entered stands (Hand.status); a staff entry is confirmed from the start."""

    PENDING = "pending"      # waiting for the other players at the hand to confirm it
    CONFIRMED = "confirmed"  # all four players at the hand confirmed it, or staff ruled it stands
    DISPUTED = "disputed"    # a player disputes it: the referees' queue


class ScoreAction(StrEnum):
    """What a score change did (ScoreChange.action). Stored as these names and worded only where it is shown:
    tournament.messages.ACTION_WORDS is the one table of their words."""

    HAND_ENTERED = "hand_entered"
    HAND_ENTERED_BY_PLAYER = "hand_entered_by_player"
    HAND_CORRECTED = "hand_corrected"
    HAND_DELETED = "hand_deleted"
    HAND_NOT_SCORED = "hand_not_scored"  # the hand a stop-immediately time call stopped
    HAND_DELETED_TIME_CALL_UNDONE = "hand_deleted_time_call_undone"  # that hand, when the time call is undone
    HAND_CONFIRMED = "hand_confirmed"  # by the table: its players' confirmations made it count
    HAND_DISPUTED = "hand_disputed"  # by a player
    HAND_STANDS = "hand_stands"  # a referee ruled it stands as entered
    TOTALS_ENTERED = "totals_entered"
    TOTALS_CORRECTED = "totals_corrected"
    TOTALS_CLEARED = "totals_cleared"
    SUBSTITUTION = "substitution"
    PENALTY_GIVEN = "penalty_given"
    PENALTY_CANCELLED = "penalty_cancelled"


class TableMode(StrEnum):
    HANDS = "hands"    # entered hand by hand
    TOTALS = "totals"  # only the paper score sheet's four session totals


class SessionTable(db.Model):
    """One table of a session: how it is scored and the row that serialises writes to it."""

    __tablename__ = "session_tables"
    __table_args__ = (UniqueConstraint("session_id", "table_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int]
    mode: Mapped[TableMode] = mapped_column(EnumText(TableMode, 10), default=TableMode.HANDS)
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    totals: Mapped[list[TableTotal]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="TableTotal.id"
    )


class TableTotal(db.Model):
    """A player's session total at a totals-only table (penalties are kept apart)."""

    __tablename__ = "table_totals"
    __table_args__ = (UniqueConstraint("table_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("session_tables.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)
    score: Mapped[int]

    table: Mapped[SessionTable] = relationship(back_populates="totals")


class Hand(db.Model):
    """One hand played at a table: a win, a draw, or a hand time stopped; with its false mahjongs."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("session_id", "table_number", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int]
    number: Mapped[int]  # 1..16
    result: Mapped[HandResult] = mapped_column(EnumText(HandResult, 12))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    # None on a win: self-drawn.
    discarder_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    tiles: Mapped[str] = mapped_column(String(120), default="")
    flowers: Mapped[int] = mapped_column(default=0)
    last_tile: Mapped[bool] = mapped_column(default=False)
    wall_last: Mapped[bool] = mapped_column(default=False)
    kong: Mapped[bool] = mapped_column(default=False)
    # The engine's verdict, kept with the hand: [{"name", "points", "count"}], flowers excluded.
    fans: Mapped[list[dict[str, Any]]] = mapped_column(JSON, default=list)
    fan_points: Mapped[int] = mapped_column(default=0)  # the engine's count, kept whatever was ruled
    # A referee's ruling on the points (8 <= ruled <= fan_points), paid instead of fan_points, and its text.
    ruled_points: Mapped[int | None]
    ruling: Mapped[str] = mapped_column(String(500), default="", server_default="")
    entered_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    entered_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    # Entered by a player from their link (players' entry mode); None when staff entered or corrected it.
    entered_by_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    entered_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # Whether the standings count the hand: False only for a players' entry not yet confirmed by all four (or
    # by staff), and for a player-entered hand while disputed. Kept as a column so the standings filter on it.
    counted: Mapped[bool] = mapped_column(default=True, server_default=true())
    # Staff ruled the hand stands as entered (a dispute resolved, or a referee confirming for the table).
    staff_confirmed_at: Mapped[datetime | None]
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    # Loaded with the hands in one query each: every hand answer says who confirmed it and whether it is disputed.
    confirmations: Mapped[list[HandConfirmation]] = relationship(  # noqa: F821
        cascade="all, delete-orphan", order_by="HandConfirmation.id", lazy="selectin")
    disputes: Mapped[list[HandDispute]] = relationship(  # noqa: F821
        cascade="all, delete-orphan", order_by="HandDispute.id", lazy="selectin")

    payments: Mapped[list[HandPayment]] = relationship(
        back_populates="hand", cascade="all, delete-orphan", order_by="HandPayment.id"
    )
    false_mahjongs: Mapped[list[FalseMahjong]] = relationship(
        back_populates="hand", cascade="all, delete-orphan", order_by="FalseMahjong.id"
    )

    @hybrid_property
    def in_standings(self) -> bool:
        """Whether the standings count the hand: the one rule every score of a table follows (the standings'
        facts, a table's totals and running scores on the staff pages, the session check's sums). It is the
        `counted` column, kept by services.play.confirmations; in SQL, `Hand.in_standings` filters on it."""
        return self.counted

    @in_standings.inplace.expression
    @classmethod
    def _in_standings_expression(cls) -> ColumnElement[bool]:
        return cls.counted.is_(True)

    @property
    def is_self_drawn(self) -> bool:
        return self.result == HandResult.WIN and self.discarder_id is None

    @property
    def points(self) -> int:
        """The fan points paid: the referee's ruled value when there is one, else the engine's count."""
        return self.fan_points if self.ruled_points is None else self.ruled_points

    @property
    def base(self) -> int:
        """Points plus flowers: what the discarder (or everyone, self-drawn) pays on top of 8."""
        return self.points + self.flowers

    @property
    def confirmed_by(self) -> list[int]:
        return [c.player_id for c in self.confirmations]

    @property
    def open_disputes(self) -> list[HandDispute]:  # noqa: F821
        return [d for d in self.disputes if d.is_open]

    @property
    def status(self) -> HandStatus:
        """Pending, confirmed (all four players at the hand, or staff ruled it stands) or disputed."""
        if self.open_disputes:
            return HandStatus.DISPUTED
        at_hand = {p.player_id for p in self.payments}
        if self.staff_confirmed_at is not None or (at_hand and at_hand <= set(self.confirmed_by)):
            return HandStatus.CONFIRMED
        return HandStatus.PENDING

    def payment_map(self) -> dict[int, int]:
        return {p.player_id: p.delta for p in self.payments}


class HandPayment(db.Model):
    """A player's score change for one hand: the win's payments and the false mahjongs' together."""

    __tablename__ = "hand_payments"
    __table_args__ = (UniqueConstraint("hand_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)
    delta: Mapped[int]

    hand: Mapped[Hand] = relationship(back_populates="payments")


class FalseMahjong(db.Model):
    """A claimed win that was not one: the claimant pays each other player; their hand is dead."""

    __tablename__ = "false_mahjongs"

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    kind: Mapped[FalseMahjongKind] = mapped_column(EnumText(FalseMahjongKind, 20))
    tiles: Mapped[str] = mapped_column(String(120), default="")  # the claimed hand, when the referee gave it
    amount: Mapped[int]  # paid to each of the three others

    hand: Mapped[Hand] = relationship(back_populates="false_mahjongs")


class Penalty(db.Model):
    """A referee penalty: deducted from the offender only, counted in that session's score."""

    __tablename__ = "penalties"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)
    hand_number: Mapped[int | None]
    amount: Mapped[int]  # points deducted; 0 is a warning (MERS 3.1: warning -> 5 -> 10 -> 20 ...)
    foul: Mapped[str] = mapped_column(String(60), default="", server_default="")  # the tournament's foul types
    reason: Mapped[str] = mapped_column(String(500))
    given_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    given_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    given_at: Mapped[datetime] = mapped_column(default=utcnow)
    cancelled_at: Mapped[datetime | None]
    cancelled_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    cancelled_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    cancel_reason: Mapped[str] = mapped_column(String(500), default="")
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    session: Mapped[TournamentSession] = relationship()  # noqa: F821
    player: Mapped[Player] = relationship()  # noqa: F821
    given_by: Mapped[User | None] = relationship(foreign_keys=[given_by_id])  # noqa: F821
    cancelled_by: Mapped[User | None] = relationship(foreign_keys=[cancelled_by_id])  # noqa: F821

    @property
    def is_cancelled(self) -> bool:
        return self.cancelled_at is not None

    @property
    def given_by_name(self) -> str:
        return self.given_by.display_name if self.given_by else (self.given_by_label or "")

    @property
    def cancelled_by_name(self) -> str:
        return self.cancelled_by.display_name if self.cancelled_by else (self.cancelled_by_label or "")


class ScoreChange(db.Model):
    """The trail of score entry: who entered, corrected or deleted what (`action`, a ScoreAction), and when,
    before and after."""

    __tablename__ = "score_changes"

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int | None]
    hand_number: Mapped[int | None]
    action: Mapped[ScoreAction] = mapped_column(EnumText(ScoreAction, 40))
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    user_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    at: Mapped[datetime] = mapped_column(default=utcnow)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    user: Mapped[User | None] = relationship()  # noqa: F821

    @validates("action")
    def _action_member(self, key: str, value: str) -> ScoreAction:
        return ScoreAction(value)

    @property
    def who(self) -> str:
        return self.user.display_name if self.user else (self.user_label or "")
