"""The referee calls log of each table (issue 20): every call with what happened and what the referee ruled.

A call feeds the other records instead of copying them: a dead hand ruled at a call is enforced by score entry
(that player cannot win that hand, `check_not_dead`), and a penalty (or a warning) given at a call is an
ordinary penalty (`services.play.penalties`, with its ladder and history), linked back to the call. A ruling on a
hand's points is recorded on the hand itself (its correction's `ruled_points` and `ruling`); the call keeps
the words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from tournament.constants import is_id, is_int
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import (
    HANDS_PER_SESSION,
    Hand,
    Player,
    RefereeCall,
    Tournament,
    TournamentSession,
    User,
)
from tournament.services.core.db import changes
from tournament.services.core.errors import ServiceError
from tournament.services.play import penalties
from tournament.services.play import session as play
from tournament.text import control_refusal

MAX_TEXT = 500


@dataclass(frozen=True)
class PenaltyData:
    """A penalty (amount 0: a warning) given at the call, to a player of the table."""

    player_id: Any
    amount: Any
    foul: Any = ""


@dataclass(frozen=True)
class CallData:
    situation: Any                     # what happened, as the referee heard it
    hand: Any = None                   # the hand it happened in (1-16), if in one
    called_by: Any = None              # the player who called the referee
    ruling: Any = ""                   # what the referee decided
    dead_hand_player_id: Any = None    # whose hand the referee declared dead for that hand
    penalty: PenaltyData | None = None


def _text(value: Any, field: str, required: bool) -> str:
    text = value.strip() if isinstance(value, str) else ("" if value is None else value)
    if not isinstance(text, str):
        raise ServiceError(msg("Give a text."), field=field)
    if required and not text:
        raise ServiceError(msg("Say what happened: the head referee reads the log."), field=field)
    if len(text) > MAX_TEXT:
        raise ServiceError(msg("At most %(max_text)s characters.", max_text=MAX_TEXT), field=field)
    if problem := control_refusal(text, msg("what happened") if field == "situation" else msg("the ruling")):
        raise ServiceError(problem, field=field)
    return text


def _at_table(session: TournamentSession, table_number: int, player_id: Any, field: str) -> int | None:
    if player_id is None or player_id == "":
        return None
    if not is_id(player_id):
        raise ServiceError(msg("Choose a player of this table."), field=field)
    everyone = {sp.player_id for sp in play.table_players(session, table_number)}
    everyone |= {s.in_player_id for s in play.substitutions_at(session, table_number)}
    if player_id not in everyone:
        raise ServiceError(msg("Choose a player of this table."), field=field)
    return player_id


def record_call(t: Tournament, session_number: int, table_number: int, data: CallData, user: User | None) -> RefereeCall:
    """Log a call at a table of a session in play, with its penalty if one was given (one transaction)."""
    session = play.get_session(t, session_number)
    play.table_players(session, table_number)  # 404 for a table the session does not have
    play.require_in_play(session)
    hand = data.hand if data.hand not in (None, "") else None
    if hand is not None and (not is_int(hand) or not 1 <= hand <= HANDS_PER_SESSION):
        raise ServiceError(msg("The hand is 1 to %(hands_per_session)s, or none.", hands_per_session=HANDS_PER_SESSION), field="hand")
    situation = _text(data.situation, "situation", required=True)
    ruling = _text(data.ruling, "ruling", required=False)
    called_by = _at_table(session, table_number, data.called_by, "called_by")
    dead = _at_table(session, table_number, data.dead_hand_player_id, "dead_hand_player_id")
    if dead is not None and hand is None:
        raise ServiceError(msg("A dead hand is declared in a hand: give the hand's number."), field="hand")
    if dead is not None and db.session.scalar(select(Hand.id).where(
            Hand.session_id == session.id, Hand.table_number == table_number, Hand.number == hand,
            Hand.winner_id == dead)) is not None:
        raise ServiceError(msg("Hand %(hand)s is entered as this player's win: correct the hand first.", hand=hand),
                           field="dead_hand_player_id")
    penalty = None
    if data.penalty is not None:
        _at_table(session, table_number, data.penalty.player_id, "penalty.player_id")
        penalty = penalties.give_penalty(t, player_id=data.penalty.player_id, session_number=session_number,
                                         amount=data.penalty.amount, foul=data.penalty.foul or "",
                                         reason=ruling or situation, user=user, hand_number=hand)
    with changes():
        call = RefereeCall(tournament_id=t.id, session_id=session.id, table_number=table_number, hand_number=hand,
                           called_by_player_id=called_by, situation=situation, ruling=ruling,
                           dead_hand_player_id=dead, penalty_id=penalty.id if penalty else None,
                           created_by_id=user.id if user else None)
        db.session.add(call)
    return call


def calls_at(t: Tournament, session_number: int, table_number: int | None = None) -> list[RefereeCall]:
    """The calls of a session (or of one table), in the order they were made."""
    session = play.get_session(t, session_number)
    query = select(RefereeCall).where(RefereeCall.session_id == session.id)
    if table_number is not None:
        play.table_players(session, table_number)
        query = query.where(RefereeCall.table_number == table_number)
    return list(db.session.scalars(query.order_by(RefereeCall.created_at, RefereeCall.id)))


def check_not_dead(session: TournamentSession, table_number: int, hand_number: int, winner_id: int | None) -> None:
    """Score entry's check: a player whose hand a referee declared dead in this hand cannot win it."""
    if winner_id is None:
        return
    call = db.session.scalar(select(RefereeCall).where(
        RefereeCall.session_id == session.id, RefereeCall.table_number == table_number,
        RefereeCall.hand_number == hand_number, RefereeCall.dead_hand_player_id == winner_id))
    if call is not None:
        name = db.session.get(Player, winner_id).full_name
        raise ServiceError(msg("The referee declared %(name)s's hand dead in hand %(hand_number)s (call of %(time)s: %(ruling)s): "
                               "they cannot win it.", name=name, hand_number=hand_number,
                               time=f"{call.created_at:%H:%M}", ruling=call.ruling or call.situation),
                           field="winner_id")


def call_json(call: RefereeCall, session_number: int) -> dict[str, Any]:
    return {
        "id": call.id, "session": session_number, "table": call.table_number, "hand": call.hand_number,
        "called_by": call.called_by_player_id, "situation": call.situation, "ruling": call.ruling,
        "dead_hand_player_id": call.dead_hand_player_id, "penalty_id": call.penalty_id,
        "created_at": call.created_at.isoformat() + "Z", "created_by": call.created_by_name,
    }
