"""Public seating pages: what players look for at the venue.

    GET /t/<id>/seating                      published sessions; the latest shown by table and by name
    GET /t/<id>/seating/<n>                  one session by table and by player name
    GET /t/<id>/seating/<n>/projector        the same for a projector: big type, refreshes itself
    GET /t/<id>/seating/player/<player_id>   a player's schedule: table, seat wind, opponents
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template, request

from tournament.messages import msg
from tournament.services.people import registration as registration_service
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service
from tournament.services.seating import schedule as schedule_service
from tournament.services.seating import substitutions as substitution_service
from tournament.web.helpers import tournament_or_404

bp = Blueprint("seating", __name__, url_prefix="/t/<int:tournament_id>/seating")


def _published(t):
    return [s for s in draw_service.drawn_sessions(t) if s.is_published]


def _published_session(t, number: int):
    sessions = _published(t)
    current = next((s for s in sessions if s.number == number), None)
    if current is None:
        abort(404, msg("The seating of session %(number)s is not published.", number=number))
    return sessions, current


def _context(t, sessions, current) -> dict:
    page = draw_service.seating_page(current)
    # Substitutions during the session (MERS 4): who came in at which table, from which hand.
    subs = substitution_service.by_session([current])[current.id] if current is not None else []
    return {"tournament": t, "sessions": sessions, "current": current, "tables": page.tables, "by_name": page.by_name,
            "starts": schedule_service.planned_starts(t),
            "subs_by_table": {n: [s for s in subs if s.table_number == n] for n, _ in page.tables},
            "left_from": {s.out_player_id: s.from_hand for s in subs}, "came_in": subs}


@bp.route("")
def index(tournament_id: int):
    t = tournament_or_404(tournament_id)
    sessions = _published(t)
    current = play.session_to_find(sessions)
    return render_template("seating/session.html", **_context(t, sessions, current))


@bp.route("/<int:number>")
def session(tournament_id: int, number: int):
    t = tournament_or_404(tournament_id)
    return render_template("seating/session.html", **_context(t, *_published_session(t, number)))


@bp.route("/<int:number>/projector")
def projector(tournament_id: int, number: int):
    t = tournament_or_404(tournament_id)
    by = "table" if request.args.get("by") == "table" else "name"
    return render_template("seating/projector.html", by=by, **_context(t, *_published_session(t, number)))


@bp.route("/player/<int:player_id>")
def player(tournament_id: int, player_id: int):
    t = tournament_or_404(tournament_id)
    p = registration_service.get_player(t, player_id)
    return render_template("seating/player.html", tournament=t, player=p,
                           entries=substitution_service.schedule_lines(t, p.id),
                           starts=schedule_service.planned_starts(t))
