"""Small helpers shared by the blueprints: access checks, form errors, template globals."""

from __future__ import annotations

from functools import wraps

from flask import Flask, abort, flash
from flask_login import current_user, login_required

from tournament.extensions import db, login_manager
from tournament.models import TIE_BREAKS, Tournament, User
from tournament.services import ServiceError
from tournament.services import tournaments as tournament_service


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    try:
        return db.session.get(User, int(user_id))
    except (TypeError, ValueError):
        return None


def organiser_required(view):
    """The logged-in user must have the organiser role."""

    @wraps(view)
    @login_required
    def wrapped(*args, **kwargs):
        if not current_user.is_organiser:
            abort(403, "This page is for organisers.")
        return view(*args, **kwargs)

    return wrapped


def tournament_or_404(tournament_id: int) -> Tournament:
    t = db.session.get(Tournament, tournament_id)
    if t is None:
        abort(404, "No such tournament.")
    return t


def managed_tournament(tournament_id: int) -> Tournament:
    """The tournament, if the current user organises it (403 otherwise)."""
    t = tournament_or_404(tournament_id)
    if not tournament_service.can_manage(current_user, t):
        abort(403, "You are not an organiser of this tournament.")
    return t


def refereed_tournament(tournament_id: int) -> Tournament:
    """The tournament, if the current user is on its staff (organiser or referee)."""
    t = tournament_or_404(tournament_id)
    if not tournament_service.can_referee(current_user, t):
        abort(403, "You are not on the staff of this tournament.")
    return t


def show_service_error(form, error: ServiceError) -> None:
    """Put a service's field errors next to the fields; anything else becomes a flash message."""
    placed = False
    for name, message in error.errors.items():
        field = getattr(form, name, None) if form is not None else None
        if field is not None:
            field.errors = [*list(field.errors or []), message]
            placed = True
    if not placed or not error.errors:
        flash(error.message, "error")


def init_app(app: Flask) -> None:
    @app.context_processor
    def globals_for_templates():
        return {
            "can_manage": lambda t: tournament_service.can_manage(current_user, t),
            "can_referee": lambda t: tournament_service.can_referee(current_user, t),
            "tie_break_labels": TIE_BREAKS,
        }
