"""A substitution during a session: from a given hand, another player takes a seat (MERS 4)."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow


class SubstitutionReason(StrEnum):
    LATE = "late"                  # MERS 2.2 / 4.1.1: the substitute plays the session as the seat's player
    LEFT = "left"                  # left during the session
    ILL = "ill"                    # MERS 4.1.2
    DISQUALIFIED = "disqualified"  # MERS 3.5 / 4.2
    OTHER = "other"


def keeps_table_points(reason: str, from_hand: int) -> bool:
    """Whether the incoming player takes the seat's place at the table (MERS 4.1.1 late; 4.1.2 ill before
    the session began) or the seat scores 0 table points and the other three take 4, 2, 1 (4.1.2 ill
    during the session, 4.2 disqualified, and by our reading anyone leaving during the session)."""
    if reason == SubstitutionReason.DISQUALIFIED:
        return False
    return reason == SubstitutionReason.LATE or from_hand == 1


class Substitution(db.Model):
    """From hand `from_hand` on, `in_player` sits in `out_player`'s seat at this table: the hands before belong
    to the outgoing player, those from then on to the incoming one. The seat's wind does not change."""

    __tablename__ = "substitutions"
    # A player comes in once per session (and is seated nowhere else in it: the service checks).
    __table_args__ = (UniqueConstraint("session_id", "in_player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int]
    out_player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    in_player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    from_hand: Mapped[int]
    reason: Mapped[SubstitutionReason] = mapped_column(EnumText(SubstitutionReason, 20))
    note: Mapped[str] = mapped_column(String(500), default="")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    out_player: Mapped[Player] = relationship(foreign_keys=[out_player_id])  # noqa: F821
    in_player: Mapped[Player] = relationship(foreign_keys=[in_player_id])  # noqa: F821

    @property
    def keeps_table_points(self) -> bool:
        return keeps_table_points(self.reason, self.from_hand)
