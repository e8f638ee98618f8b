"""Organiser pages for the seating draws of a tournament.

    GET   /manage/tournaments/<id>/draws                     sessions, plan/draw buttons, overall quality
    POST  /manage/tournaments/<id>/draws/plan                plan every session not in play
    POST  /manage/tournaments/<id>/draws/next                draw the next session from who is present
    POST  /manage/tournaments/<id>/draws/replan              mend sessions drawn ahead that no longer fit the field
    POST  /manage/tournaments/<id>/draws/quality             the re-plan for quality: whom it moves, then apply
    POST  /manage/tournaments/<id>/draws/separation          keep teammates / clubmates / nobody apart
    GET   /manage/tournaments/<id>/draws/<n>                 one session: tables, quality, swap
    POST  /manage/tournaments/<id>/draws/<n>/redraw          redraw the last drawn session
    POST  /manage/tournaments/<id>/draws/<n>/status          publish, unpublish, start play, finish
    POST  /manage/tournaments/<id>/draws/<n>/swap            swap two players
    POST  /manage/tournaments/<id>/draws/<n>/leave-out       leave out the players seated who have not checked in
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
from tournament.services.seating import ahead as ahead_service
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle
from tournament.web.draws.forms import (
    DrawForm,
    LeaveOutForm,
    PlanForm,
    QualityReplanForm,
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


def _render_index(t, plan_form=None, draw_form=None, separation_form=None, status=200, replan=None):
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
        ahead=ahead_service.check_ahead(t),
        replan_form=ReplanForm(),
        drawn_ahead=bool(ahead_service.sessions_ahead(t)[1]),
        quality_form=QualityReplanForm(formdata=None, expected_moved=replan.total if replan else None),
        replan=replan,
        table_changes=ahead_service.table_changes(t),
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
            session = draw_service.draw_next(t, seed=form.seed.data, swiss=_swiss(),
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


def _swiss() -> draw_service.Swiss | None:
    """The "by the standings" buttons ask for Swiss seating: tables of ranking neighbours, strict or keeping
    teammates apart."""
    if request.form.get("method") == "swiss":
        return draw_service.Swiss(keep_apart=False)
    if request.form.get("method") == "swiss-apart":
        return draw_service.Swiss(keep_apart=True)
    return None


@bp.route("/replan", methods=["POST"])
@organiser_required
def replan(tournament_id: int):
    """Mend the sessions not in play that seat a player who left or leave out a late arrival, moving as few
    players as it must."""
    t = managed_tournament(tournament_id)
    form = ReplanForm()
    if form.validate_on_submit():
        try:
            said = ahead_service.mend_ahead(t, user=current_user)
        except ServiceError as exc:
            flash(translate(exc.message), "error")
            return _render_index(t, status=exc.status_code)
        flash(translate(said) or gettext("Nothing to mend: the sessions drawn ahead fit the players."), "success")
    return redirect(url_for("draws.index", tournament_id=t.id))


@bp.route("/quality", methods=["POST"])
@organiser_required
def quality_replan(tournament_id: int):
    """The re-plan for quality: first the page says whom it would move in which session, then the organiser
    applies it (refused when the sessions changed meanwhile and it would move another number)."""
    t = managed_tournament(tournament_id)
    form = QualityReplanForm()
    if not form.validate_on_submit():
        return redirect(url_for("draws.index", tournament_id=t.id))
    try:
        if form.apply.data:
            done = ahead_service.apply_replan(t, form.expected_moved.data, user=current_user)
            flash(gettext("Sessions re-planned for quality: %(num)d players change table.", num=done.total)
                  if done.total else gettext("Nothing changed: the sessions drawn ahead were as good as the "
                                             "re-plan finds."), "success")
            return redirect(url_for("draws.index", tournament_id=t.id))
        return _render_index(t, replan=ahead_service.replan(t))
    except ServiceError as exc:
        flash(translate(exc.message), "error")
        return _render_index(t, status=exc.status_code)


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
        not_checked_in=[] if session.is_locked else ahead_service.not_checked_in(t, session),
        leave_out_form=LeaveOutForm(version=session.version),
    ), status


@bp.route("/<int:number>/leave-out", methods=["POST"])
@organiser_required
def leave_out(tournament_id: int, number: int):
    """The check before publishing: leave out of this session the players it seats who have not checked in."""
    t = managed_tournament(tournament_id)
    session = draw_service.get_session(t, number)
    form = LeaveOutForm()
    if form.validate_on_submit():
        try:
            said = ahead_service.leave_out_not_checked_in(t, number, form_version(form), user=current_user)
        except ServiceError as exc:
            flash(translate(exc.message), "error")
            return _render_session(t, session, status=exc.status_code)
        flash(translate(said) or gettext("Nothing changed."), "success")
    return redirect(url_for("draws.session", tournament_id=t.id, number=number))


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
