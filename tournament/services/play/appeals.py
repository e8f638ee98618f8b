"""Appeals against a referee's ruling (GB 3.12.2, MERS 2.1; docs/rules/event-day.md "Appeals").

A referee or organiser files an appeal for a player who sat at the table in that session (drawn, or as an
incoming substitute: `play.players_at_hand`), while the session is in play or within the tournament's
`appeal_minutes` after it finished (`TournamentSession.finished_at`). The decision (upheld or rejected, with
its text) is given once. An appeal changes no score and records nothing in score_changes: the correction an
upheld appeal causes is made as usual (a hand corrected, a penalty cancelled ...) and the appeal points at it,
`correction_id`: the score change named when deciding, or else the latest one of the appeal's table (and hand,
when it names one) recorded since the appeal was filed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from tournament import timezones
from tournament.constants import is_id, is_int
from tournament.extensions import db
from tournament.messages import Message, msg
from tournament.models import (
    HANDS_PER_SESSION,
    Appeal,
    AppealDecision,
    Player,
    ScoreChange,
    SessionStatus,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.play import session as play
from tournament.text import control_refusal

MAX_TEXT = 2000


def appeal_json(appeal: Appeal) -> dict[str, Any]:
    def stamp(moment: datetime | None) -> str | None:
        return None if moment is None else moment.isoformat() + "Z"

    return {
        "id": appeal.id,
        "session": appeal.session.number,
        "table": appeal.table_number,
        "hand": appeal.hand_number,
        "player_id": appeal.player_id,
        "text": appeal.text,
        "filed_by": appeal.filed_by_name,
        "filed_at": stamp(appeal.filed_at),
        "decision": None if appeal.decision is None else str(appeal.decision),
        "decision_text": appeal.decision_text,
        "decided_by": appeal.decided_by_name or None,
        "decided_at": stamp(appeal.decided_at),
        "correction_id": appeal.correction_id,
    }


def _text(value: Any, field: str, missing: Message, too_long: Message, what: Message) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ServiceError(missing, field=field)
    if len(value) > MAX_TEXT:
        raise ServiceError(too_long, field=field)
    if problem := control_refusal(value, what, multiline=True):  # paragraphs, written in a text box
        raise ServiceError(problem, field=field)
    return value.strip()


def window_closes_at(t: Tournament, session: TournamentSession) -> datetime | None:
    """When appeals about a finished session are no longer accepted; None while it is in play, or when it
    finished before finish times were recorded (nothing to count from: accepted)."""
    if session.status != SessionStatus.FINISHED or session.finished_at is None:
        return None
    return session.finished_at + timedelta(minutes=t.appeal_minutes)


def _seated(session: TournamentSession, table_number: int, hand_number: int | None, player_id: int) -> bool:
    """Whether the player sat at the table at that hand, or at any hand of the session when none is named."""
    subs = play.substitutions_at(session, table_number)
    drawn = play.table_players(session, table_number)  # NotFound for a table the session does not have
    hands = range(1, HANDS_PER_SESSION + 1) if hand_number is None else (hand_number,)
    return any(player_id in {p.player_id for p in play.with_substitutions(drawn, subs, h)} for h in hands)


def file_appeal(t: Tournament, session_number: Any, table_number: Any, hand_number: Any, player_id: Any,
                text: Any, user: User | None, *, now: datetime | None = None) -> Appeal:
    """File a player's appeal; `now` is for tests (naive UTC)."""
    if not is_id(session_number):
        raise ServiceError(msg("Choose a session."), field="session")
    if not is_id(table_number):
        raise ServiceError(msg("Choose a table."), field="table")
    if hand_number is not None and (not is_int(hand_number) or not 1 <= hand_number <= HANDS_PER_SESSION):
        raise ServiceError(msg("The hand is a number from 1 to %(hands_per_session)s, or none.", hands_per_session=HANDS_PER_SESSION), field="hand")
    text = _text(text, "text", msg("Write what the player appeals against."),
                 msg("What the player appeals against is at most %(max)s characters.", max=MAX_TEXT),
                 msg("the appeal"))
    player = db.session.get(Player, player_id) if is_id(player_id) else None
    if player is None or player.tournament_id != t.id:
        raise ServiceError(msg("Choose a player of this tournament."), field="player_id")
    try:
        session = play.get_session(t, session_number)
    except NotFound as exc:
        raise NotFound(exc.message, field="session") from None
    if session.status not in (SessionStatus.IN_PLAY, SessionStatus.FINISHED):
        raise ConflictError(msg("Session %(number)s has not started: there is nothing to appeal yet.", number=session.number),
                            field="session")
    try:
        seated = _seated(session, table_number, hand_number, player.id)
    except NotFound as exc:
        raise NotFound(exc.message, field="table") from None
    if not seated:
        raise ServiceError(msg("%(name)s did not sit at table %(table)s in session %(number)s at hand %(hand)s.",
                               name=player.full_name, table=table_number, number=session.number, hand=hand_number)
                           if hand_number is not None else
                           msg("%(name)s did not sit at table %(table)s in session %(number)s.", name=player.full_name,
                               table=table_number, number=session.number), field="player_id")
    now = now or utcnow()
    closes = window_closes_at(t, session)
    if closes is not None and now > closes:
        zone = t.time_zone  # the times as the hall's clocks read them
        raise ConflictError(msg("Session %(number)s finished at %(finished)s: the appeal window closed at %(closed)s "
                                "(%(minutes)s minutes after).", number=session.number,
                                finished=timezones.format_local(session.finished_at, zone, "%H:%M %Z"),
                                closed=timezones.format_local(closes, zone, "%H:%M %Z"), minutes=t.appeal_minutes),
                            field="session")
    with changes():
        appeal = Appeal(tournament_id=t.id, session_id=session.id, table_number=table_number,
                        hand_number=hand_number, player_id=player.id, text=text,
                        filed_by_id=user.id if user else None, filed_at=now)
        db.session.add(appeal)
    return appeal


def appeals_of(t: Tournament) -> list[Appeal]:
    """Every appeal of the tournament, open and decided, in the order they were filed."""
    return list(db.session.scalars(select(Appeal).where(Appeal.tournament_id == t.id)
                                   .order_by(Appeal.filed_at, Appeal.id)))


def get_appeal(t: Tournament, appeal_id: Any, *, lock: bool = False) -> Appeal:
    query = select(Appeal).where(Appeal.id == appeal_id, Appeal.tournament_id == t.id) if is_id(appeal_id) else None
    if lock and query is not None:  # two referees deciding at once: the second waits, then sees the first
        query = query.with_for_update().execution_options(populate_existing=True)
    appeal = db.session.scalar(query) if query is not None else None
    if appeal is None:
        raise NotFound(msg("No such appeal in this tournament."))
    return appeal


def _correction(appeal: Appeal, score_change_id: Any) -> int | None:
    if score_change_id is not None:
        change = db.session.get(ScoreChange, score_change_id) if is_id(score_change_id) else None
        if change is None or change.session_id != appeal.session_id:
            raise ServiceError(msg("Choose a change of session %(number)s's history.", number=appeal.session.number),
                               field="score_change_id")
        return change.id
    query = select(ScoreChange.id).where(ScoreChange.session_id == appeal.session_id,
                                         ScoreChange.table_number == appeal.table_number,
                                         ScoreChange.at >= appeal.filed_at)
    if appeal.hand_number is not None:
        query = query.where(ScoreChange.hand_number == appeal.hand_number)
    return db.session.scalar(query.order_by(ScoreChange.id.desc()).limit(1))


def decide(t: Tournament, appeal_id: Any, decision: Any, text: Any, user: User | None,
           score_change_id: Any = None) -> Appeal:
    """Record the decision on an open appeal; an upheld one is linked to the correction it caused (see the
    module's note). A second decision is a conflict."""
    appeal = get_appeal(t, appeal_id, lock=True)
    try:
        decision = AppealDecision(decision)
    except ValueError:
        raise ServiceError(msg("The decision is %(choices)s.", choices=" or ".join(AppealDecision)), field="decision") from None
    text = _text(text, "text", msg("Write the decision's reasons."),
                 msg("The decision's reasons are at most %(max)s characters.", max=MAX_TEXT),
                 msg("the decision's reasons"))
    if appeal.decision is not None:
        raise ConflictError(msg("Appeal %(id)s was already %(decision)s at %(time)s.", id=appeal.id, decision=appeal.decision,
                                time=timezones.format_local(appeal.decided_at, t.time_zone, "%H:%M %Z")),
                            field="decision")
    if decision != AppealDecision.UPHELD and score_change_id is not None:
        raise ServiceError(msg("Only an upheld appeal causes a correction."), field="score_change_id")
    correction = _correction(appeal, score_change_id) if decision == AppealDecision.UPHELD else None
    with changes():
        appeal.decision = decision
        appeal.decision_text = text
        appeal.decided_by_id = user.id if user else None
        appeal.decided_at = utcnow()
        appeal.correction_id = correction
    return appeal
