"""Starting a session and the hands of its tables (score entry by its staff)."""

from __future__ import annotations

from typing import Any

from tournament.models import Tournament
from tournament.services.play import scoring
from tournament.services.play.scoring import FalseMahjongData, HandData
from tournament.services.seating import lifecycle
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import (
    EmptySchema,
    HandCorrectionInSchema,
    HandInSchema,
    HandListSchema,
    HandSchema,
    SessionSchema,
    VersionInSchema,
)
from tournament.web.api.sessions import session_json

bp = api_blueprint("api_hands", "Play: starting a session (its organisers) and score entry (its staff).")

# A discard win at table 1 of session 1: East (player 1) wins on South's (player 2) discard with a Pure
# Straight and two flowers; the engine adds the fans and the payments.
NEW_HAND = {"number": 1, "result": "win", "winner_id": 1, "discarder_id": 2, "hand": "123456789m123s5p5p",
            "flowers": 2}
HAND = {"id": 1, **NEW_HAND, "self_drawn": False, "last_tile": False, "wall_last": False, "kong": False,
        "fans": [{"name": "Pure Straight", "points": 16, "count": 1}, {"name": "Concealed Hand", "points": 2,
                 "count": 1}, {"name": "All Chows", "points": 2, "count": 1},
                 {"name": "Mixed Double Chow", "points": 1, "count": 1}, {"name": "Single Wait", "points": 1,
                 "count": 1}, {"name": "Flower Tiles", "points": 1, "count": 2}],
        "fan_points": 22, "total": 24, "payments": {"1": 48, "2": -32, "3": -8, "4": -8}, "false_mahjongs": [],
        "version": 1, "status": "pending", "confirmed_by": []}

TABLE = "/tournaments/<int:tournament_id>/sessions/<int:number>/tables/<int:table>"


def hand_data(body: dict[str, Any], number: int) -> HandData:
    return HandData(
        number=number,
        result=body["result"],
        winner_id=body.get("winner_id"),
        discarder_id=body.get("discarder_id"),
        hand=body.get("hand"),
        flowers=body.get("flowers", 0),
        last_tile=body.get("last_tile", False),
        wall_last=body.get("wall_last", False),
        kong=body.get("kong", False),
        false_mahjongs=tuple(
            FalseMahjongData(player_id=fm["player_id"], hand=fm.get("hand"), kind=fm.get("kind"),
                             **{flag: fm.get(flag, False) for flag in ("self_drawn", "last_tile", "wall_last", "kong")})
            for fm in body.get("false_mahjongs") or ()
        ),
        ruled_points=body.get("ruled_points"),
        ruling=body.get("ruling") or "",
    )


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/start", methods=["POST"])
@for_tournament("manage")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, SessionSchema)
def start(_: dict, t: Tournament, number: int):
    """Start play: the session is published if needed, then in play, and its seating fixed. Starting a
    session already in play is still a 200; a finished one is a 409."""
    return session_json(lifecycle.start_session(t, number))


@bp.route(f"{TABLE}/hands", methods=["GET"])
@for_tournament("referee")
@bp.response(200, HandListSchema)
def list_hands(t: Tournament, number: int, table: int):
    """The hands entered at a table, in hand order."""
    return {"hands": [scoring.hand_answer(h) for h in scoring.table_hands(t, number, table)]}


@bp.route(f"{TABLE}/hands", methods=["POST"])
@for_tournament("referee")
@bp.arguments(HandInSchema, example=NEW_HAND)
@bp.response(201, HandSchema, example=HAND)
def enter_hand(body: dict, t: Tournament, number: int, table: int):
    """Enter a hand: a win (checked by the fan engine: no win or under 8 points is a 422 and nothing is
    stored) or a draw, with any false mahjongs. Seat and prevalent winds come from the hand number and the
    draw. A hand number already entered at the table is a 409."""
    hand = scoring.enter_hand(t, number, table, hand_data(body, body["number"]), current_user())
    return scoring.hand_answer(hand)


@bp.route(f"{TABLE}/hands/<int:hand_number>", methods=["PUT"])
@for_tournament("referee")
@bp.arguments(HandCorrectionInSchema)
@bp.response(200, HandSchema)
def correct_hand(body: dict, t: Tournament, number: int, table: int, hand_number: int):
    """Correct a hand (kept in the history). Send the hand's `version` to refuse, with a 409, a correction
    made from a stale copy."""
    data = hand_data(body, body.get("number", hand_number))
    hand = scoring.correct_hand(t, number, table, hand_number, data, current_user(),
                                expected_version=body.get("version"))
    return scoring.hand_answer(hand)


@bp.route(f"{TABLE}/hands/<int:hand_number>", methods=["DELETE"])
@for_tournament("referee")
@bp.arguments(VersionInSchema, required=False)
@bp.response(204)
def delete_hand(body: dict, t: Tournament, number: int, table: int, hand_number: int):
    """Delete a hand (kept in the history)."""
    scoring.delete_hand(t, number, table, hand_number, current_user(), expected_version=body.get("version"))
    return None
