"""The planned start of each session: the tournament's timetable.

Keyed by session number, not by session row: a session's row exists only once it is drawn and a redraw
replaces it, while the timetable is set before any draw and outlives redraws."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from tournament.extensions import db


class SessionStart(db.Model):
    __tablename__ = "session_starts"
    __table_args__ = (UniqueConstraint("tournament_id", "session_number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    session_number: Mapped[int]
    planned_start: Mapped[datetime]  # naive UTC, like every timestamp; shown in the tournament's zone
