"""The page an invitation's link opens: join a tournament's staff.

    GET/POST /invitations/<token>   no account for the address: choose a name and a password; an account:
                                    log in to it (or, logged in already, confirm); then on the tournament's
                                    overview, logged in. A used, expired or unknown link: a page saying so
                                    (410, 410, 404), an unknown one counted like a failed login.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext
from flask_login import current_user, login_user

from tournament.i18n.service_messages import translate
from tournament.models import Role
from tournament.models.account_links import Invitation
from tournament.services import ServiceError
from tournament.services.core import throttle
from tournament.services.people import invitations as invitation_service
from tournament.services.people import users as user_service
from tournament.web.account.link_forms import ExistingAccountForm, JoinForm, NewAccountForm
from tournament.web.account.link_pages import LINK_REFUSED, link_page, private
from tournament.web.helpers import client_address, show_service_error
from tournament.web.unit import refuse

bp = Blueprint("invitations", __name__, url_prefix="/invitations")


def _joined(member, new_login_for=None):
    if new_login_for is not None:
        user_service.start_login(new_login_for)
        login_user(new_login_for)
    t = member.tournament
    flash(gettext("Welcome, %(name)s: you are on the staff of %(tournament)s as organiser.", name=member.user.display_name,
                  tournament=t.name) if member.role == Role.ORGANISER else
          gettext("Welcome, %(name)s: you are on the staff of %(tournament)s as referee.", name=member.user.display_name,
                  tournament=t.name), "success")
    return redirect(url_for("tournaments.overview", tournament_id=t.id) + "#staff")


def _page(invitation: Invitation, form, status: int = 200, **context):
    return private(render_template("account/invitation.html", invitation=invitation, form=form, **context), status)


def _throttled(invitation: Invitation, form, account, wait: throttle.Throttled):
    form.password.errors.append(translate(wait.message))
    response = _page(invitation, form, 429, account=account)
    response.headers["Retry-After"] = str(wait.retry_after)
    return response


def _with_account(token: str, invitation: Invitation, account):
    """The invited address has an account: its password logs in and joins, throttled like the login page."""
    form = ExistingAccountForm()
    if not form.validate_on_submit():
        return _page(invitation, form, 400 if form.is_submitted() else 200, account=account)
    email, address = account.email, client_address()
    # As on the login page: an address over its limit (a venue behind one NAT) still has the right password let in.
    attempt = throttle.begin_login(email, address)
    if attempt.refused is not None:
        return _throttled(invitation, form, account, attempt.refused)
    user = user_service.authenticate(email, form.password.data)
    if user is None:
        seconds = throttle.failed(email, address)
        if (over := attempt.over_address_limit) is not None:
            return _throttled(invitation, form, account, throttle.Throttled(over.reason, max(over.retry_after, seconds)))
        form.password.errors.append(gettext("Wrong password.") + (
            " " + gettext("Wait %(time)s before trying again.", time=translate(throttle.wait_text(seconds)))
            if seconds else ""))
        return _page(invitation, form, 401, account=account)
    throttle.succeeded(email)
    try:
        member = invitation_service.accept_with_account(token, user)
    except ServiceError as exc:
        show_service_error(form, exc)
        return _page(invitation, form, exc.status_code, account=account)
    return _joined(member, new_login_for=user)


@bp.route("/<token>", methods=["GET", "POST"])
@link_page("invitation", invitation_service.invitation_for_token)
def accept(token: str, invitation: Invitation):
    account = invitation_service.account_for(invitation)

    if current_user.is_authenticated:
        if current_user.email.strip().lower() != invitation.email:
            # Someone else's browser session: never join the wrong account to the staff.
            return _page(invitation, None, 409, other_login=True)
        form = JoinForm()
        if form.validate_on_submit():
            try:
                member = invitation_service.accept_with_account(token, current_user)
            except ServiceError as exc:
                refuse()
                flash(translate(exc.message), "error")
                return _page(invitation, form, exc.status_code, joining=True)
            return _joined(member)
        return _page(invitation, form, 400 if form.is_submitted() else 200, joining=True)

    if account is not None:
        return _with_account(token, invitation, account)

    form = NewAccountForm()
    if form.validate_on_submit():
        try:
            user, member = invitation_service.accept_with_new_account(token, form.name.data, form.password.data)
        except LINK_REFUSED:
            raise  # used or withdrawn meanwhile: the problem page (link_page)
        except ServiceError as exc:
            show_service_error(form, exc)
            return _page(invitation, form, exc.status_code, new_account=True)
        return _joined(member, new_login_for=user)
    return _page(invitation, form, 400 if form.is_submitted() else 200, new_account=True)
