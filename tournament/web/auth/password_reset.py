"""A forgotten password, in the browser.

    GET/POST /forgot-password          "Forgot your password?": mails a link when this site sends mail; the same
                                       answer whether or not an account uses the address; limited per network
                                       address (tournament.services.core.throttle) and per account
    GET/POST /reset-password/<token>   choose a new password (the link works once, for an hour); every login and
                                       API token of the account ends, and this browser is logged in anew
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from flask_login import login_user

from tournament.i18n.service_messages import translate
from tournament.models.account_links import PasswordReset
from tournament.services import ServiceError
from tournament.services.core import throttle
from tournament.services.people import password_resets
from tournament.services.people import users as user_service
from tournament.services.people.password_resets import RESET_LIFETIME
from tournament.web import mailer
from tournament.web.account.link_forms import ForgotPasswordForm, NewPasswordForm
from tournament.web.account.link_pages import LINK_REFUSED, link_page, private
from tournament.web.helpers import client_address, show_service_error

bp = Blueprint("password_reset", __name__)

MINUTES = int(RESET_LIFETIME.total_seconds() // 60)


def _forgot_page(form, status: int = 200, sent_to: str | None = None):
    return render_template("auth/forgot_password.html", form=form, sent_to=sent_to, minutes=MINUTES,
                           mail_configured=mailer.configured()), status


@bp.route("/forgot-password", methods=["GET", "POST"])
def forgot():
    form = ForgotPasswordForm()
    if not mailer.configured():
        # Nothing to send the link with: the page says whom to ask instead.
        return _forgot_page(form, 400 if form.is_submitted() else 200)
    if not form.validate_on_submit():
        return _forgot_page(form, 400 if form.is_submitted() else 200)
    address = client_address()
    wait = throttle.address_throttled(address, "password reset request")
    if wait is not None:
        form.email.errors.append(gettext("Too many requests from your network address. Wait %(time)s and try again.",
                                         time=translate(throttle.wait_text(wait.retry_after))))
        status_page = _forgot_page(form, 429)
        return (*status_page, {"Retry-After": str(wait.retry_after)})
    throttle.count_for_address(address, throttle.RESET_REQUEST_KEY)
    found = password_resets.requested(form.email.data)
    if found is not None:
        user, token = found
        mailer.queue(user.email, _l("Choose a new password"), "auth/reset_email.txt", language=user.language,
                     url=url_for("password_reset.reset", token=token, _external=True), user=user,
                     tournament=None, minutes=MINUTES)
    # The same page whether or not an account uses the address (and the mail goes after the answer).
    return _forgot_page(ForgotPasswordForm(formdata=None), sent_to=form.email.data.strip())


@bp.route("/reset-password/<token>", methods=["GET", "POST"])
@link_page("reset", password_resets.reset_for_token)
def reset(token: str, found: PasswordReset):
    form = NewPasswordForm()
    status = 400 if form.is_submitted() else 200
    if form.validate_on_submit():
        try:
            user, _ended, revoked = password_resets.use(token, form.password.data)
        except LINK_REFUSED:
            raise  # used meanwhile: the problem page (link_page)
        except ServiceError as exc:
            show_service_error(form, exc)
            status = exc.status_code
        else:
            user_service.start_login(user)
            login_user(user)
            flash(ngettext("New password set. Every other login of your account has ended and %(num)d API token "
                           "revoked.", "New password set. Every other login of your account has ended and %(num)d "
                           "API tokens revoked.", revoked) if revoked else
                  gettext("New password set. Every other login of your account has ended."), "success")
            return redirect(url_for("tournaments.dashboard"))
    return private(render_template("auth/reset_password.html", form=form, reset=found), status)
