"""Pages anyone can read without logging in.

    GET /                      tournaments, current and upcoming first
    GET /t/<id>                a tournament's public page
"""

from __future__ import annotations

from flask import Blueprint, render_template

from tournament.services import tournaments as tournament_service
from tournament.web.helpers import tournament_or_404

bp = Blueprint("public", __name__)


@bp.route("/")
def home():
    return render_template("public/home.html", tournaments=tournament_service.list_tournaments())


@bp.route("/t/<int:tournament_id>")
def tournament(tournament_id: int):
    return render_template("public/tournament.html", tournament=tournament_or_404(tournament_id))
