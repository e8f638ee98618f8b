"""Sessions: drawing the next one, starting play, and the hands entered at its tables."""

from __future__ import annotations

from tournament import timezones
from tournament.extensions import db
from tournament.models import SEAT_WINDS, Tournament, TournamentSession
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle, schedule
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import DrawInSchema, EmptySchema, SessionSchema

SESSION = {"session": 1, "status": "draft", "seed": 20260516, "planned_start": "2026-05-16T10:00:00+03:00", "tables": [
    {"table": 1, "seats": [{"wind": "E", "player_id": 7}, {"wind": "S", "player_id": 2},
                           {"wind": "W", "player_id": 12}, {"wind": "N", "player_id": 5}]}]}

bp = api_blueprint("api_sessions", "Sessions: draw, start (its organisers).")


def session_json(session: TournamentSession) -> dict:
    t = db.session.get(Tournament, session.tournament_id)  # in the identity map: the route loaded it
    return {
        "session": session.number,
        "status": session.status,
        "seed": session.seed,
        "planned_start": timezones.iso_local(schedule.planned_start(t, session.number), t.time_zone),
        "tables": [
            {"table": number, "seats": [{"wind": wind, "player_id": player_id}
                                        for wind, player_id in zip(SEAT_WINDS, table, strict=True)]}
            for number, table in enumerate(session.tables(), start=1)
        ],
    }


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/draw", methods=["POST"])
@for_tournament("manage")
@bp.arguments(DrawInSchema, required=False, example={"seed": 20260516, "method": "balanced"})
@bp.response(201, SessionSchema, example=SESSION)
def draw(body: dict, t: Tournament, number: int):
    """Draw session `number`, which must be the next one, seating the players checked in as present
    (substitutes fill an incomplete table, one per table). Seats are listed E, S, W, N: the starting seats.
    `balanced` plans the remaining sessions with the played ones fixed and seats the first of them: no repeat
    opponents, teams or clubs apart, seat winds within floor/ceil of the sessions played. `swiss` seats by the
    standings: ranks 1-4 at table 1, 5-8 at table 2 ..."""
    draw_service.require_next(t, number)
    ranking = draw_service.swiss_ranking(t) if body.get("method") == "swiss" else None
    return session_json(draw_service.draw_next(t, seed=body.get("seed"), ranking=ranking, number=number,
                                              user=current_user()))


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/finish", methods=["POST"])
@for_tournament("manage")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, SessionSchema)
def finish(_: dict, t: Tournament, number: int):
    """Close a session in play after the session check: every table complete (or time called and the
    unplayed hands marked), scores summing to zero. A 409 lists the problems otherwise; finishing a finished
    session is still a 200."""
    return session_json(lifecycle.finish_session(t, number))


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>", methods=["GET"])
@for_tournament("referee")
@bp.response(200, SessionSchema)
def get_session(t: Tournament, number: int):
    """A drawn session's status and seating (its staff)."""
    return session_json(draw_service.get_session(t, number))
