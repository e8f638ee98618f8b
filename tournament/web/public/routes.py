"""Pages anyone can read without logging in.

    GET /                      tournaments, current and upcoming first
    GET /t/<id>                a tournament's public page
    GET /t/<id>/players        registered players and substitutes (no notes)
    GET /rules/<name>          the event-day rules the app follows (docs/rules: event-day, players-entry)
"""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from tournament.models import PlayerStatus
from tournament.services.people import registration as registration_service
from tournament.services.people import tournaments as tournament_service
from tournament.web.helpers import tournament_or_404
from tournament.web.public import rules

bp = Blueprint("public", __name__)


@bp.route("/")
def home():
    return render_template("public/home.html", tournaments=tournament_service.list_tournaments())


@bp.route("/t/<int:tournament_id>")
def tournament(tournament_id: int):
    return render_template("public/tournament.html", tournament=tournament_or_404(tournament_id))


@bp.route("/t/<int:tournament_id>/players")
def players(tournament_id: int):
    t = tournament_or_404(tournament_id)
    shown = [p for p in registration_service.list_players(t) if p.status in (PlayerStatus.REGISTERED, PlayerStatus.PRESENT)]
    return render_template(
        "public/players.html",
        tournament=t,
        players=[p for p in shown if not p.is_substitute],
        substitutes=[p for p in shown if p.is_substitute],
    )


@bp.route("/rules/<name>")
def rules_page(name: str):
    if name not in rules.PAGES:
        abort(404)
    title, body = rules.page(name)
    return render_template("public/rules.html", title=title, body=body, name=name)
