"""The one way a write to the scores is recorded: what the standings' change marker follows."""

from __future__ import annotations

from tournament.extensions import db
from tournament.models import ScoreAction, ScoreChange, User


def record_score_change(session_id: int, table_number: int | None, hand_number: int | None, action: ScoreAction,
                        user: User | None, before: dict | None = None, after: dict | None = None) -> ScoreChange:
    """Record a write to the scores of a session (a hand entered, corrected or deleted, totals, a penalty given
    or cancelled, a substitution, a hand confirmed, disputed or ruled to stand): who, what (`action`, worded
    only where it is shown: messages.ACTION_WORDS), before and after, for the history.

    Every such write calls this, inside its `changes()` unit and in the same transaction as the write. The
    change marker (`standings.marker`) counts these records and follows the highest id in the sessions in
    play, and the standings are brought up to date by reading again the tables they name
    (`standings.facts.updated`): a write that does not record one leaves the standings and the live pages
    stale until something else changes. `table_number` None (a penalty to a player with no seat) makes the next
    standings read everything afresh.
    """
    change = ScoreChange(session_id=session_id, table_number=table_number, hand_number=hand_number, action=action,
                         user_id=user.id if user else None, before=before, after=after)
    db.session.add(change)
    return change
