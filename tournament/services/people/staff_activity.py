"""When each member of a tournament's staff was last active: their last login, their API tokens' last use and
their last score entry in this tournament (what is recorded; nothing is tracked beyond it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import ApiToken, ScoreChange, Tournament, TournamentSession


@dataclass(frozen=True)
class Activity:
    last_login: datetime | None = None
    last_token_use: datetime | None = None
    last_score_entry: datetime | None = None

    @property
    def latest(self) -> datetime | None:
        times = [t for t in (self.last_login, self.last_token_use, self.last_score_entry) if t is not None]
        return max(times) if times else None


def staff_activity(t: Tournament) -> dict[int, Activity]:
    """Each staff member's activity by user id (two queries, whatever the size of the staff)."""
    users = {member.user_id: member.user for member in t.staff}
    if not users:
        return {}
    token_use = dict(db.session.execute(
        select(ApiToken.user_id, func.max(ApiToken.last_used_at))
        .where(ApiToken.user_id.in_(users)).group_by(ApiToken.user_id)).all())
    score_entry = dict(db.session.execute(
        select(ScoreChange.user_id, func.max(ScoreChange.at))
        .join(TournamentSession, TournamentSession.id == ScoreChange.session_id)
        .where(TournamentSession.tournament_id == t.id, ScoreChange.user_id.in_(users))
        .group_by(ScoreChange.user_id)).all())
    return {user_id: Activity(user.last_login_at, token_use.get(user_id), score_entry.get(user_id))
            for user_id, user in users.items()}
