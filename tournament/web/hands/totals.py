"""A table scored by its four session totals only (a paper sheet), and back to hand by hand."""

from __future__ import annotations

from flask import flash, redirect, render_template, request
from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.i18n.service_messages import translate
from tournament.models import TableMode
from tournament.services import ServiceError
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.web.hands.common import bp, posted_int, table_url
from tournament.web.hands.forms import ConvertForm, TotalsForm
from tournament.web.helpers import form_post, refereed_tournament


@bp.route("/<int:number>/tables/<int:table>/totals", methods=["GET", "POST"])
@login_required
def totals(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    players = play.table_players(s, table)
    sheet = scoring.table_sheet(t, number, table)
    form = TotalsForm()
    for entry, sp in zip(form.scores, players, strict=False):
        entry.label.text = sp.player.full_name
    status = 200
    if request.method == "GET":
        if sheet.mode == TableMode.TOTALS:
            for entry, sp in zip(form.scores, players, strict=False):
                entry.data = sheet.totals.get(sp.player_id)
        # A table row is created on first use at version 1: a form read before it exists expects that.
        form.version.data = str(sheet.table.version if sheet.table else 1)
    elif not form.validate_on_submit():
        status = 422
    elif posted_int(form.version.data) is None:
        # Without its version the save could not tell a stale form from a fresh one and would overwrite.
        flash(gettext("This form has no record version: reload the table's totals and enter them again."), "error")
        status = 409
    else:
        scores = {sp.player_id: entry.data for entry, sp in zip(form.scores, players, strict=True)}
        try:
            scoring.enter_totals(t, number, table, scores, current_user,
                                 expected_version=posted_int(form.version.data))
        except ServiceError as exc:
            for entry, sp in zip(form.scores, players, strict=False):
                if f"score_{sp.player_id}" in exc.errors:
                    entry.errors = [exc.errors.pop(f"score_{sp.player_id}")]
            exc.errors.pop("scores", None)  # a problem of the four together: shown above the form
            flash(translate(exc.message), "error")
            status = exc.status_code if exc.status_code != 400 else 422
        else:
            flash(gettext("Table %(num)d's totals saved.", num=table), "info")
            return redirect(table_url(t, number, table))
    return render_template("hands/totals.html", tournament=t, session=s, table=table, players=players, form=form,
                           sheet=sheet, button=ConvertForm()), status


@bp.route("/<int:number>/tables/<int:table>/totals/clear", methods=["POST"])
@login_required
def clear_totals(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    play.table_players(play.get_session(t, number), table)
    return form_post(table_url(t, number, table), lambda: scoring.clear_totals(t, number, table, current_user),
                     gettext("Table %(num)d is entered hand by hand again.", num=table), form=ConvertForm())
