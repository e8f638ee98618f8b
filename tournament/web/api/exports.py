"""Printouts and the EMA results file.

    GET /tournaments/{tid}/sessions/{n}/seating.pdf      seating by table and by name (any token once the
                                                         session is published; staff before)
    GET /tournaments/{tid}/sessions/{n}/score-sheets.pdf a score sheet per table (idem)
    GET /tournaments/{tid}/ema-results.csv               the EMA file (the tournament's staff)
    GET /tournaments/{tid}/ema-results/check             {"ok", "problems": [...], "warnings": [...]} (idem)
    GET /tournaments/{tid}/ema-results.xlsx              EMA's results workbook (the tournament's staff)
    GET /tournaments/{tid}/mers                          {"weight", "days", "players", "countries",
                                                         "substitutes_played", "countries_played",
                                                         "countries_ranked", ...} (idem)
    GET /tournaments/{tid}/ema-observer-report.pdf       the observer's draft report (idem)
    GET /tournaments/{tid}/rules-briefing.pdf            the rules the tournament plays by (any token)

The last three take optional query parameters: qualification (1/0: players had to qualify, +1 to the
weight), country (the host country, a code or a name; default the tournament's `country` setting, never a
guess) and place (the city; default the venue).
"""

from __future__ import annotations

from flask import abort, request
from marshmallow import Schema, fields

from tournament.models import Tournament
from tournament.services.documents import briefing, ema_pack
from tournament.services.documents import ema as ema_service
from tournament.services.documents import exports as export_service
from tournament.services.documents.exports import Document
from tournament.services.people import tournaments as tournament_service
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
    ok = fields.Boolean(required=True, metadata={"description": "No problem (warnings aside)."})
    problems = fields.List(fields.Nested(ProblemSchema), required=True)
    warnings = fields.List(fields.Nested(ProblemSchema), required=True, metadata={
        "description": "What to know before sending, nothing to fix: the MERS weight within one player or one "
                       "country of a band edge, countries of players who played but are not ranked."})


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
    """What to fix before sending the file: EMA numbers missing or malformed, players without a country, the
    host country not set, substitutes who played, sessions or tables unfinished, tables that do not sum to zero,
    and any value EMA's reader would take otherwise from the results workbook (read back as it reads it); and
    the warnings (the weight near a band edge)."""
    return ema_pack.check(t).as_json()


class MersSchema(Schema):
    weight = fields.Float(required=True)
    days = fields.Integer(required=True)
    players = fields.Integer(required=True, metadata={"description": "ranked players + substitutes who played (max 3)"})
    countries = fields.Integer(required=True, metadata={"description": "the countries the weight counts: "
                                                                        "`countries_played` (see countries_reason)"})
    qualification = fields.Boolean(required=True)
    ranked_players = fields.Integer(required=True)
    substitutes_played = fields.Integer(required=True, metadata={
        "description": "every substitute who played a hand: drawn, or come in during a session"})
    countries_played = fields.Integer(required=True, metadata={
        "description": "distinct countries of every player and substitute who played a hand"})
    countries_ranked = fields.Integer(required=True, metadata={
        "description": "distinct countries of the ranked players (the players in the EMA file)"})
    countries_counted = fields.String(required=True, metadata={
        "description": "which of the two the weight uses: `countries_played`"})
    countries_reason = fields.String(required=True, metadata={"description": "why, citing MERS"})
    parts = fields.Dict(keys=fields.String(), values=fields.Float(), required=True)
    start_date = fields.String(allow_none=True)
    end_date = fields.String(allow_none=True)
    source = fields.String(required=True)


PACK_PARAMETERS = [
    {"in": "query", "name": "qualification", "schema": {"type": "string", "enum": ["0", "1", "true", "false"]},
     "description": "Players had to qualify (+1 to the weight)."},
    {"in": "query", "name": "country", "schema": {"type": "string", "minLength": 1, "maxLength": 100},
     "description": "The host country for this file only: a code (`NED`, `NL`, `NLD`) or its name (default: the "
                    "tournament's `country` setting; none when that is unset). A country not known so is a 400 "
                    "naming `country`."},
    {"in": "query", "name": "place", "schema": {"type": "string"}, "description": "The city (default: the venue)."},
]


def _pack_options() -> dict:
    """The query parameters the EMA pack routes share; a bad value is a 400 naming it."""
    return {"qualification": ema_pack.parse_flag(request.args.get("qualification"), "qualification"),
            "country": request.args.get("country"), "place": request.args.get("place")}


@bp.route("/tournaments/<int:tournament_id>/ema-results.xlsx", methods=["GET"])
@for_tournament("referee")
@bp.doc(parameters=PACK_PARAMETERS, responses={"200": {
    "description": "EMA's results workbook: the tournament in row 3, a row per ranked player from row 2.",
    "content": {ema_pack.XLSX_MIMETYPE: {"schema": {"type": "string", "format": "binary"}}}}})
def ema_results_workbook(t: Tournament):
    """The ranked players in standings order and the tournament's header, laid out as EMA's results workbook."""
    return send(ema_pack.results_workbook(t, **_pack_options()), attachment=True)


@bp.route("/tournaments/<int:tournament_id>/mers", methods=["GET"])
@for_tournament("referee")
@bp.doc(parameters=PACK_PARAMETERS[:1])
@bp.response(200, MersSchema)
def mers_weight(t: Tournament):
    """The tournament's MERS weight as EMA's "Basics for ranking system" page defines it: days, players,
    countries and qualification."""
    return ema_pack.mers(t, _pack_options()["qualification"]).as_json()


@bp.route("/tournaments/<int:tournament_id>/ema-observer-report.pdf", methods=["GET"])
@for_tournament("referee")
@bp.doc(parameters=PACK_PARAMETERS, responses=PDF_RESPONSE)
def ema_observer_report(t: Tournament):
    """The observer's draft report: tournament, dates, rules, weight, sessions, players by country."""
    return send(ema_pack.observer_report(t, **_pack_options()))


@bp.route("/tournaments/<int:tournament_id>/rules-briefing.pdf", methods=["GET"])
@for_tournament()
@bp.doc(responses={"200": {"description": "A PDF; a copy is also saved under the export folder.",
                           "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}}}})
def rules_briefing(t: Tournament):
    """A printable sheet of the readings the tournament plays by, in its language, for the players' briefing:
    scoring and false mahjong amounts, the engine's readings of unclear Green Book rules for its ruleset, time,
    table points and ranking, penalties (MERS 2.2, 3.1, 3.6), substitutes (MERS 4) and appeals."""
    return send(briefing.briefing_pdf(t))
