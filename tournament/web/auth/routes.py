"""Login and logout.

    GET/POST /login     log in
    POST     /logout    log out
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_login import current_user, login_user, logout_user

from tournament.services import users as user_service
from tournament.web.auth.forms import LoginForm
from tournament.web.helpers import safe_next

bp = Blueprint("auth", __name__)


def _after_login() -> str:
    return safe_next(request.args.get("next"), url_for("tournaments.dashboard"))


@bp.route("/login", methods=["GET", "POST"])
def login():
    if current_user.is_authenticated:
        return redirect(_after_login())
    form = LoginForm()
    status = 200
    if form.validate_on_submit():
        user = user_service.authenticate(form.email.data, form.password.data)
        if user is not None:
            login_user(user, remember=form.remember.data)
            flash(f"Welcome, {user.display_name}.", "success")
            return redirect(_after_login())
        form.password.errors.append("Wrong email or password.")
        status = 401
    elif form.is_submitted():
        status = 400
    return render_template("auth/login.html", form=form), status


@bp.route("/logout", methods=["POST"])
def logout():
    logout_user()
    flash("You are logged out.", "info")
    return redirect(url_for("public.home"))
