"""Referee penalties (GB 3.11.2, MERS 3.1): deducted from the offender only, counted in the session score.

A penalty of 0 points is a warning: recorded like any penalty, it changes no score. Each penalty names a foul
from the tournament's list; MERS 3.1's ladder (warning, 5, 10, 20, 30 ...) counts a player's earlier fouls of
the same type in the same session, and `suggested_amount` gives the next rung, which the referee may overrule.
MERS 3.6: "The penalty count (for all players) is reset at the start of every session, except when a player has
been warned or penalized for obstruction or stalling for time": a foul of slow play, stalling or obstruction
(`carries_over`, by its name) counts the player's earlier ones of every session before too.

A penalty is never deleted: cancelling keeps it, with who cancelled it, when and why.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from tournament.constants import is_id, is_int
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import (
    HANDS_PER_SESSION,
    Penalty,
    Player,
    ScoreAction,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.play import session as play
from tournament.services.play.score_changes import record_score_change
from tournament.text import control_refusal

MAX_PENALTY = 1000
MAX_REASON = 500
LADDER = (0, 5, 10, 20, 30, 40, 50, 60)  # MERS 3.1: warning -> 5 -> 10 -> 20 -> 30 -> et cetera



def _reason(text: Any, field: str) -> str:
    if not isinstance(text, str) or not text.strip():
        raise ServiceError(msg("Say why: the reason is kept with the penalty."), field=field)
    if problem := control_refusal(text.strip(), msg("the reason")):
        raise ServiceError(problem, field=field)
    text = " ".join(text.split())
    if len(text) > MAX_REASON or "\x00" in text:
        raise ServiceError(msg("The reason is at most %(max_reason)s characters of text.", max_reason=MAX_REASON), field=field)
    return text


def penalty_json(p: Penalty) -> dict[str, Any]:
    return {
        "id": p.id,
        "player_id": p.player_id,
        "session": p.session.number,
        "hand": p.hand_number,
        "amount": p.amount,
        "warning": p.amount == 0,
        "foul": p.foul or None,
        "reason": p.reason,
        "given_by": p.given_by_name or None,
        "given_at": p.given_at.isoformat() + "Z",
        "cancelled": p.is_cancelled,
        "cancelled_at": p.cancelled_at.isoformat() + "Z" if p.cancelled_at else None,
        "cancel_reason": p.cancel_reason or None,
    }


# The fouls MERS 3.6 carries across sessions, by a word of their name: stalling for time (the default list's
# "Slow play") and obstruction, in the app's languages (a tournament's own foul list may be in its language).
CARRIED_FOUL_WORDS = ("slow play", "stall", "obstruct", "hidas peli", "viivyt", "långsamt spel", "förhal",
                      "obstruk", "juego lento", "dilat", "obstruc", "拖延", "慢", "阻碍", "妨碍")


def carries_over(foul: str | None) -> bool:
    """Whether the ladder counts this foul across sessions (MERS 3.6: obstruction, stalling for time)."""
    name = (foul or "").casefold()
    return any(word in name for word in CARRIED_FOUL_WORDS)


def suggested_amount(earlier: list[Penalty], player_id: int, foul: str) -> int:
    """The ladder's next rung for this player's foul, from the penalties that count (`ladder_suggestions`)."""
    count = sum(1 for p in earlier if p.player_id == player_id and p.foul == foul and not p.is_cancelled)
    return LADDER[min(count, len(LADDER) - 1)]


def ladder_suggestions(t: Tournament, session_id: int) -> dict[str, int]:
    """"player id|foul" -> the next rung, for every player with a foul that counts in the session (others start
    with a warning): what the penalty form pre-fills. The session's own penalties count, and for the fouls
    `carries_over` names (MERS 3.6) those of the sessions before it too."""
    numbers = dict(db.session.execute(select(TournamentSession.id, TournamentSession.number)
                                      .where(TournamentSession.tournament_id == t.id)).all())
    current = numbers.get(session_id, 0)
    counted = [p for p in penalties_of(t) if p.session_id == session_id
               or (carries_over(p.foul) and numbers.get(p.session_id, 0) < current)]
    return {f"{p.player_id}|{p.foul}": suggested_amount(counted, p.player_id, p.foul) for p in counted if p.foul}


def foul_history(t: Tournament) -> dict[int, list[Penalty]]:
    """Every player's penalties and warnings, oldest first (cancelled ones too, marked)."""
    history: dict[int, list[Penalty]] = {}
    for p in penalties_of(t):
        history.setdefault(p.player_id, []).append(p)
    return history


def _foul(t: Tournament, foul: Any) -> str:
    if foul is None or foul == "":
        return ""
    if not isinstance(foul, str) or foul not in t.foul_type_list:
        raise ServiceError(msg("Choose a foul of this tournament: %(fouls)s.", fouls=", ".join(t.foul_type_list)), field="foul")
    return foul


def give_penalty(t: Tournament, *, player_id: Any, session_number: Any, amount: Any, reason: Any,
                 user: User | None, hand_number: Any = None, foul: Any = "") -> Penalty:
    if not is_int(session_number):
        raise ServiceError(msg("Give the session number."), field="session")
    session = play.get_session(t, session_number)
    if not is_int(player_id):
        raise ServiceError(msg("Choose the player."), field="player_id")
    player = db.session.get(Player, player_id)
    if player is None or player.tournament_id != t.id:
        raise ServiceError(msg("Choose a player of this tournament."), field="player_id")
    if not any(seat.player_id == player_id for seat in session.seats):
        raise ServiceError(msg("%(name)s does not play in session %(number)s.", name=player.full_name, number=session.number), field="player_id")
    if not is_int(amount) or not 0 <= amount <= MAX_PENALTY:
        raise ServiceError(msg("The penalty is a whole number of points, 0 (a warning) to "
                               "%(max_penalty)s.", max_penalty=MAX_PENALTY),
                           field="amount")
    foul = _foul(t, foul)
    if hand_number is not None and (not is_int(hand_number) or not 1 <= hand_number <= HANDS_PER_SESSION):
        raise ServiceError(msg("The hand is 1 to %(hands_per_session)s, or none.", hands_per_session=HANDS_PER_SESSION), field="hand")
    text = _reason(reason, "reason")
    with changes():
        penalty = Penalty(tournament_id=t.id, session_id=session.id, player_id=player_id, hand_number=hand_number,
                          amount=amount, foul=foul, reason=text, given_by_id=user.id if user else None)
        db.session.add(penalty)
        db.session.flush()
        record_score_change(session.id, _table_of(session, player_id), hand_number, ScoreAction.PENALTY_GIVEN, user,
                            before=None, after=penalty_json(penalty))
    return penalty


def _table_of(session, player_id: int) -> int | None:
    return next((s.table_number for s in session.seats if s.player_id == player_id), None)


def get_penalty(t: Tournament, penalty_id: Any) -> Penalty:
    penalty = db.session.get(Penalty, penalty_id) if is_id(penalty_id) else None
    if penalty is None or penalty.tournament_id != t.id:
        raise NotFound(msg("No such penalty in this tournament."))
    return penalty


def cancel_penalty(t: Tournament, penalty_id: Any, reason: Any, user: User | None) -> Penalty:
    penalty = get_penalty(t, penalty_id)
    # Two screens cancelling at once take turns on the row; the second sees the first's cancellation.
    db.session.refresh(penalty, with_for_update=True)
    if penalty.is_cancelled:
        raise ConflictError(msg("This penalty was already cancelled."))
    text = _reason(reason, "reason")
    before = penalty_json(penalty)
    with changes():
        penalty.cancelled_at = utcnow()
        penalty.cancelled_by_id = user.id if user else None
        penalty.cancel_reason = text
        db.session.flush()
        record_score_change(penalty.session_id, _table_of(penalty.session, penalty.player_id), penalty.hand_number,
                            ScoreAction.PENALTY_CANCELLED, user, before=before, after=penalty_json(penalty))
    return penalty


def penalties_of(t: Tournament, session_number: int | None = None) -> list[Penalty]:
    query = select(Penalty).where(Penalty.tournament_id == t.id)
    if session_number is not None:
        query = query.where(Penalty.session_id == play.get_session(t, session_number).id)
    return list(db.session.scalars(query.order_by(Penalty.given_at, Penalty.id)))
