"""The logged-in user's account: API tokens, password, logins.

    GET      /account                     account page with tokens (never cached: it shows new tokens)
    POST     /account/tokens              create a token (shown once)
    POST     /account/tokens/<id>/revoke  revoke a token
    POST     /account/password            change the password (every other login and every API token ends)
    POST     /account/logout-everywhere   end every login and API token of the account, this one included
    POST     /account/language            the account's language for the pages (none: the browser's)
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext, ngettext
from flask_login import current_user, login_required, login_user, logout_user

from tournament.i18n import remember_language
from tournament.services import ServiceError
from tournament.services.people import users as user_service
from tournament.web.account.forms import (
    LanguageForm,
    LogoutEverywhereForm,
    PasswordForm,
    RevokeForm,
    TokenForm,
)
from tournament.web.helpers import show_service_error

bp = Blueprint("account", __name__, url_prefix="/account")


def _page(status: int = 200, **forms):
    context = {
        "form": TokenForm(formdata=None),
        "password_form": PasswordForm(formdata=None),
        "revoke_form": RevokeForm(),
        "logout_form": LogoutEverywhereForm(),
        "language_form": LanguageForm(formdata=None, language=current_user.language or ""),
        "new_token": None,
        "login_count": user_service.login_count(current_user),
    }
    context.update(forms)
    return render_template("account/index.html", **context), status


@bp.route("")
@login_required
def index():
    return _page()


@bp.route("/tokens", methods=["POST"])
@login_required
def create_token():
    form = TokenForm()
    if form.validate_on_submit():
        try:
            _, plain = user_service.create_api_token(current_user, form.name.data)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            return _page(new_token=plain)
    return _page(400, form=form)


@bp.route("/tokens/<int:token_id>/revoke", methods=["POST"])
@login_required
def revoke_token(token_id: int):
    if RevokeForm().validate_on_submit():
        user_service.revoke_api_token(current_user, token_id)
        flash(gettext("Token revoked."), "success")
    return redirect(url_for("account.index"))


@bp.route("/password", methods=["POST"])
@login_required
def change_password():
    form = PasswordForm()
    if form.validate_on_submit():
        remember = user_service.login_remembered(current_user.login_token)
        try:
            revoked = user_service.change_password(current_user, form.current_password.data,
                                                   form.new_password.data)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            # Every login ended with the old password; this device goes on with a new one (new cookies).
            user = current_user._get_current_object()
            user_service.start_login(user, remember=remember)
            login_user(user, remember=remember)
            flash(ngettext("Password changed. Every other device has been logged out and %(num)d API token revoked.",
                           "Password changed. Every other device has been logged out and %(num)d API tokens revoked.",
                           revoked) if revoked else
                  gettext("Password changed. Every other device has been logged out."), "success")
            return redirect(url_for("account.index"))
    return _page(400, password_form=form)


@bp.route("/language", methods=["POST"])
@login_required
def set_language():
    form = LanguageForm()
    if form.validate_on_submit():
        try:
            user_service.set_language(current_user, form.language.data)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            flash(gettext("Language saved."), "success")
            # This browser's lang cookie (the footer's switcher) comes before the account's language: it follows
            # the choice made here, or goes with "the browser's language", so the choice shows at once.
            return remember_language(redirect(url_for("account.index")), form.language.data or None)
    return _page(400, language_form=form)


@bp.route("/logout-everywhere", methods=["POST"])
@login_required
def logout_everywhere():
    if LogoutEverywhereForm().validate_on_submit():
        ended, revoked = user_service.log_out_everywhere(current_user)
        logout_user()
        logins = ngettext("%(num)d login ended", "%(num)d logins ended", ended)
        if revoked:
            logins = gettext("%(logins)s, %(tokens)s", logins=logins, tokens=ngettext(
                "%(num)d API token revoked", "%(num)d API tokens revoked", revoked))
        flash(gettext("Logged out everywhere (%(logins)s). Log in again here.", logins=logins), "info")
        return redirect(url_for("auth.login"))
    return redirect(url_for("account.index"))
