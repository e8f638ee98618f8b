"""Standings, as JSON and as the PDF."""

from __future__ import annotations

from fractions import Fraction

from flask import Response, abort, current_app

from tournament.models import Tournament
from tournament.services.documents import exports as export_service
from tournament.services.results import standings as standings_service
from tournament.services.results.visibility import HIDDEN_MESSAGE, standings_visible_to
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import StandingsSchema
from tournament.web.exports.routes import send

STANDINGS = {"rows": [
    {"rank": 1, "player_id": 7, "name": "Aino Virtanen", "country": "FI", "table_points": 7.33, "score": 212,
     "sessions": [{"session": 1, "table_points": 4.0, "score": 150}, {"session": 2, "table_points": 3.33,
                                                                        "score": 62}]},
    {"rank": 2, "player_id": 2, "name": "Mei Chen", "country": "DK", "table_points": 6.0, "score": 95,
     "sessions": [{"session": 1, "table_points": 2.0, "score": 31}, {"session": 2, "table_points": 4.0,
                                                                        "score": 64}]}]}

bp = api_blueprint("api_standings", "Standings (any valid token).")


def require_visible(t: Tournament) -> None:
    """Hidden standings answer the tournament's staff only."""
    if not standings_visible_to(current_user(), t):
        abort(403, HIDDEN_MESSAGE)


def points(value: Fraction) -> float:
    """Table points as a number exact to two decimals (7/3 -> 2.33)."""
    return round(float(value), 2)


@bp.route("/tournaments/<int:tournament_id>/standings", methods=["GET"])
@for_tournament()
@bp.response(200, StandingsSchema, example=STANDINGS)
def standings(t: Tournament):
    """Ranked players, best first, with a result per session counted (in play or finished); substitutes
    are never ranked."""
    require_visible(t)
    result = standings_service.standings(t)
    body = result.derived.get("api-json")
    if body is None:  # rendered once per change of the standings, not once per poll
        body = result.derived["api-json"] = current_app.json.dumps(standings_json(result))
    return Response(body, mimetype="application/json")


def standings_json(result: standings_service.Standings) -> dict:
    """The body StandingsSchema documents."""
    # A standings holds few distinct table points (shared objects) but a thousand cells: each is converted once.
    converted: dict[int, float] = {}

    def points_of(value: Fraction) -> float:
        number = converted.get(id(value))  # the rows keep every value alive while this runs: ids are unique
        if number is None:
            number = converted[id(value)] = points(value)
        return number

    return {
        "rows": [
            {
                "rank": row.rank,
                "player_id": row.player_id,
                "name": row.name,
                "country": row.country,
                "table_points": points_of(row.table_points),
                "score": row.score,
                "sessions": [{"session": cell.session, "table_points": points_of(cell.table_points),
                              "score": cell.score} for cell in row.sessions],
            }
            for row in result.rows
        ]
    }


@bp.route("/tournaments/<int:tournament_id>/standings.pdf", methods=["GET"])
@for_tournament()
@bp.doc(responses={"200": {
    "description": "The standings as a PDF; also saved under the export folder.",
    "content": {"application/pdf": {"schema": {"type": "string", "format": "binary"}}},
}})
def standings_pdf(t: Tournament):
    """The standings PDF: rank, name, country, table points, score and a column per session."""
    require_visible(t)
    return send(export_service.standings_pdf(t))
