"""The logged-in user's account and API tokens.

    GET      /account                     account page with tokens
    POST     /account/tokens              create a token (shown once)
    POST     /account/tokens/<id>/revoke  revoke a token
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_login import current_user, login_required

from tournament.services import ServiceError
from tournament.services import users as user_service
from tournament.web.account.forms import RevokeForm, TokenForm
from tournament.web.helpers import show_service_error

bp = Blueprint("account", __name__, url_prefix="/account")


@bp.route("")
@login_required
def index():
    return render_template("account/index.html", form=TokenForm(), revoke_form=RevokeForm(), new_token=None)


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
            return render_template("account/index.html", form=TokenForm(formdata=None),
                                   revoke_form=RevokeForm(), new_token=plain)
    return render_template("account/index.html", form=form, revoke_form=RevokeForm(), new_token=None), 400


@bp.route("/tokens/<int:token_id>/revoke", methods=["POST"])
@login_required
def revoke_token(token_id: int):
    if RevokeForm().validate_on_submit():
        user_service.revoke_api_token(current_user, token_id)
        flash("Token revoked.", "success")
    return redirect(url_for("account.index"))
