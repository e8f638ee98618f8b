"""Organiser pages for tournaments.

    GET       /manage                               my tournaments, and the invitations waiting for my answer
    POST      /manage/invitations/<i>/accept        join the staff an invitation to me names
    POST      /manage/invitations/<i>/decline
    GET/POST  /manage/tournaments/new               create a tournament
    GET       /manage/tournaments/<id>              overview
    GET/POST  /manage/tournaments/<id>/edit         edit settings
    POST      /manage/tournaments/<id>/staff        add an organiser or referee: an invitation, accepted by its owner
    POST      /manage/tournaments/<id>/staff/<m>/remove
    POST      /manage/tournaments/<id>/staff/<m>/reset-link     a password-reset link for a staff member
    POST      /manage/tournaments/<id>/invitations              invite an address to the staff (the link shown)
    POST      /manage/tournaments/<id>/invitations/<i>/renew    a new link for an open invitation
    POST      /manage/tournaments/<id>/invitations/<i>/withdraw
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.i18n import current_language
from tournament.i18n.service_messages import translate
from tournament.models import Role
from tournament.services import ConflictError, ServiceError
from tournament.services.people import invitations as invitation_service
from tournament.services.people import password_resets
from tournament.services.people import tournaments as tournament_service
from tournament.services.people.tournaments import TournamentData
from tournament.web import mailer
from tournament.web.forms import form_version
from tournament.web.helpers import (
    form_post,
    managed_tournament,
    organiser_required,
    refereed_tournament,
    show_service_error,
    submit_form,
)
from tournament.web.tournaments.forms import ConfirmForm, EditTournamentForm, TournamentForm
from tournament.web.tournaments.staff import (
    InviteForm,
    LinkButtonForm,
    invitation_link,
    overview_page,
    reset_link,
)
from tournament.web.unit import refuse

bp = Blueprint("tournaments", __name__, url_prefix="/manage")


@bp.route("")
@login_required
def dashboard():
    return _dashboard_page()


def _dashboard_page(status: int = 200):
    return render_template("tournaments/dashboard.html", tournaments=tournament_service.tournaments_for(current_user),
                           invitations=invitation_service.pending_for(current_user),
                           answer_form=LinkButtonForm()), status


def _answer_invitation(answer, done):
    """Accept or decline on one's own "My events" page: back there, or the page again with the refusal (a
    4xx: someone else's or an unknown invitation reads as 404, one used or expired meanwhile as 410)."""
    if not LinkButtonForm().validate_on_submit():
        flash(gettext("The form expired: try again."), "error")
        return _dashboard_page(400)
    try:
        result = answer()
    except ServiceError as exc:
        refuse()
        flash(translate(exc.message), "error")
        return _dashboard_page(exc.status_code)
    flash(done(result), "success")
    return redirect(url_for("tournaments.dashboard"))


@bp.route("/invitations/<int:invitation_id>/accept", methods=["POST"])
@login_required
def accept_invitation(invitation_id: int):
    # Only the account the invitation is addressed to, logged in as itself, can say yes (the service checks).
    return _answer_invitation(
        lambda: invitation_service.accept(invitation_id, current_user),
        lambda member: gettext("You are on the staff of %(tournament)s as organiser.", tournament=member.tournament.name)
        if member.role == Role.ORGANISER else
        gettext("You are on the staff of %(tournament)s as referee.", tournament=member.tournament.name))


@bp.route("/invitations/<int:invitation_id>/decline", methods=["POST"])
@login_required
def decline_invitation(invitation_id: int):
    return _answer_invitation(
        lambda: invitation_service.decline(invitation_id, current_user),
        lambda invitation: gettext("You declined the invitation to %(tournament)s.", tournament=invitation.tournament.name))


@bp.route("/tournaments/new", methods=["GET", "POST"])
@organiser_required
def create():
    form = TournamentForm()
    browser_zone = False
    if not form.is_submitted():
        # A new tournament starts in the organiser's language (their account's, else their browser's: the page's
        # own) and the time zone of their last tournament; without one, the browser's (static/js/time-zone.js).
        form.language.data = current_language()
        zone = tournament_service.usual_time_zone(current_user)
        if zone:
            form.time_zone.data = zone
        browser_zone = not zone
    done = submit_form(
        form,
        lambda: tournament_service.create_tournament(current_user, form.to_data()),
        lambda t: (gettext("Tournament “%(name)s” created.", name=t.name), url_for("tournaments.overview", tournament_id=t.id)),
    )
    if done:
        return done
    status = 400 if form.is_submitted() else 200
    return render_template("tournaments/form.html", form=form, tournament=None, browser_zone=browser_zone), status


@bp.route("/tournaments/<int:tournament_id>")
@login_required
def overview(tournament_id: int):
    t = refereed_tournament(tournament_id)
    return overview_page(t)


@bp.route("/tournaments/<int:tournament_id>/edit", methods=["GET", "POST"])
@organiser_required
def edit(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = EditTournamentForm()
    if form.validate_on_submit():
        try:
            tournament_service.update_tournament(t, form.to_data(), expected_version=form_version(form))
        except ConflictError as exc:
            flash(translate(exc.message), "error")
            form.fill_from(TournamentData.from_tournament(t), t.version)
            return render_template("tournaments/form.html", form=form, tournament=t), 409
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            flash(gettext("Settings saved."), "success")
            return redirect(url_for("tournaments.overview", tournament_id=t.id))
    elif not form.is_submitted():
        form.fill_from(TournamentData.from_tournament(t), t.version)
    status = 400 if form.is_submitted() else 200
    return render_template("tournaments/form.html", form=form, tournament=t), status


@bp.route("/tournaments/<int:tournament_id>/staff", methods=["POST"])
@organiser_required
def add_staff(tournament_id: int):
    # Adding an account to the staff is an invitation its owner accepts: an organiser never takes in (and
    # then hands out a password link for) an account that is someone else's. The older form's field names.
    return _invite(managed_tournament(tournament_id), InviteForm(prefix=""))


def _invite(t, form: InviteForm):
    if form.validate_on_submit():
        try:
            invitation, token = invitation_service.invite(t, form.email.data, form.role.data, current_user)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            link = invitation_link(token, invitation.email, t, invitation.role, current_user)
            return overview_page(t, new_link=link)
    return overview_page(t, 400, invite_form=form)


@bp.route("/tournaments/<int:tournament_id>/staff/<int:member_id>/remove", methods=["POST"])
@organiser_required
def remove_staff(tournament_id: int, member_id: int):
    t = managed_tournament(tournament_id)
    return form_post(url_for("tournaments.overview", tournament_id=t.id),
                     lambda: tournament_service.remove_staff(t, member_id), gettext("Removed from the staff."),
                     form=ConfirmForm(), category="success")


@bp.route("/tournaments/<int:tournament_id>/invitations", methods=["POST"])
@organiser_required
def invite(tournament_id: int):
    return _invite(managed_tournament(tournament_id), InviteForm())


@bp.route("/tournaments/<int:tournament_id>/invitations/<int:invitation_id>/renew", methods=["POST"])
@organiser_required
def renew_invitation(tournament_id: int, invitation_id: int):
    t = managed_tournament(tournament_id)
    if not LinkButtonForm().validate_on_submit():
        return overview_page(t, 400)
    try:
        invitation, token = invitation_service.renew(t, invitation_id)
    except ServiceError as exc:
        show_service_error(None, exc)
        return overview_page(t, exc.status_code)
    return overview_page(t, new_link=invitation_link(token, invitation.email, t, invitation.role, current_user))


@bp.route("/tournaments/<int:tournament_id>/invitations/<int:invitation_id>/withdraw", methods=["POST"])
@organiser_required
def withdraw_invitation(tournament_id: int, invitation_id: int):
    t = managed_tournament(tournament_id)
    return form_post(url_for("tournaments.overview", tournament_id=t.id),
                     lambda: invitation_service.withdraw(t, invitation_id),
                     lambda invitation: gettext("The invitation of %(email)s is withdrawn: its link no longer works.",
                                               email=invitation.email),
                     form=ConfirmForm(), invalid=gettext("The form expired: try again."), category="success")


@bp.route("/tournaments/<int:tournament_id>/staff/<int:member_id>/reset-link", methods=["POST"])
@organiser_required
def staff_reset_link(tournament_id: int, member_id: int):
    t = managed_tournament(tournament_id)
    if not LinkButtonForm().validate_on_submit():
        return overview_page(t, 400)
    try:
        reset, token = password_resets.for_staff_member(t, member_id, current_user, shown=not mailer.configured())
    except ServiceError as exc:
        show_service_error(None, exc)
        return overview_page(t, exc.status_code)
    return overview_page(t, new_link=reset_link(token, reset.user, t))
