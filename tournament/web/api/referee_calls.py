"""The referee calls log of a table (its staff): log a call, with its ruling, dead hand and penalty; list them."""

from __future__ import annotations

from tournament.models import Tournament
from tournament.services.play import referee_calls
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import RefereeCallInSchema, RefereeCallListSchema, RefereeCallSchema

bp = api_blueprint("api_referee_calls", "Referee calls: the log of each table (its staff).")

CALLS = "/tournaments/<int:tournament_id>/sessions/<int:number>/tables/<int:table>/calls"
NEW_CALL = {"hand": 7, "called_by": 2, "situation": "East claimed a discard after drawing from the wall",
            "ruling": "East's hand is dead for this hand", "dead_hand_player_id": 1,
            "penalty": {"player_id": 1, "amount": 0, "foul": "Wrong call"}}


@bp.route(CALLS, methods=["POST"])
@for_tournament("referee")
@bp.arguments(RefereeCallInSchema, example=NEW_CALL)
@bp.response(201, RefereeCallSchema)
def log_call(body: dict, t: Tournament, number: int, table: int):
    """Log a call at a table of the session in play. A dead hand declared here is refused as that player's win of
    the hand by score entry; a `penalty` (amount 0: a warning) is given with the call, as POST /penalties would."""
    penalty = body.get("penalty")
    data = referee_calls.CallData(
        situation=body["situation"], hand=body.get("hand"), called_by=body.get("called_by"),
        ruling=body.get("ruling") or "", dead_hand_player_id=body.get("dead_hand_player_id"),
        penalty=referee_calls.PenaltyData(penalty["player_id"], penalty["amount"], penalty.get("foul") or "")
        if penalty else None)
    return referee_calls.call_json(referee_calls.record_call(t, number, table, data, current_user()), number)


@bp.route(CALLS, methods=["GET"])
@for_tournament("referee")
@bp.response(200, RefereeCallListSchema)
def list_calls(t: Tournament, number: int, table: int):
    """The table's calls in the order they were made."""
    return {"calls": [referee_calls.call_json(c, number) for c in referee_calls.calls_at(t, number, table)]}
