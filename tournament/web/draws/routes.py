"""Organiser pages for the seating draws of a tournament.

    GET   /manage/tournaments/<id>/draws                     sessions, plan/draw buttons, overall quality
    POST  /manage/tournaments/<id>/draws/plan                plan every session not in play
    POST  /manage/tournaments/<id>/draws/next                draw the next session from who is present
    POST  /manage/tournaments/<id>/draws/replan              re-plan sessions drawn ahead after a withdrawal
    POST  /manage/tournaments/<id>/draws/separation          keep teammates / clubmates / nobody apart
    GET   /manage/tournaments/<id>/draws/<n>                 one session: tables, quality, swap
    POST  /manage/tournaments/<id>/draws/<n>/redraw          redraw the last drawn session
    POST  /manage/tournaments/<id>/draws/<n>/status          publish, unpublish, start play, finish
    POST  /manage/tournaments/<id>/draws/<n>/swap            swap two players
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user

from tournament.i18n.labels import status_text
from tournament.i18n.service_messages import translate
from tournament.models import Player, PlayerStatus, SessionStatus
from tournament.services import ConflictError, ServiceError
from tournament.services.people import registration as registration_service
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle
from tournament.web.draws.forms import (
    DrawForm,
    PlanForm,
    RedrawForm,
    ReplanForm,
    SeparationForm,
    StatusForm,
    SwapForm,
)
from tournament.web.forms import form_version
from tournament.web.helpers import managed_tournament, organiser_required, show_service_error, submit_form

bp = Blueprint("draws", __name__, url_prefix="/manage/tournaments/<int:tournament_id>/draws")

STATUS_ACTIONS = {
    SessionStatus.PUBLISHED.value: "Publish",
    SessionStatus.DRAFT.value: "Unpublish",
    SessionStatus.IN_PLAY.value: "Start play (fix the seating)",
    SessionStatus.FINISHED.value: "Mark finished",
}


def _render_index(t, plan_form=None, draw_form=None, separation_form=None, status=200):
    sessions = draw_service.drawn_sessions(t)
    players, substitutes = draw_service.field_for_draw(t, planning=False)
    planned_players, planned_subs = draw_service.field_for_draw(t, planning=True)
    separation_form = separation_form or SeparationForm(separation=t.draw_separation)
    events = draw_service.draw_events(t)
    return render_template(
        "draws/index.html",
        tournament=t,
        sessions=sessions,
        report=draw_service.quality(t) if sessions else None,
        present=len(players),
        present_substitutes=len(substitutes),
        registered=len(planned_players),
        registered_substitutes=len(planned_subs),
        plan_form=plan_form or PlanForm(),
        draw_form=draw_form or DrawForm(formdata=None, number=len(sessions) + 1),
        separation_form=separation_form,
        names=_names(t),
        ahead=draw_service.check_ahead(t),
        replan_form=ReplanForm(),
        events=events,
        provenance={s.number: draw_service.provenance(t, s, events) for s in sessions},
    ), status


def _names(t) -> dict[int, str]:
    return {p.id: p.full_name for p in registration_service.players_of(t)}


def _players_by_name(t) -> list[Player]:
    """Players by last name, as organisers look them up."""
    return registration_service.by_name(registration_service.players_of(t))


@bp.route("")
@organiser_required
def index(tournament_id: int):
    return _render_index(managed_tournament(tournament_id))


@bp.route("/plan", methods=["POST"])
@organiser_required
def plan(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = PlanForm()
    done = submit_form(
        form,
        lambda: draw_service.plan_all(t, seed=form.seed.data, user=current_user),
        lambda stored: (f"Planned sessions {stored[0].number}–{stored[-1].number} (seed {stored[0].seed}). "
                        "Check the quality, then publish.", url_for("draws.index", tournament_id=t.id)),
    )
    return done or _render_index(t, plan_form=form, status=400)


@bp.route("/next", methods=["POST"])
@organiser_required
def draw_next(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = DrawForm()
    if form.validate_on_submit():
        try:
            session = draw_service.draw_next(t, seed=form.seed.data, ranking=_swiss_ranking(t),
                                             expected_number=_number(form.number.data), user=current_user)
        except ConflictError as exc:  # drawn by another request at the same moment
            flash(translate(exc.message), "error")
            return _render_index(t, status=409)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            flash(gettext("Session %(num)d drawn (seed %(seed)s). Check it, then publish.", num=session.number,
                          seed=session.seed), "success")
            return redirect(url_for("draws.session", tournament_id=t.id, number=session.number))
    return _render_index(t, draw_form=form, status=400)


def _number(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 6 else None


def _swiss_ranking(t) -> list[int] | None:
    """The "by the standings" button asks for Swiss seating: tables of ranking neighbours."""
    if request.form.get("method") != "swiss":
        return None
    return draw_service.swiss_ranking(t)


@bp.route("/replan", methods=["POST"])
@organiser_required
def replan(tournament_id: int):
    """Draw again the sessions not in play that seat a player who left or leave out a late arrival."""
    t = managed_tournament(tournament_id)
    form = ReplanForm()
    if form.validate_on_submit():
        try:
            said = draw_service.replan_ahead(t, user=current_user)
        except ServiceError as exc:
            flash(translate(exc.message), "error")
            return _render_index(t, status=exc.status_code)
        flash(translate(said) or gettext("Nothing to re-plan: the sessions drawn ahead fit the players."), "success")
    return redirect(url_for("draws.index", tournament_id=t.id))


@bp.route("/separation", methods=["POST"])
@organiser_required
def separation(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = SeparationForm()
    if form.validate_on_submit():
        draw_service.set_separation(t, form.separation.data)
        flash(gettext("Saved. It applies to the next draw; the quality report already uses it."), "success")
        return redirect(url_for("draws.index", tournament_id=t.id))
    return _render_index(t, separation_form=form, status=400)


def _render_session(t, session, swap_form=None, redraw_form=None, status=200, before=None):
    page = draw_service.seating_page(session)
    players = _players_by_name(t)
    seated = {s.player_id for s in page.by_name}
    if swap_form is None:
        swap_form = SwapForm(version=session.version)
    gone = {PlayerStatus.WITHDRAWN: gettext("(withdrawn)"), PlayerStatus.DISQUALIFIED: gettext("(disqualified)")}
    options = [(p.id, " ".join([p.sort_name, *([gone[p.status]] if p.status in gone else []),
                                *([gettext("(substitute)")] if p.is_substitute else []),
                                *([] if p.id in seated else [gettext("(not seated)")])]))
               for p in players
               if p.id in seated or p.status not in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED)]
    swap_form.player_a.choices = options
    swap_form.player_b.choices = options
    return render_template(
        "draws/session.html",
        tournament=t,
        session=session,
        tables=page.tables,
        by_name=page.by_name,
        report=draw_service.quality(t, upto=session.number),
        before=before,
        swap_form=swap_form,
        redraw_form=redraw_form or RedrawForm(version=session.version),
        status_form=StatusForm(version=session.version),
        status_actions=STATUS_ACTIONS,
        is_last=session.number == len(draw_service.drawn_sessions(t)),
        names=_names(t),
        provenance=draw_service.provenance(t, session),
    ), status


@bp.route("/<int:number>")
@organiser_required
def session(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    return _render_session(t, draw_service.get_session(t, number))


@bp.route("/<int:number>/redraw", methods=["POST"])
@organiser_required
def redraw(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    current = draw_service.get_session(t, number)
    form = RedrawForm()
    if form.validate_on_submit():
        try:
            session = draw_service.redraw(t, current, form_version(form), seed=form.seed.data, user=current_user)
        except ServiceError as exc:
            flash(translate(exc.message), "error")
            if exc.status_code == 409:
                # The winner may have replaced the session this request loaded: show the one now stored.
                return _render_session(t, draw_service.get_session(t, number), status=409)
        else:
            flash(gettext("Session %(num)d redrawn (seed %(seed)s).", num=number, seed=session.seed), "success")
            return redirect(url_for("draws.session", tournament_id=t.id, number=number))
    return _render_session(t, current, redraw_form=form, status=400)


@bp.route("/<int:number>/status", methods=["POST"])
@organiser_required
def status(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    session = draw_service.get_session(t, number)
    form = StatusForm()
    if form.validate_on_submit():
        try:
            if form.status.data == SessionStatus.FINISHED.value and session.status == SessionStatus.IN_PLAY:
                # the same end-of-session check as score entry: incomplete tables are refused with the problems
                draw_service.expect_session_version(session, form_version(form))
                lifecycle.finish_session(t, number)
            else:
                lifecycle.set_status(session, form.status.data or "", expected_version=form_version(form))
        except ServiceError as exc:
            flash(translate(exc.message), "error")
            return _render_session(t, session, status=exc.status_code)
        flash(gettext("Session %(num)d is now %(status)s.", num=number, status=status_text(session.status)), "success")
    return redirect(url_for("draws.session", tournament_id=t.id, number=number))


@bp.route("/<int:number>/swap", methods=["POST"])
@organiser_required
def swap(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    session = draw_service.get_session(t, number)
    form = SwapForm()
    # Choices are set before validation so WTForms can check the submitted ids.
    everyone = [(p.id, p.full_name) for p in _players_by_name(t)]
    form.player_a.choices = everyone
    form.player_b.choices = everyone
    if form.validate_on_submit():
        try:
            result = draw_service.swap(t, session, form.player_a.data, form.player_b.data,
                                       expected_version=form_version(form), user=current_user)
        except ServiceError as exc:
            if exc.status_code == 409:
                flash(translate(exc.message), "error")
                return _render_session(t, session, status=409)
            show_service_error(form, exc)
            # The page comes back at its top, the swap form at the bottom: say it where the eye is too.
            flash(gettext("Nothing was swapped. %(reason)s", reason=translate(exc.message)), "error")
        else:
            flash(gettext("Players swapped. Quality rechecked below."), "success")
            return _render_session(t, result.session, before=result.before)
    return _render_session(t, session, swap_form=form, status=400)
