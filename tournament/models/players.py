"""Registered players of a tournament (substitutes included)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, String, false, func, text
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow


class PlayerStatus(StrEnum):
    REGISTERED = "registered"
    PRESENT = "present"
    WITHDRAWN = "withdrawn"
    DISQUALIFIED = "disqualified"


class Player(db.Model):
    __tablename__ = "players"
    # One person is registered once per tournament, whatever the timing of two forms or imports (the service's
    # duplicate_problems says why first; these keep the rule under races): the same name in any letter case
    # (names are stored with single spaces) with the same EMA number or both without one; an EMA number once.
    __table_args__ = (
        Index("uq_players_identity", "tournament_id", func.lower(text("first_name")),
              func.lower(text("last_name")), func.coalesce(text("ema_number"), ""), unique=True),
        Index("uq_players_ema_number", "tournament_id", "ema_number", unique=True),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    first_name: Mapped[str] = mapped_column(String(80))
    last_name: Mapped[str] = mapped_column(String(80))
    country: Mapped[str] = mapped_column(String(2), default="")  # ISO 3166-1 alpha-2
    club: Mapped[str] = mapped_column(String(120), default="")
    team: Mapped[str] = mapped_column(String(120), default="")
    ema_number: Mapped[str | None] = mapped_column(String(8))
    is_substitute: Mapped[bool] = mapped_column(default=False)
    status: Mapped[PlayerStatus] = mapped_column(EnumText(PlayerStatus, 20), default=PlayerStatus.REGISTERED)
    notes: Mapped[str] = mapped_column(String(1000), default="")
    fixed_table: Mapped[int | None]  # access needs: the table number the player keeps in every draw
    checked_in_at: Mapped[datetime | None]
    # MERS 4.3: the head referee may strip a player who withdrew ill from the EMA result (standings keep them).
    left_out_of_ema: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    tournament: Mapped[Tournament] = relationship()  # noqa: F821

    @validates("status")
    def _status_member(self, key: str, value: str) -> PlayerStatus:
        return PlayerStatus(value)

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def sort_name(self) -> str:
        return f"{self.last_name}, {self.first_name}"

    def __repr__(self) -> str:
        return f"<Player {self.id} {self.full_name}>"
