"""An appeal against a referee's ruling (GB 3.12.2, MERS 2.1), filed by the staff for a player, and its decision."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow


class AppealDecision(StrEnum):
    UPHELD = "upheld"
    REJECTED = "rejected"


class Appeal(db.Model):
    """Open while `decision` is null. An appeal changes no score itself: an upheld one points at the score
    change (a hand corrected, a penalty cancelled ...) it caused, `correction_id`."""

    __tablename__ = "appeals"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int]
    hand_number: Mapped[int | None]
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    text: Mapped[str] = mapped_column(String(2000))
    filed_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    filed_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    filed_at: Mapped[datetime] = mapped_column(default=utcnow)
    decision: Mapped[AppealDecision | None] = mapped_column(EnumText(AppealDecision, 20))
    decision_text: Mapped[str] = mapped_column(String(2000), default="")
    decided_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    decided_by_label: Mapped[str | None] = mapped_column(String(254))
    decided_at: Mapped[datetime | None]
    correction_id: Mapped[int | None] = mapped_column(ForeignKey("score_changes.id", ondelete="SET NULL"))
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    session: Mapped[TournamentSession] = relationship()  # noqa: F821
    player: Mapped[Player] = relationship()  # noqa: F821
    filed_by: Mapped[User | None] = relationship(foreign_keys=[filed_by_id])  # noqa: F821
    decided_by: Mapped[User | None] = relationship(foreign_keys=[decided_by_id])  # noqa: F821

    @property
    def filed_by_name(self) -> str:
        return self.filed_by.display_name if self.filed_by else (self.filed_by_label or "")

    @property
    def decided_by_name(self) -> str:
        return self.decided_by.display_name if self.decided_by else (self.decided_by_label or "")
