"""The referee calls log of a table: each time a referee was called, what happened, what they ruled, whose hand
they declared dead, and the penalty given for it (GB 3.11, MERS 2-3)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tournament.extensions import db
from tournament.models._common import utcnow


class RefereeCall(db.Model):
    """One call to a referee at a table. A dead hand ruled here is enforced by score entry: that player cannot
    win that hand. A penalty given from the call is an ordinary penalty, linked back to it."""

    __tablename__ = "referee_calls"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int]
    hand_number: Mapped[int | None]
    called_by_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    situation: Mapped[str] = mapped_column(String(500))
    ruling: Mapped[str] = mapped_column(String(500), default="")
    dead_hand_player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    penalty_id: Mapped[int | None] = mapped_column(ForeignKey("penalties.id", ondelete="SET NULL"))
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    called_by: Mapped[Player | None] = relationship(foreign_keys=[called_by_player_id])  # noqa: F821
    dead_hand_player: Mapped[Player | None] = relationship(foreign_keys=[dead_hand_player_id])  # noqa: F821
    penalty: Mapped[Penalty | None] = relationship()  # noqa: F821
    created_by: Mapped[User | None] = relationship()  # noqa: F821

    @property
    def created_by_name(self) -> str:
        return self.created_by.display_name if self.created_by else (self.created_by_label or "")
