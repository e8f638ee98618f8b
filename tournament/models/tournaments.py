"""A tournament and the staff who run it."""

from __future__ import annotations

from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, false, true
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from tournament.constants import DEFAULT_TABLE_POINTS
from tournament.extensions import db
from tournament.mcr.rulesets import RULESETS
from tournament.models._common import EnumText, utcnow
from tournament.models.users import Role
from tournament.timezones import DEFAULT_TIME_ZONE

# The engine names the rulesets; the tournament stores one of them.
Ruleset = StrEnum("Ruleset", [(name.upper(), name) for name in RULESETS])  # type: ignore[misc]


class EndRule(StrEnum):
    """What score entry allows at a table once time is called there."""

    FINISH_HAND = "finish_hand"
    STOP_IMMEDIATELY = "stop_immediately"


class TieBreak(StrEnum):
    """Tie-breaks applied after table points and total score, in the order the tournament chooses."""

    FIRSTS = "firsts"
    SECONDS = "seconds"
    BEST_SESSION = "best_session"
    FEWEST_PENALTIES = "fewest_penalties"


class DrawSeparation(StrEnum):
    """Who the draw keeps apart at a table."""

    TEAM = "team"
    CLUB = "club"
    NONE = "none"


class DrawPriority(StrEnum):
    """What the draw avoids first when it cannot avoid both: repeat opponents, or teammates (clubmates) at a
    table."""

    REPEATS_FIRST = "repeats_first"
    TEAMS_FIRST = "teams_first"


class EntryMode(StrEnum):
    """Who enters the hands: staff (players may confirm), or the players at the table (the other three confirm)."""

    REFEREE = "referee"
    PLAYERS = "players"


# Labels for people, one per member.
RULESET_LABELS = {Ruleset.EMA: "EMA (Green Book)", Ruleset.CHINESE: "Chinese practice"}  # type: ignore[attr-defined]
END_RULES = {
    EndRule.FINISH_HAND: "Finish the hand in progress (EMA 2019)",
    EndRule.STOP_IMMEDIATELY: "Stop at once; the hand in progress scores nothing (GB 3.5.6)",
}
TIE_BREAKS = {
    TieBreak.FIRSTS: "Most first places",
    TieBreak.SECONDS: "Most second places",
    TieBreak.BEST_SESSION: "Best session score",
    TieBreak.FEWEST_PENALTIES: "Fewest penalty points",
}
DRAW_PRIORITIES = {
    DrawPriority.REPEATS_FIRST: "Repeat opponents first, then teammates apart",
    DrawPriority.TEAMS_FIRST: "Teams apart first, then repeat opponents (a team event)",
}
DRAW_SEPARATIONS = {
    DrawSeparation.TEAM: "Teammates",
    DrawSeparation.CLUB: "Clubmates",
    DrawSeparation.NONE: "Nobody (only avoid repeat opponents)",
}
ENTRY_MODES = {
    EntryMode.REFEREE: "Staff enter the hands; players may confirm them from their links",
    EntryMode.PLAYERS: "Players enter their table's hands from their links; a hand counts once all four confirm",
}
DEFAULT_RULESET = Ruleset(RULESETS[0])
# MERS 2.2-2.9 and GB 3.11: the fouls a referee meets most; "Other" takes the rest (the reason says what).
DEFAULT_FOUL_TYPES = ("Late arrival", "Slow play", "Passing information", "Wrong call", "Exposed or dropped tiles",
                      "Wrong number of tiles", "Touching the wall", "Conduct", "Other")
DEFAULT_TIE_BREAKS = (TieBreak.FIRSTS, TieBreak.BEST_SESSION)


class Tournament(db.Model):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(120))
    venue: Mapped[str] = mapped_column(String(200), default="")
    # The host country as EMA's results write it (3 letters: NED, GER, FIN); None until an organiser sets it.
    country: Mapped[str | None] = mapped_column(String(3))
    start_date: Mapped[date | None]
    end_date: Mapped[date | None]
    ruleset: Mapped[Ruleset] = mapped_column(EnumText(Ruleset, 20), default=DEFAULT_RULESET)
    session_count: Mapped[int] = mapped_column(default=7)
    session_minutes: Mapped[int] = mapped_column(default=120)
    end_rule: Mapped[EndRule] = mapped_column(EnumText(EndRule, 20), default=EndRule.FINISH_HAND)
    # The clock warns this many minutes before the end of a session (0: no warning).
    warning_minutes: Mapped[int] = mapped_column(default=15, server_default="15")
    # GB 3.12.2: an appeal within 30 minutes after the end of the session.
    appeal_minutes: Mapped[int] = mapped_column(default=30, server_default="30")
    false_mahjong_under_minimum: Mapped[int] = mapped_column(default=10)
    false_mahjong_not_winning: Mapped[int] = mapped_column(default=20)
    # Table points for 1st..4th place, e.g. [4, 2, 1, 0].
    table_points: Mapped[list[int]] = mapped_column(JSON, default=lambda: list(DEFAULT_TABLE_POINTS))
    # TieBreak values, applied in this order after table points and score.
    tie_breaks: Mapped[list[str]] = mapped_column(JSON, default=lambda: list(DEFAULT_TIE_BREAKS))
    draw_separation: Mapped[DrawSeparation] = mapped_column(EnumText(DrawSeparation, 10), default=DrawSeparation.TEAM,
                                                            server_default=DrawSeparation.TEAM.value)
    draw_priority: Mapped[DrawPriority] = mapped_column(EnumText(DrawPriority, 20), default=DrawPriority.REPEATS_FIRST,
                                                        server_default=DrawPriority.REPEATS_FIRST.value)
    # Hidden: the standings pages, JSON and PDFs answer staff only (e.g. before the last session).
    standings_hidden: Mapped[bool] = mapped_column(default=False, server_default=false())
    # Whether referee penalties count in the session score that places a table (GB 3.11.2 counts them; MERS
    # can be read either way: docs/rules/event-day.md). The score loses them either way.
    penalties_affect_table_points: Mapped[bool] = mapped_column(default=True, server_default=true())
    entry_mode: Mapped[EntryMode] = mapped_column(EnumText(EntryMode, 10), default=EntryMode.REFEREE,
                                                  server_default=EntryMode.REFEREE.value)
    # The foul types a referee chooses from (None: DEFAULT_FOUL_TYPES); a penalty's ladder counts per type.
    foul_types: Mapped[list[str] | None] = mapped_column(JSON)
    # An IANA zone (tournament.timezones): times are stored in UTC and shown in this zone.
    time_zone: Mapped[str] = mapped_column(String(64), default=DEFAULT_TIME_ZONE, server_default=DEFAULT_TIME_ZONE)
    # The language of its pages and printed documents where the reader's own choice, account or browser says
    # nothing (tournament.i18n.select_locale), and of its PDFs: a code of tournament.constants.LANGUAGES.
    language: Mapped[str] = mapped_column(String(8), default="en", server_default="en")

    @property
    def foul_type_list(self) -> list[str]:
        return list(self.foul_types) if self.foul_types else list(DEFAULT_FOUL_TYPES)
    created_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    # Who, as text, where no account of this server is linked (a restored backup names people, not accounts).
    created_by_label: Mapped[str | None] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # Optimistic locking: an edit made from a stale form is refused, not silently applied.
    version: Mapped[int] = mapped_column(default=1)

    __mapper_args__ = {"version_id_col": version}

    staff: Mapped[list[TournamentStaff]] = relationship(
        back_populates="tournament", cascade="all, delete-orphan"
    )

    @validates("table_points")
    def _points_list(self, key: str, value: Any) -> list[int]:
        # A JSON list; comma text (what the column held before) is still accepted and stored as a list.
        items = value.split(",") if isinstance(value, str) else value
        return [int(p) for p in items]

    @validates("tie_breaks")
    def _tie_break_list(self, key: str, value: Any) -> list[str]:
        items = value.split(",") if isinstance(value, str) else value
        return [str(t) for t in items if t]

    @property
    def table_points_list(self) -> list[int]:
        return list(self.table_points or DEFAULT_TABLE_POINTS)

    @property
    def tie_break_list(self) -> list[str]:
        return list(self.tie_breaks if self.tie_breaks is not None else DEFAULT_TIE_BREAKS)

    @property
    def ruleset_label(self) -> str:
        return RULESET_LABELS.get(self.ruleset, self.ruleset)

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
    role: Mapped[Role] = mapped_column(EnumText(Role, 20))

    tournament: Mapped[Tournament] = relationship(back_populates="staff")
    user: Mapped[User] = relationship()  # noqa: F821 - resolved by SQLAlchemy's registry

    @validates("role")
    def _role_member(self, key: str, value: str) -> Role:
        return Role(value)
