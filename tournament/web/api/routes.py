"""JSON API, authenticated with per-user Bearer tokens.

    GET   /api/v1/me                    the token's user
    GET   /api/v1/tournaments           all tournaments (public data)
    GET   /api/v1/tournaments/<id>      one tournament
    POST  /api/v1/tournaments           create (organisers)
"""

from __future__ import annotations

from datetime import date

from flask import Blueprint, abort, g, jsonify, request

from tournament.extensions import csrf
from tournament.models import Tournament
from tournament.services import PermissionDenied, ServiceError
from tournament.services import tournaments as tournament_service
from tournament.services.tournaments import TournamentData
from tournament.web.api.auth import token_required
from tournament.web.helpers import tournament_or_404

bp = Blueprint("api", __name__, url_prefix="/api/v1")
csrf.exempt(bp)


def tournament_json(t: Tournament) -> dict:
    return {
        "id": t.id,
        "name": t.name,
        "venue": t.venue,
        "start_date": t.start_date.isoformat() if t.start_date else None,
        "end_date": t.end_date.isoformat() if t.end_date else None,
        "ruleset": t.ruleset,
        "session_count": t.session_count,
        "session_minutes": t.session_minutes,
        "end_rule": t.end_rule,
        "false_mahjong_under_minimum": t.false_mahjong_under_minimum,
        "false_mahjong_not_winning": t.false_mahjong_not_winning,
        "table_points": t.table_points_list,
        "tie_breaks": t.tie_break_list,
        "version": t.version,
    }


@bp.errorhandler(ServiceError)
def service_error(exc: ServiceError):
    body = {"error": exc.message, "status": exc.status_code}
    if exc.errors:
        body["fields"] = exc.errors
    return jsonify(body), exc.status_code


@bp.route("/me")
@token_required
def me():
    user = g.api_user
    return jsonify({"id": user.id, "email": user.email, "name": user.name, "role": user.role})


@bp.route("/tournaments")
@token_required
def list_tournaments():
    return jsonify({"tournaments": [tournament_json(t) for t in tournament_service.list_tournaments()]})


@bp.route("/tournaments/<int:tournament_id>")
@token_required
def get_tournament(tournament_id: int):
    return jsonify(tournament_json(tournament_or_404(tournament_id)))


def _date(body: dict, key: str) -> date | None:
    value = body.get(key)
    if value in (None, ""):
        return None
    try:
        return date.fromisoformat(str(value))
    except ValueError as exc:
        raise ServiceError(f"{key} must be a date like 2026-05-30.", field=key) from exc


@bp.route("/tournaments", methods=["POST"])
@token_required
def create_tournament():
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        abort(400, "Send a JSON object.")
    defaults = TournamentData(name="")
    try:
        data = TournamentData(
            name=str(body.get("name", "")),
            venue=str(body.get("venue", "")),
            start_date=_date(body, "start_date"),
            end_date=_date(body, "end_date"),
            ruleset=body.get("ruleset", defaults.ruleset),
            session_count=body.get("session_count", defaults.session_count),
            session_minutes=body.get("session_minutes", defaults.session_minutes),
            end_rule=body.get("end_rule", defaults.end_rule),
            false_mahjong_under_minimum=body.get("false_mahjong_under_minimum", defaults.false_mahjong_under_minimum),
            false_mahjong_not_winning=body.get("false_mahjong_not_winning", defaults.false_mahjong_not_winning),
            table_points=tuple(body.get("table_points", defaults.table_points)),
            tie_breaks=tuple(body.get("tie_breaks", defaults.tie_breaks)),
        )
    except TypeError as exc:
        raise ServiceError("table_points and tie_breaks must be lists.") from exc
    if not g.api_user.is_organiser:
        raise PermissionDenied("Only organisers create tournaments.")
    t = tournament_service.create_tournament(g.api_user, data)
    return jsonify(tournament_json(t)), 201
