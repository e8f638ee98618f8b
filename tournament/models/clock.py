"""The session clock as a list of events: started, paused, resumed, ended, extra time, time called at a table.

No counter is stored: the remaining time is computed from these events and the server's time, so a
restart, a reload or a second screen always shows the same time (tournament.services.play.clock).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow


class ClockEventKind(StrEnum):
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    END = "end"                            # time called for everyone
    END_UNDONE = "end_undone"              # the End taken back: the clock as if it had not been pressed
    EXTEND = "extend"                      # extra time for one table, or every table when table_number is None
    TIME_CALLED = "time_called"            # at one table, with the hand that was in progress (or none)
    TIME_CALL_UNDONE = "time_call_undone"  # an organiser took a table's time call back
    # Recorded by End under the finish_hand rule at each table without a call of its own: the hand after the
    # last one entered is taken as in progress. Undoing the End takes these back, never a table's own call.
    TIME_CALLED_AT_END = "time_called_at_end"


# The events that set a table's standing time call (the latest of these and TIME_CALL_UNDONE wins).
TIME_CALL_KINDS = (ClockEventKind.TIME_CALLED, ClockEventKind.TIME_CALLED_AT_END)


class ClockEvent(db.Model):
    __tablename__ = "clock_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    session_id: Mapped[int] = mapped_column(ForeignKey("tournament_sessions.id", ondelete="CASCADE"), index=True)
    kind: Mapped[ClockEventKind] = mapped_column(EnumText(ClockEventKind, 20))
    seconds: Mapped[int | None]        # extra time given (extend)
    table_number: Mapped[int | None]   # extend (None: every table), time_called, time_call_undone
    hand_in_progress: Mapped[int | None]  # time_called: the hand being played, None when between hands
    # time_called: the last hand entered at that moment, the limit when no hand was in progress.
    last_hand: Mapped[int | None]
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    user_label: Mapped[str | None] = mapped_column(String(254))  # restored: who, as text
    at: Mapped[datetime] = mapped_column(default=utcnow)

    user: Mapped[User | None] = relationship()  # noqa: F821 - resolved by SQLAlchemy's registry
