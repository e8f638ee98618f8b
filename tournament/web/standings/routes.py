"""Standings: public pages computed from recorded hands and penalties, and the PDF for staff.

    GET  /t/<id>/standings                      the ranking, with a column per session
    GET  /t/<id>/standings/sessions/<n>         one session's tables: scores, penalties, table points
    GET  /t/<id>/standings/teams                the team ranking
    GET  /manage/tournaments/<id>/standings.pdf the standings PDF (staff), also saved under exports/
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template
from flask_login import login_required

from tournament.messages import msg
from tournament.models import SessionStatus
from tournament.services import NotFound
from tournament.services.documents import exports as export_service
from tournament.services.play import confirmations
from tournament.services.results import standings as standings_service
from tournament.services.seating import draws as draw_service
from tournament.text import format_points
from tournament.web.exports.routes import send
from tournament.web.helpers import refereed_tournament, tournament_or_404, visible_standings_or_404

bp = Blueprint("standings", __name__)


@bp.app_template_filter("tp")
def table_points_text(points) -> str:
    """Table points as shown everywhere: 3, 1.75, 2.33 (kept exact, displayed rounded)."""
    return format_points(points)


SCORED = (SessionStatus.IN_PLAY, SessionStatus.FINISHED)


def visible_tournament(tournament_id: int):
    """The tournament, if its standings are public or the user is on its staff; 404 otherwise."""
    return visible_standings_or_404(tournament_or_404(tournament_id))


@bp.route("/t/<int:tournament_id>/standings")
def index(tournament_id: int):
    t = visible_tournament(tournament_id)
    return render_template("standings/index.html", tournament=t, standings=standings_service.standings(t))


@bp.route("/t/<int:tournament_id>/standings/sessions/<int:number>")
def session(tournament_id: int, number: int):
    t = visible_tournament(tournament_id)
    sessions = [s for s in draw_service.drawn_sessions(t) if s.status in SCORED]
    if number not in {s.number for s in sessions}:
        abort(404, msg("This session has no results yet."))
    try:
        results = standings_service.session_results(t, number)
    except NotFound as exc:
        abort(404, exc.message)
    # Tables whose players have not all confirmed a hand yet, or dispute one (issue 23): marked on the page.
    waiting = confirmations.unconfirmed_tables(next(s for s in sessions if s.number == number))
    return render_template("standings/session.html", tournament=t, results=results,
                           numbers=[s.number for s in sessions], waiting=waiting)


@bp.route("/t/<int:tournament_id>/standings/teams")
def teams(tournament_id: int):
    t = visible_tournament(tournament_id)
    return render_template("standings/teams.html", tournament=t, standings=standings_service.standings(t))


@bp.route("/manage/tournaments/<int:tournament_id>/standings.pdf")
@login_required
def pdf(tournament_id: int):
    return send(export_service.standings_pdf(refereed_tournament(tournament_id)))
