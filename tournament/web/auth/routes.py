"""Login and logout.

    GET/POST /login     log in (slowed down per account, per trusted device and per client address: 429 with
                        Retry-After while a delay runs; an address over its limit is answered 429 for wrong
                        passwords only; see tournament.services.core.throttle)
    POST     /logout    log out this device (its session and remember cookies stop working everywhere); while the
                        account has hands kept on this device and not sent (the offline queue's count, see
                        tournament.web.offline), first to the page below
    GET      /logout    those hands: "Send now" or "Discard", then the logout (static/js/offline-queue.js)
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_user, logout_user

from tournament.i18n.service_messages import translate
from tournament.services.core import throttle
from tournament.services.people import users as user_service
from tournament.web import offline
from tournament.web.auth import devices
from tournament.web.auth.forms import LoginForm
from tournament.web.helpers import client_address, safe_next

bp = Blueprint("auth", __name__)


@bp.record_once
def offline_owner(state) -> None:
    # The owner of the hands a page keeps, for <html data-offline-owner> (templates/_offline_texts.html), and the
    # hand forms' check that a kept hand is sent by its owner.
    state.app.jinja_env.globals["offline_owner"] = offline.page_owner
    state.app.before_request(offline.refuse_another_owners_hand)


def _after_login() -> str:
    return safe_next(request.args.get("next"), url_for("tournaments.dashboard"))


def _throttled(form: LoginForm, throttled: throttle.Throttled):
    form.password.errors.append(translate(throttled.message))
    response = render_template("auth/login.html", form=form), 429
    return (*response, {"Retry-After": str(throttled.retry_after)})


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(_after_login())
    form = LoginForm()
    if form.validate_on_submit():
        email, address = form.email.data, client_address()
        # A device that has logged in to this account before is judged by its own failures, not the account's.
        device = devices.trusted_device(email)
        # Counted before the password is checked: while a delay runs even the right password waits it out.
        attempt = throttle.begin_login(email, address, device)
        if attempt.refused is not None:
            return _throttled(form, attempt.refused)
        user = user_service.authenticate(email, form.password.data)
        if user is not None:
            throttle.succeeded(email, device)
            user_service.start_login(user, remember=bool(form.remember.data))
            login_user(user, remember=bool(form.remember.data))
            flash(gettext("Welcome, %(name)s.", name=user.display_name), "success")
            response = redirect(_after_login())
            devices.remember_device(response, email)
            return response
        wait = throttle.failed(email, address, device)
        # The address's limit slows the wrong passwords only: the same 429 whoever's email was typed.
        if (over := attempt.over_address_limit) is not None:
            return _throttled(form, throttle.Throttled(over.reason, max(over.retry_after, wait)))
        form.password.errors.append(gettext("Wrong email or password.") + (
            " " + gettext("Wait %(time)s before trying again.", time=translate(throttle.wait_text(wait))) if wait else ""))
        response = render_template("auth/login.html", form=form), 401
        return (*response, {"Retry-After": str(wait)}) if wait else response
    return render_template("auth/login.html", form=form), 400 if form.is_submitted() else 200


@bp.route("/logout", methods=["POST"])
def logout():
    if current_user.is_authenticated:
        # Hands this account kept on this device are sent or discarded first, never left for whoever logs in next.
        # The logout page's own form says it has been asked ("offline"); without the script nothing is ever kept.
        if "offline" not in request.form and offline.hands_not_sent(current_user.id):
            return redirect(url_for("auth.logout_page"), 303)
        user_service.end_login(current_user.login_token)
    logout_user()
    flash(gettext("You are logged out."), "info")
    return redirect(url_for("public.home"))


@bp.route("/logout", methods=["GET"])
def logout_page():
    if not current_user.is_authenticated:
        return redirect(url_for("public.home"))
    return render_template("auth/logout.html")
