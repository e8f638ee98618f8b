"""Penalties and warnings: the tournament's list, giving one, cancelling one (kept, struck through)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.i18n.labels import translated
from tournament.models import SessionStatus, Tournament
from tournament.services import NotFound, ServiceError
from tournament.services.play import penalties
from tournament.services.seating import draws as draw_service
from tournament.web.hands.common import bp, posted_int
from tournament.web.hands.forms import CancelPenaltyForm, PenaltyForm
from tournament.web.helpers import form_post, refereed_tournament, show_service_error


def foul_choices(t: Tournament) -> list[tuple[str, str]]:
    """The tournament's foul types to choose from: the default ones shown in the reader's language (tr)."""
    return [("", gettext("Choose the foul")), *[(foul, translated(foul)) for foul in t.foul_type_list]]


def _penalty_form(t: Tournament, form: PenaltyForm | None = None) -> PenaltyForm:
    form = form or PenaltyForm()
    players = sorted(draw_service.registration.players_of(t), key=lambda p: (p.last_name.casefold(),
                                                                             p.first_name.casefold()))
    form.player_id.choices = [("", gettext("Choose the player")), *[(str(p.id), p.sort_name) for p in players]]
    form.foul.choices = foul_choices(t)
    sessions = [s for s in draw_service.drawn_sessions(t) if s.is_locked]
    form.session.choices = [(str(s.number), gettext("Session %(num)d", num=s.number)) for s in sessions]
    if not form.session.data and sessions:
        current = next((s for s in sessions if s.status == SessionStatus.IN_PLAY), sessions[-1])
        form.session.data = str(current.number)
    return form


@bp.route("/penalties", methods=["GET", "POST"])
@login_required
def penalty_list(tournament_id: int):
    t = refereed_tournament(tournament_id)
    form = _penalty_form(t)
    status = 200
    if request.method == "GET":
        wanted = request.args.get("player", type=int)
        if wanted:
            form.player_id.data = str(wanted)
        if request.args.get("session", type=int):
            form.session.data = str(request.args.get("session", type=int))
    elif form.validate_on_submit():
        try:
            penalties.give_penalty(t, player_id=posted_int(form.player_id.data),
                                   session_number=posted_int(form.session.data), amount=form.amount.data,
                                   reason=form.reason.data, user=current_user, hand_number=form.hand.data,
                                   foul=form.foul.data or "")
        except NotFound as exc:
            show_service_error(form, ServiceError(exc.message, field="session"))
            status = 422
        except ServiceError as exc:
            show_service_error(form, exc)
            status = 422
        else:
            flash(gettext("Penalty recorded: it is deducted from the player's session score."), "info")
            return redirect(url_for("hands.penalty_list", tournament_id=t.id))
    else:
        status = 422
    names = {p.id: p.full_name for p in draw_service.registration.players_of(t)}
    in_play = next((s for s in draw_service.drawn_sessions(t) if s.status == SessionStatus.IN_PLAY), None)
    ladder = penalties.ladder_suggestions(t, in_play.id) if in_play else {}
    return render_template("hands/penalties.html", tournament=t, form=form, penalties=penalties.penalties_of(t),
                           names=names, cancel_form=CancelPenaltyForm(), ladder=ladder,
                           ladder_session=in_play.number if in_play else None,
                           history=penalties.foul_history(t)), status


@bp.route("/penalties/<int:penalty_id>/cancel", methods=["POST"])
@login_required
def cancel_penalty(tournament_id: int, penalty_id: int):
    t = refereed_tournament(tournament_id)
    form = CancelPenaltyForm()

    def cancel() -> None:
        try:
            penalties.cancel_penalty(t, penalty_id, form.reason.data, current_user)
        except NotFound as exc:
            abort(404, exc.message)

    return form_post(url_for("hands.penalty_list", tournament_id=t.id), cancel,
                     gettext("Penalty cancelled; it stays on the list, struck through."), form=form,
                     invalid=gettext("Say why the penalty is cancelled."))
