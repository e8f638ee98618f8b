"""Idempotency keys: the first answer to a write, kept so that the same request sent again (a double click,
a retried API call) gets that answer back instead of being carried out twice."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tournament.extensions import db
from tournament.models._common import utcnow


class IdempotencyKey(db.Model):
    """A key a user sent with a write. The row is inserted when the request starts, in the request's own
    transaction: a second request with the same key waits on the unique index until the first ends, then
    finds the first answer (committed with the write itself), or nothing if the first failed."""

    __tablename__ = "idempotency_keys"
    __table_args__ = (UniqueConstraint("user_id", "key", name="uq_idempotency_keys_user_key"),
                      UniqueConstraint("player_id", "key", name="uq_idempotency_keys_player_key"))

    id: Mapped[int] = mapped_column(primary_key=True)
    # Whose key: a staff account's, or a player's sending from their private link (one of the two).
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"))
    key: Mapped[str] = mapped_column(String(100))
    # SHA-256 of the method, path and body: the same key on another request is refused, not replayed.
    fingerprint: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None]
    body: Mapped[str | None] = mapped_column(Text)
    content_type: Mapped[str] = mapped_column(String(200), default="")
    location: Mapped[str] = mapped_column(String(2000), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
