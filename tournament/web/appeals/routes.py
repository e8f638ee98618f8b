"""Appeals (GB 3.12.2, MERS 2.1): the staff list them, file one for a player and decide it."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.i18n.service_messages import translate
from tournament.models import AppealDecision, SessionStatus, Tournament
from tournament.services.core.errors import NotFound, ServiceError
from tournament.services.play import appeals as appeal_service
from tournament.services.seating import draws as draw_service
from tournament.web.appeals.forms import AppealForm, DecisionForm
from tournament.web.helpers import refereed_tournament, show_service_error

bp = Blueprint("appeals", __name__, url_prefix="/manage/tournaments/<int:tournament_id>/appeals")


def _appeal_form(t: Tournament) -> AppealForm:
    form = AppealForm()
    players = sorted(draw_service.registration.players_of(t), key=lambda p: (p.last_name.casefold(),
                                                                             p.first_name.casefold()))
    form.player_id.choices = [("", gettext("Choose the player")), *[(str(p.id), p.sort_name) for p in players]]
    sessions = [s for s in draw_service.drawn_sessions(t) if s.is_locked]
    form.session.choices = [(str(s.number), gettext("Session %(num)s", num=s.number)) for s in sessions]
    if not form.session.data and sessions:
        current = next((s for s in sessions if s.status == SessionStatus.IN_PLAY), sessions[-1])
        form.session.data = str(current.number)
    return form


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 10 else None


def _page(t: Tournament, form: AppealForm, status: int = 200):
    listed = appeal_service.appeals_of(t)
    windows = [(s.number, appeal_service.window_closes_at(t, s))
               for s in draw_service.drawn_sessions(t) if s.status == SessionStatus.FINISHED]
    return render_template("appeals/index.html", tournament=t, form=form,
                           open_appeals=[a for a in listed if a.decision is None],
                           decided=[a for a in listed if a.decision is not None], windows=windows), status


def _decided(appeal) -> str:
    """The flash after a decision, in the reader's language."""
    if appeal.decision == AppealDecision.UPHELD:
        if appeal.correction_id:
            return gettext("Appeal %(num)d upheld, linked to history entry %(entry)d.", num=appeal.id,
                           entry=appeal.correction_id)
        return gettext("Appeal %(num)d upheld.", num=appeal.id)
    return gettext("Appeal %(num)d rejected.", num=appeal.id)


@bp.route("", methods=["GET", "POST"])
@login_required
def index(tournament_id: int):
    t = refereed_tournament(tournament_id)
    form = _appeal_form(t)
    if request.method == "GET":
        return _page(t, form)
    if form.validate_on_submit():
        try:
            appeal = appeal_service.file_appeal(t, _number(form.session.data), form.table.data, form.hand.data,
                                                _number(form.player_id.data), form.text.data, current_user)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            flash(gettext("Appeal %(num)d filed for %(name)s: decide it after the session.", num=appeal.id,
                          name=appeal.player.full_name), "success")
            return redirect(url_for("appeals.index", tournament_id=t.id))
    return _page(t, form, status=422)


@bp.route("/<int:appeal_id>/decision", methods=["GET", "POST"])
@login_required
def decide(tournament_id: int, appeal_id: int):
    """A page of its own per appeal: one decision form at a time (its hidden key makes a double click save
    once), and the appeal read again before deciding."""
    t = refereed_tournament(tournament_id)
    try:
        appeal = appeal_service.get_appeal(t, appeal_id)
    except NotFound as exc:
        abort(404, exc.message)
    form = DecisionForm()
    status = 200
    if request.method == "POST":
        status = 422
        if form.validate_on_submit():
            try:
                appeal = appeal_service.decide(t, appeal_id, form.decision.data, form.text.data, current_user)
            except ServiceError as exc:
                show_service_error(form, exc)
                status = exc.status_code
                appeal = appeal_service.get_appeal(t, appeal_id)  # the refusal rolled the unit back
                if appeal.decision is not None:  # decided meanwhile: the page shows no form to hold the error
                    flash(translate(exc.message), "error")
            else:
                flash(_decided(appeal), "success")
                return redirect(url_for("appeals.index", tournament_id=t.id))
    return render_template("appeals/decide.html", tournament=t, appeal=appeal, form=form), status
