"""Time called at a table: the standing call, read from the clock's events, and the end rule it sets in score
entry. Score entry (scoring) and the clock both ask here, so neither imports the other's module for it: the
clock's actions call scoring to store the not-scored hand, and scoring never imports the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import ClockEvent, ClockEventKind, EndRule, Tournament, TournamentSession
from tournament.models.clock import TIME_CALL_KINDS
from tournament.services.core.errors import ConflictError


@dataclass(frozen=True)
class TimeCall:
    table: int
    hand_in_progress: int | None
    last_hand: int | None  # the last hand entered when time was called
    at: datetime
    at_end: bool = False  # recorded by End for everyone (the hand after the last entered), not at the table

    @property
    def limit(self) -> int:
        """The last hand number that may be entered at the table."""
        return self.hand_in_progress if self.hand_in_progress is not None else (self.last_hand or 0)


def time_call(session: TournamentSession, table_number: int) -> TimeCall | None:
    """The standing time call at a table (None when time was not called there, or the call was undone)."""
    rows = db.session.execute(
        select(ClockEvent.kind, ClockEvent.hand_in_progress, ClockEvent.last_hand, ClockEvent.at)
        .where(ClockEvent.session_id == session.id, ClockEvent.table_number == table_number,
               ClockEvent.kind.in_((*TIME_CALL_KINDS, ClockEventKind.TIME_CALL_UNDONE)))
        .order_by(ClockEvent.at.desc(), ClockEvent.id.desc()).limit(1)
    ).first()
    if rows is None or rows.kind not in TIME_CALL_KINDS:
        return None
    return TimeCall(table_number, rows.hand_in_progress, rows.last_hand, rows.at,
                    rows.kind == ClockEventKind.TIME_CALLED_AT_END)


def check_hand_may_be_entered(t: Tournament, session: TournamentSession, table_number: int, number: int) -> None:
    """Refuse (409) a hand that the end rule says was never played, or that scores nothing."""
    call = time_call(session, table_number)
    if call is None:
        return
    if number > call.limit:
        if call.hand_in_progress is None:
            after = msg("after hand %(hand)s, with no hand in progress", hand=call.limit) if call.limit else \
                msg("before any hand was entered, with no hand in progress")
        else:
            after = msg("during hand %(hand)s", hand=call.hand_in_progress)
        where = (msg("for everyone %(after)s at table %(table)s", after=after, table=table_number) if call.at_end
                 else msg("at table %(table)s %(after)s", table=table_number, after=after))
        raise ConflictError(msg("Time was called %(where)s: hand %(number)s was not played and cannot be "
                                "entered.", where=where, number=number),
                            field="number")
    if t.end_rule == EndRule.STOP_IMMEDIATELY and number == call.hand_in_progress:
        raise ConflictError(msg("Time was called at table %(table_number)s during hand %(number)s: under "
                                "the stop-immediately rule it scores nothing and is recorded as not "
                                "scored.", table_number=table_number, number=number), field="number")
