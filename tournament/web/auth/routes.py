"""Login and logout.

    GET/POST /login     log in (throttled per account and per client address: 429 with Retry-After)
    POST     /logout    log out this device (its session and remember cookies stop working everywhere)
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_user, logout_user

from tournament.services import throttle
from tournament.services import users as user_service
from tournament.web.auth.forms import LoginForm
from tournament.web.helpers import safe_next

bp = Blueprint("auth", __name__)


def _after_login() -> str:
    return safe_next(request.args.get("next"), url_for("tournaments.dashboard"))


def client_address() -> str:
    """The client's address (behind a reverse proxy, set TRUSTED_PROXIES so that this is not the proxy's)."""
    return request.remote_addr or "unknown"


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(_after_login())
    form = LoginForm()
    if form.validate_on_submit():
        email, address = form.email.data, client_address()
        # Counted before the password is checked: while throttled even the right password is refused.
        throttled = throttle.begin_attempt(email, address)
        if throttled is not None:
            form.password.errors.append(throttled.message)
            response = render_template("auth/login.html", form=form), 429
            return (*response, {"Retry-After": str(throttled.retry_after)})
        user = user_service.authenticate(email, form.password.data)
        if user is not None:
            throttle.succeeded(email)
            user_service.start_login(user, remember=bool(form.remember.data))
            login_user(user, remember=bool(form.remember.data))
            flash(f"Welcome, {user.display_name}.", "success")
            return redirect(_after_login())
        throttle.failed(email, address)
        form.password.errors.append("Wrong email or password.")
        return render_template("auth/login.html", form=form), 401
    return render_template("auth/login.html", form=form), 400 if form.is_submitted() else 200


@bp.route("/logout", methods=["POST"])
def logout():
    if current_user.is_authenticated:
        user_service.end_login(current_user.login_token)
    logout_user()
    flash("You are logged out.", "info")
    return redirect(url_for("public.home"))
