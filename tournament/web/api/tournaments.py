"""The token's user and tournaments."""

from __future__ import annotations

from dataclasses import fields

from flask import abort

from tournament.models import Tournament
from tournament.services.people import tournaments as tournament_service
from tournament.services.people.tournaments import TournamentData
from tournament.services.seating import draws as draw_service
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import TournamentInSchema, TournamentListSchema, TournamentSchema, UserSchema

NEW_TOURNAMENT = {"name": "Helsinki Open 2026", "venue": "Kalasatama", "country": "FIN", "start_date": "2026-05-16",
                  "end_date": "2026-05-17", "session_count": 7, "session_minutes": 120,
                  "time_zone": "Europe/Helsinki"}
TOURNAMENT = {"id": 1, **NEW_TOURNAMENT, "ruleset": "ema", "end_rule": "finish_hand", "warning_minutes": 15,
              "appeal_minutes": 30,
              "false_mahjong_under_minimum": 10, "false_mahjong_not_winning": 20, "table_points": [4, 2, 1, 0],
              "tie_breaks": ["firsts", "best_session"], "draw_separation": "team", "draw_priority": "repeats_first", "entry_mode": "referee",
              "penalties_affect_table_points": True, "foul_types": ["Late arrival", "Slow play", "Other"],
              "language": "en", "version": 1}

bp = api_blueprint("api_tournaments", "Your account and tournaments.")


def tournament_json(t: Tournament) -> dict:
    return {
        "id": t.id,
        "name": t.name,
        "venue": t.venue,
        "country": t.country,
        "start_date": t.start_date,
        "end_date": t.end_date,
        "ruleset": t.ruleset,
        "session_count": t.session_count,
        "session_minutes": t.session_minutes,
        "end_rule": t.end_rule,
        "warning_minutes": t.warning_minutes,
        "appeal_minutes": t.appeal_minutes,
        "false_mahjong_under_minimum": t.false_mahjong_under_minimum,
        "false_mahjong_not_winning": t.false_mahjong_not_winning,
        "table_points": t.table_points_list,
        "tie_breaks": t.tie_break_list,
        "draw_separation": t.draw_separation,
        "draw_priority": t.draw_priority,
        "entry_mode": t.entry_mode,
        "penalties_affect_table_points": t.penalties_affect_table_points,
        "foul_types": t.foul_type_list,
        "time_zone": t.time_zone,
        "language": t.language,
        "version": t.version,
    }


@bp.route("/me", methods=["GET"])
@bp.response(200, UserSchema)
def me():
    """The account the token belongs to."""
    return current_user()


@bp.route("/tournaments", methods=["GET"])
@bp.response(200, TournamentListSchema)
def list_tournaments():
    """Every tournament (public data)."""
    return {"tournaments": [tournament_json(t) for t in tournament_service.list_tournaments()]}


@bp.route("/tournaments/<int:tournament_id>", methods=["GET"])
@for_tournament()
@bp.response(200, TournamentSchema, example=TOURNAMENT)
def get_tournament(t: Tournament):
    """One tournament."""
    return tournament_json(t)


@bp.route("/tournaments", methods=["POST"])
@bp.arguments(TournamentInSchema, example=NEW_TOURNAMENT)
@bp.response(201, TournamentSchema, example=TOURNAMENT)
def create_tournament(body: dict):
    """Create a tournament (organisers); the creator becomes one of its organisers. Omitted settings take
    the defaults (7 sessions of 120 minutes, ruleset ema, table points 4-2-1-0, ...)."""
    user = current_user()
    if not user.is_organiser:
        abort(403, "Only organisers create tournaments.")
    known = {f.name for f in fields(TournamentData)}
    values = {key: value for key, value in body.items() if key in known}
    for key in ("table_points", "tie_breaks", "foul_types"):
        if key in values:
            values[key] = tuple(values[key])
    t = tournament_service.create_tournament(user, TournamentData(**values))
    # Who the draws keep apart is a draw setting (the draws page changes it too), not a TournamentData field.
    draw_service.set_separation(t, body.get("draw_separation", "team"))
    return tournament_json(t)
