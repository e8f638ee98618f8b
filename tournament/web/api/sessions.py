"""Sessions: drawing the next one, starting play, and the hands entered at its tables."""

from __future__ import annotations

from tournament import timezones
from tournament.extensions import db
from tournament.models import SEAT_WINDS, Tournament, TournamentSession
from tournament.services.seating import ahead, lifecycle, schedule
from tournament.services.seating import draws as draw_service
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import (
    DrawInSchema,
    DrawnSessionSchema,
    EmptySchema,
    PlanInSchema,
    PlanSchema,
    ReplanInSchema,
    ReplanSchema,
    SessionSchema,
)

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


def quality_json(t: Tournament, session: TournamentSession) -> dict:
    """What the draw of `session` could not avoid: pairs meeting again, tables seating members of one team
    (club), and whether every player's seat winds are within floor/ceil so far."""
    report = draw_service.quality(t, upto=session.number)
    here = {frozenset(table) for table in session.tables()}
    seated_together = {frozenset((a, b)) for table in here for a in table for b in table if a != b}
    return {
        "repeat_pairs": [[a, b, meetings] for a, b, meetings in report.repeated_pairs
                         if frozenset((a, b)) in seated_together],
        "teammate_tables": sorted({table + 1 for index, table, _group, _players in report.clashes
                                   if index == session.number - 1}),
        "winds_balanced": report.wind_balanced,
    }


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/draw", methods=["POST"])
@for_tournament("manage")
@bp.arguments(DrawInSchema, required=False, example={"seed": 20260516, "method": "swiss", "keep_apart": True})
@bp.response(201, DrawnSessionSchema, example={**SESSION, "quality": {"repeat_pairs": [], "teammate_tables": [],
                                                                      "winds_balanced": True}})
def draw(body: dict, t: Tournament, number: int):
    """Draw session `number`, which must be the next one, seating the players checked in as present
    (substitutes fill an incomplete table, one per table). Seats are listed E, S, W, N: the starting seats.
    `balanced` plans the remaining sessions with the played ones fixed and seats the first of them: no repeat
    opponents, teams or clubs apart (or, with the tournament's `draw_priority` `teams_first`, teams apart before
    repeats), seat winds within floor/ceil of the sessions played. `swiss` seats by the standings: ranks 1-4 at
    table 1, 5-8 at table 2 ...; players the standings rank equal (tie-breaks included) are ordered by a lot
    drawn from the recorded seed, never by name. With `keep_apart` the groups of four are then changed by swaps
    with the nearest groups so that no table seats teammates (the tournament's `draw_separation`) and as few as
    possible seat players who already met; without it the Swiss draw is strict (a final). A player with a fixed
    table plays at that table number whatever their rank: the group they are ranked in sits there. `quality`
    says what the draw could not avoid."""
    draw_service.require_next(t, number)
    swiss = draw_service.Swiss(keep_apart=bool(body.get("keep_apart"))) if body.get("method") == "swiss" else None
    session = draw_service.draw_next(t, seed=body.get("seed"), swiss=swiss, number=number, user=current_user())
    return {**session_json(session), "quality": quality_json(t, session)}


@bp.route("/tournaments/<int:tournament_id>/draws/plan", methods=["POST"])
@for_tournament("manage")
@bp.arguments(PlanInSchema, required=False, example={"seed": 20260516})
@bp.response(201, PlanSchema, example={"sessions": [SESSION]})
def plan(body: dict, t: Tournament):
    """Plan every session not yet started (the "Plan all sessions" button) from one recorded seed (random when
    left out), seating everyone registered or present: as few repeat opponents as possible, teams apart, seat
    winds balanced over the tournament. The sessions in play or finished are kept as they were; the others are
    drawn again, as drafts (`GET .../sessions/{n}` shows them). A session ahead with hands entered is a 400."""
    sessions = draw_service.plan_all(t, seed=(body or {}).get("seed"), user=current_user())
    return {"sessions": [session_json(s) for s in sessions]}


@bp.route("/tournaments/<int:tournament_id>/draws/replan", methods=["POST"])
@for_tournament("manage")
@bp.arguments(ReplanInSchema, required=False, example={"apply": False})
@bp.response(200, ReplanSchema, example={"sessions": [{"session": 3, "moved": [4, 9, 17]}], "moved": 3,
                                         "applied": False})
def replan(body: dict, t: Tournament):
    """The re-plan that searches for quality again, as an explicit action: a change of the field mends the
    sessions drawn ahead moving as few players as it must, which may leave repeats or teammates together; this
    re-plans them all (more players change table). Without `apply` (or false) it only says whom it would move
    in which session; with `apply` true it stores the re-plan, and `expected_moved` (the `moved` it was told)
    makes a re-plan that would now move another number a 409."""
    body = body or {}
    if body.get("apply"):
        done = ahead.apply_replan(t, body.get("expected_moved"), user=current_user())
    else:
        done = ahead.replan(t)
    return {"sessions": [{"session": s.number, "moved": moved} for s, moved in zip(done.sessions, done.moved,
                                                                                   strict=True)],
            "moved": done.total, "applied": bool(body.get("apply"))}


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
