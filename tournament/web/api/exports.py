"""Printouts and the EMA results file.

    GET /tournaments/{tid}/sessions/{n}/seating.pdf      seating by table and by name (any token once the
                                                         session is published; staff before)
    GET /tournaments/{tid}/sessions/{n}/score-sheets.pdf a score sheet per table (idem)
    GET /tournaments/{tid}/ema-results.csv               the EMA file (the tournament's staff)
    GET /tournaments/{tid}/ema-results/check             {"ok", "problems": [...]} (the tournament's staff)
"""

from __future__ import annotations

from flask import abort
from marshmallow import Schema, fields

from tournament.models import Tournament
from tournament.services import ema as ema_service
from tournament.services import exports as export_service
from tournament.services import tournaments as tournament_service
from tournament.services.exports import Document
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.exports.routes import send

bp = api_blueprint("api_exports", "Printouts (seating, score sheets) and the EMA results file.")

PDF_RESPONSE = {"200": {
    "description": "A PDF; a copy is also saved under the export folder.",
    "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
}}


class ProblemSchema(Schema):
    message = fields.String(required=True)
    player_id = fields.Integer()
    table = fields.Integer()
    session = fields.Integer()


class EmaCheckSchema(Schema):
    ok = fields.Boolean(required=True)
    problems = fields.List(fields.Nested(ProblemSchema), required=True)


def _visible_session(t: Tournament, number: int) -> None:
    """A draft seating may still change: the staff only. 404 for a session not drawn."""
    session = export_service.drawn_session(t, number)
    if not session.is_published and not tournament_service.can_referee(current_user(), t):
        abort(404, f"Session {number} has not been published yet.")


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/seating.pdf", methods=["GET"])
@for_tournament()
@bp.doc(responses=PDF_RESPONSE)
def seating_pdf(t: Tournament, number: int):
    """The seating of a session: by table (East, South, West, North), then every player alphabetically."""
    _visible_session(t, number)
    return send(export_service.seating_pdf(t, number))


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/score-sheets.pdf", methods=["GET"])
@for_tournament()
@bp.doc(responses=PDF_RESPONSE)
def score_sheets_pdf(t: Tournament, number: int):
    """A page per table: the players, their seat wind in each of the 16 hands, boxes for winner, discarder,
    fans, points and running scores, and signature lines."""
    _visible_session(t, number)
    return send(export_service.score_sheets_pdf(t, number))


@bp.route("/tournaments/<int:tournament_id>/ema-results.csv", methods=["GET"])
@for_tournament("referee")
@bp.doc(responses={"200": {"description": "Place,First Name,Last Name,EMA number,Table points,Score,Country",
                           "content": {"text/csv": {"schema": {"type": "string"}}}}})
def ema_results(t: Tournament):
    """The ranked players in standings order, as the EMA takes them."""
    text = ema_service.ema_csv(ema_service.ema_rows(t))
    return send(Document(text.encode("utf-8"), f"ema-results-{t.id}.csv", "text/csv"), attachment=True)


@bp.route("/tournaments/<int:tournament_id>/ema-results/check", methods=["GET"])
@for_tournament("referee")
@bp.response(200, EmaCheckSchema)
def ema_check(t: Tournament):
    """What to fix before sending the file: EMA numbers missing or malformed, substitutes who played,
    sessions or tables unfinished, tables that do not sum to zero."""
    problems = ema_service.check(t)
    return {"ok": not problems, "problems": [p.as_json() for p in problems]}
