"""Printing and files for the staff: seating, score sheets, schedule cards, the penalty list, the EMA
results file with its check, and hiding the standings from the public.

    GET  /manage/tournaments/<id>/exports                                the page listing them all
    GET  /manage/tournaments/<id>/exports/sessions/<n>/seating.pdf       seating by table and by name
    GET  /manage/tournaments/<id>/exports/sessions/<n>/score-sheets.pdf  a score sheet per table
    GET  /manage/tournaments/<id>/exports/schedule-cards.pdf             a card per player
    GET  /manage/tournaments/<id>/exports/penalties.pdf                  the penalty list
    GET  /manage/tournaments/<id>/exports/ema-results.csv                the EMA results file
    GET  /manage/tournaments/<id>/exports/ema-results.xlsx               EMA's results workbook
    GET  /manage/tournaments/<id>/exports/ema-observer-report.pdf        the observer's draft report
    GET  /manage/tournaments/<id>/exports/rules-briefing.pdf             the rules we play by, for the briefing
    (the page and these two take ?qualification=1 when players had to qualify: +1 to the MERS weight)
    POST /manage/tournaments/<id>/exports/standings-visibility          hide or show the standings (organisers)

Every generated file is also saved under EXPORT_DIR.
"""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import login_required
from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.validators import AnyOf

from tournament.pdf import save_export
from tournament.services.documents import briefing, ema_pack
from tournament.services.documents import ema as ema_service
from tournament.services.documents import exports as export_service
from tournament.services.documents.exports import Document
from tournament.services.results.visibility import set_standings_hidden
from tournament.services.seating import ahead
from tournament.services.seating import draws as draw_service
from tournament.web.helpers import managed_tournament, refereed_tournament

bp = Blueprint("exports", __name__, url_prefix="/manage/tournaments/<int:tournament_id>/exports")


class VisibilityForm(FlaskForm):
    hidden = HiddenField(validators=[AnyOf(["0", "1"])])


def send(document: Document, attachment: bool = False):
    """Keep a copy under EXPORT_DIR, then send the file (PDFs open in the browser, CSVs download)."""
    save_export(current_app.config["EXPORT_DIR"], document.filename, document.data)
    disposition = "attachment" if attachment else "inline"
    return current_app.response_class(document.data, mimetype=document.mimetype, headers={
        "Content-Disposition": f'{disposition}; filename="{document.filename}"'})


@bp.route("")
@login_required
def index(tournament_id: int):
    t = refereed_tournament(tournament_id)
    qualification = _qualification()
    checked = ema_pack.check(t, qualification)
    return render_template("exports/index.html", tournament=t, sessions=draw_service.drawn_sessions(t),
                           problems=checked.problems, warnings=checked.warnings, visibility_form=VisibilityForm(),
                           mers=ema_pack.mers(t, qualification), qualification=qualification,
                           changed_cards=len({c.player_id for c in ahead.table_changes(t)}))


def _qualification() -> bool:
    # A box ticked on the page; anything but a clear yes reads as no (a page never answers 400 for it).
    return request.args.get("qualification", "").strip().lower() in ("1", "true", "yes", "on")


@bp.route("/sessions/<int:number>/seating.pdf")
@login_required
def seating(tournament_id: int, number: int):
    return send(export_service.seating_pdf(refereed_tournament(tournament_id), number))


@bp.route("/sessions/<int:number>/score-sheets.pdf")
@login_required
def score_sheets(tournament_id: int, number: int):
    return send(export_service.score_sheets_pdf(refereed_tournament(tournament_id), number))


@bp.route("/schedule-cards.pdf")
@login_required
def schedule_cards(tournament_id: int):
    # Each card carries its player's private link as a QR code (issue 23). ?changed=1: the cards of the players
    # whose table changed after their session was published (issue 33), to print again.
    t = refereed_tournament(tournament_id)
    only = None
    if request.args.get("changed", "").strip().lower() in ("1", "true", "yes", "on"):
        only = {change.player_id for change in ahead.table_changes(t)}
    return send(export_service.schedule_cards_pdf(t, _link_url, only))


def _link_url(token: str) -> str:
    return url_for("player_page.page", link_token=token, _external=True)


@bp.route("/player-links.pdf")
@login_required
def player_links(tournament_id: int):
    return send(export_service.player_links_pdf(refereed_tournament(tournament_id), _link_url))


@bp.route("/penalties.pdf")
@login_required
def penalties(tournament_id: int):
    return send(export_service.penalties_pdf(refereed_tournament(tournament_id)))


@bp.route("/ema-results.csv")
@login_required
def ema_results(tournament_id: int):
    t = refereed_tournament(tournament_id)
    return send(ema_document(t), attachment=True)


@bp.route("/ema-results.xlsx")
@login_required
def ema_workbook(tournament_id: int):
    t = refereed_tournament(tournament_id)
    return send(ema_pack.results_workbook(t, qualification=_qualification()), attachment=True)


@bp.route("/ema-observer-report.pdf")
@login_required
def ema_observer_report(tournament_id: int):
    t = refereed_tournament(tournament_id)
    return send(ema_pack.observer_report(t, qualification=_qualification()))


def ema_document(t) -> Document:
    text = ema_service.ema_csv(ema_service.ema_rows(t))
    return Document(text.encode("utf-8"), f"ema-results-{t.id}.csv", "text/csv")


@bp.route("/standings-visibility", methods=["POST"])
@login_required
def visibility(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = VisibilityForm()
    if not form.validate_on_submit():
        flash(gettext("The request could not be read: reload the page and try again."), "error")
        return redirect(url_for("tournaments.overview", tournament_id=t.id)), 400
    set_standings_hidden(t, form.hidden.data == "1")
    flash(gettext("The standings are now hidden from the public: only the staff see them.") if t.standings_hidden
          else gettext("The standings are public again."), "success")
    back = request.form.get("back") == "exports"
    return redirect(url_for("exports.index", tournament_id=t.id) if back
                    else url_for("tournaments.overview", tournament_id=t.id))


@bp.route("/rules-briefing.pdf")
@login_required
def rules_briefing(tournament_id: int):
    """The tournament's rule readings on a printable sheet, in its language, for the players' briefing."""
    return send(briefing.briefing_pdf(refereed_tournament(tournament_id)))
