"""Players at the table with their own phones: a private link per player, their confirmations of the hands
entered at their table, and the disputes they raise for the referees."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow


class PlayerLink(db.Model):
    """A player's private link: whoever holds the token is that player on their own page (no account).

    The token is not stored: it is an HMAC of the row's random nonce under the app's secret key
    (`services.people.player_links`), so the desk can print it again (schedule cards, the links sheet) while a copy of
    the database alone opens no player's page. Looked up by its SHA-256, then compared in constant time.
    Renewing draws a new nonce: the old token answers 404 from then on."""

    __tablename__ = "player_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), unique=True)
    nonce: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    language: Mapped[str | None] = mapped_column(String(10))  # the player's chosen language, once they pick one
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]

    player: Mapped[Player] = relationship()  # noqa: F821


class HandConfirmation(db.Model):
    """One player at the table agrees the hand is recorded right. A staff correction deletes them all: the
    corrected hand is confirmed afresh."""

    __tablename__ = "hand_confirmations"
    __table_args__ = (UniqueConstraint("hand_id", "player_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    confirmed_at: Mapped[datetime] = mapped_column(default=utcnow)


class DisputeResolution(StrEnum):
    CORRECTED = "corrected"  # staff corrected (or deleted) the hand
    STANDS = "stands"        # staff ruled the hand stands as entered


class HandDispute(db.Model):
    """A player's objection to a hand as recorded; open until staff correct the hand or rule it stands."""

    __tablename__ = "hand_disputes"

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"))
    reason: Mapped[str] = mapped_column(String(500))
    opened_at: Mapped[datetime] = mapped_column(default=utcnow)
    resolution: Mapped[DisputeResolution | None] = mapped_column(EnumText(DisputeResolution, 10))
    resolved_at: Mapped[datetime | None]
    resolved_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    resolved_by_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text

    @property
    def is_open(self) -> bool:
        return self.resolved_at is None
