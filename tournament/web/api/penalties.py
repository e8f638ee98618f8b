"""Referee penalties (its staff)."""

from __future__ import annotations

from tournament.models import Tournament
from tournament.services.play import penalties as penalty_service
from tournament.services.play.penalties import penalty_json
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import CancelPenaltyInSchema, PenaltyInSchema, PenaltySchema

NEW_PENALTY = {"player_id": 3, "session": 2, "amount": 10, "reason": "Tiles shown before the hand ended.",
               "hand": 5, "foul": "Exposed or dropped tiles"}
PENALTY = {"id": 1, **NEW_PENALTY, "warning": False, "given_by": "Referee Rui", "given_at": "2026-05-16T11:42:07Z",
           "cancelled": False, "cancelled_at": None, "cancel_reason": None}

bp = api_blueprint("api_penalties", "Referee penalties (its staff).")


@bp.route("/tournaments/<int:tournament_id>/penalties", methods=["POST"])
@for_tournament("referee")
@bp.arguments(PenaltyInSchema, example=NEW_PENALTY)
@bp.response(201, PenaltySchema, example=PENALTY)
def give(body: dict, t: Tournament):
    """Give a penalty: `amount` points deducted from the player's score in that session; 0 records a warning
    (MERS 3.1: warning, 5, 10, 20 ... for the same foul in a session)."""
    penalty = penalty_service.give_penalty(
        t, player_id=body["player_id"], session_number=body["session"], amount=body["amount"],
        reason=body["reason"], user=current_user(), hand_number=body.get("hand"), foul=body.get("foul") or "",
    )
    return penalty_json(penalty)


@bp.route("/tournaments/<int:tournament_id>/penalties/<int:penalty_id>", methods=["DELETE"])
@for_tournament("referee")
@bp.arguments(CancelPenaltyInSchema, example={"reason": "Given to the wrong player."})
@bp.response(200, PenaltySchema)
def cancel(body: dict, t: Tournament, penalty_id: int):
    """Cancel a penalty, with a reason: it is kept, shown struck through, and no longer deducted."""
    return penalty_json(penalty_service.cancel_penalty(t, penalty_id, body["reason"], current_user()))
