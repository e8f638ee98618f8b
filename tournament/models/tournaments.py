"""A tournament and the staff who run it."""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tournament.extensions import db
from tournament.models._common import utcnow

RULESETS = {"ema": "EMA (Green Book)", "chinese": "Chinese practice"}
END_RULES = {
    "finish_hand": "Finish the hand in progress (EMA 2019)",
    "stop_immediately": "Stop at once; the hand in progress scores nothing (GB 3.5.6)",
}
# Tie-breaks applied after table points and total score, in the order the tournament chooses.
TIE_BREAKS = {
    "firsts": "Most first places",
    "seconds": "Most second places",
    "best_session": "Best session score",
    "fewest_penalties": "Fewest penalty points",
}
# Who the draw keeps apart at a table.
DRAW_SEPARATIONS = {
    "team": "Teammates",
    "club": "Clubmates",
    "none": "Nobody (only avoid repeat opponents)",
}


class StaffRole(StrEnum):
    ORGANISER = "organiser"
    REFEREE = "referee"


class Tournament(db.Model):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    venue: Mapped[str] = mapped_column(String(200), default="")
    start_date: Mapped[date | None]
    end_date: Mapped[date | None]
    ruleset: Mapped[str] = mapped_column(String(20), default="ema")
    session_count: Mapped[int] = mapped_column(default=7)
    session_minutes: Mapped[int] = mapped_column(default=120)
    end_rule: Mapped[str] = mapped_column(String(20), default="finish_hand")
    false_mahjong_under_minimum: Mapped[int] = mapped_column(default=10)
    false_mahjong_not_winning: Mapped[int] = mapped_column(default=20)
    # Table points for 1st..4th place, e.g. "4,2,1,0".
    table_points: Mapped[str] = mapped_column(String(40), default="4,2,1,0")
    # Comma-separated keys of TIE_BREAKS, applied after table points and score.
    tie_breaks: Mapped[str] = mapped_column(String(120), default="firsts,best_session")
    draw_separation: Mapped[str] = mapped_column(String(10), default="team", server_default="team")
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # Optimistic locking: an edit made from a stale form is refused, not silently applied.
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    staff: Mapped[list[TournamentStaff]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan"
    )

    @property
    def table_points_list(self) -> list[int]:
        return [int(p) for p in self.table_points.split(",")]

    @property
    def tie_break_list(self) -> list[str]:
        return [t for t in self.tie_breaks.split(",") if t]

    @property
    def ruleset_label(self) -> str:
        return RULESETS.get(self.ruleset, self.ruleset)

    @property
    def end_rule_label(self) -> str:
        return END_RULES.get(self.end_rule, self.end_rule)

    sessions: Mapped[list[TournamentSession]] = relationship(  # noqa: F821
        cascade="all, delete-orphan", order_by="TournamentSession.number"
    )

    def __repr__(self) -> str:
        return f"<Tournament {self.id} {self.name!r}>"


class TournamentStaff(db.Model):
    """Who may run a tournament: its organisers (everything) and referees (tables, clock)."""

    __tablename__ = "tournament_staff"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(String(20))

    tournament: Mapped[Tournament] = relationship(back_populates="staff")
    user: Mapped[User] = relationship()  # noqa: F821 - resolved by SQLAlchemy's registry
