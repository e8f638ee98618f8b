"""A players CSV kept between its preview and its confirmation, so the confirm form carries only an id
(a big file re-posted in a hidden field outgrew the form limits) and imports exactly what was previewed."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from tournament.extensions import db
from tournament.models._common import utcnow


class PlayerImport(db.Model):
    """One previewed CSV. `confirmed_at` is set once, by a conditional UPDATE (WHERE confirmed_at IS NULL)
    in the same transaction as the players: a second confirmation finds it set and stores nothing."""

    __tablename__ = "player_imports"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    uploaded_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    csv_text: Mapped[str] = mapped_column(Text)
    # SHA-256 of the text: the import refuses a stored text that no longer matches what was previewed.
    sha256: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    confirmed_at: Mapped[datetime | None]
