"""The seating of a session: which player sits at which table with which seat wind."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from tournament.draws.model import SEAT_WIND_NAMES, SEAT_WINDS
from tournament.extensions import db
from tournament.messages import from_data
from tournament.models._common import EnumText, utcnow

__all__ = ["SEAT_WINDS", "SEAT_WIND_NAMES", "DrawAction", "DrawEvent", "DrawMethod", "Seat", "SessionStatus",
           "TournamentSession"]


class SessionStatus(StrEnum):
    DRAFT = "draft"          # drawn, visible to staff only; may be redrawn or swapped
    PUBLISHED = "published"  # visible to everyone; may still be redrawn until play starts
    IN_PLAY = "in_play"      # play has started: the seating is fixed
    FINISHED = "finished"


class DrawMethod(StrEnum):
    PLAN = "plan"        # part of a plan of every session made up front
    DRAW = "draw"        # drawn on its own from the history and today's present players
    SWISS = "swiss"      # drawn from the current ranking


class TournamentSession(db.Model):
    """One session (round) of a tournament and how its seating was drawn."""

    __tablename__ = "tournament_sessions"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    status: Mapped[SessionStatus] = mapped_column(EnumText(SessionStatus, 20), default=SessionStatus.DRAFT)
    method: Mapped[DrawMethod] = mapped_column(EnumText(DrawMethod, 20), default=DrawMethod.DRAW)
    # The draw is a function of this seed and the earlier sessions' seating: recorded to reproduce it.
    seed: Mapped[int] = mapped_column(default=0)
    drawn_at: Mapped[datetime] = mapped_column(default=utcnow)
    published_at: Mapped[datetime | None]
    finished_at: Mapped[datetime | None]  # the appeal window runs from here
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    seats: Mapped[list[Seat]] = relationship(
        back_populates="session",
        cascade="all, delete-orphan",
        order_by="(Seat.table_number, Seat.id)",
    )

    @validates("status")
    def _status_member(self, key: str, value: str) -> SessionStatus:
        return SessionStatus(value)

    @validates("method")
    def _method_member(self, key: str, value: str) -> DrawMethod:
        return DrawMethod(value)

    @property
    def is_locked(self) -> bool:
        """Seating can no longer change once play has started."""
        return self.status in (SessionStatus.IN_PLAY, SessionStatus.FINISHED)

    @property
    def is_published(self) -> bool:
        return self.status != SessionStatus.DRAFT

    def tables(self) -> list[tuple[int, int, int, int]]:
        """Player ids per table, in seat order E, S, W, N."""
        by_table: dict[int, list[int]] = {}
        for seat in sorted(self.seats, key=lambda s: (s.table_number, s.wind_order)):
            by_table.setdefault(seat.table_number, []).append(seat.player_id)
        return [tuple(ids) for _, ids in sorted(by_table.items())]  # type: ignore[misc]


class Seat(db.Model):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("session_id", "player_id"),
        UniqueConstraint("session_id", "table_number", "seat_wind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    table_number: Mapped[int]
    seat_wind: Mapped[str] = mapped_column(String(1), info={"choices": SEAT_WINDS})  # checked by backup imports
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="RESTRICT"), index=True)
    # The table the player had when this published session was mended or re-planned around a change of the
    # field (None: the table published, or a seat of a draft): their page and calendar mark the table changed.
    previous_table: Mapped[int | None]

    session: Mapped[TournamentSession] = relationship(back_populates="seats")
    player: Mapped[Player] = relationship()  # noqa: F821

    @property
    def wind_order(self) -> int:
        return SEAT_WINDS.index(self.seat_wind)


class DrawAction(StrEnum):
    PLANNED = "planned"        # every session not in play drawn up front
    DRAWN = "drawn"            # one session drawn from who is present
    REDRAWN = "redrawn"        # the last session drawn again
    REPLANNED = "re-planned"   # sessions drawn ahead drawn again for quality (they may move many players)
    MENDED = "mended"          # sessions drawn ahead mended after a change of the field, moving few players
    SWAPPED = "swapped"        # two players exchanged by hand


class DrawEvent(db.Model):
    """The provenance of a tournament's seatings: each draw, plan, re-plan and swap, by whom and when, with the
    seed it used. Keyed by session number, not by session row: a redraw replaces the row, the history stays."""

    __tablename__ = "draw_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    session_number: Mapped[int]
    action: Mapped[DrawAction] = mapped_column(EnumText(DrawAction, 20))
    seed: Mapped[int | None]
    detail: Mapped[str] = mapped_column(String(500), default="")  # in English (the API, backups, the logs)
    # The same detail as a message (messages.as_data), worded for each reader where it is shown; None: older rows
    detail_words: Mapped[dict | None] = mapped_column(JSON)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    user_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User | None] = relationship()  # noqa: F821

    @validates("action")
    def _action_member(self, key: str, value: str) -> DrawAction:
        return DrawAction(value)

    @property
    def detail_shown(self) -> str:
        """The detail to show: a message the `tr` filter words in the reader's language, else the stored text."""
        return from_data(self.detail_words) if self.detail_words else self.detail

    @property
    def who(self) -> str:
        return self.user.display_name if self.user else (self.user_label or "")
