"""Small helpers shared by the blueprints: access checks, form handling, safe redirects, template globals."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar
from urllib.parse import urlsplit

from flask import Flask, abort, flash, redirect, request
from flask_babel import gettext
from flask_login import current_user, login_required
from werkzeug.exceptions import NotFound
from werkzeug.wrappers import Response

from tournament.extensions import login_manager
from tournament.i18n import N_
from tournament.i18n.service_messages import translate
from tournament.messages import msg
from tournament.models import TIE_BREAKS, Player, PlayerStatus, SessionStatus, Tournament, User
from tournament.services import ServiceError
from tournament.services.core import errors
from tournament.services.people import player_links
from tournament.services.people import tournaments as tournament_service
from tournament.services.people import users as user_service
from tournament.services.results.visibility import HIDDEN_MESSAGE, HIDDEN_TITLE, standings_visible_to
from tournament.web import local_time
from tournament.web.unit import refuse

T = TypeVar("T")


login_manager.login_message = N_("Please log in to open that page.")
login_manager.localize_callback = gettext  # flashed in the reader's language
login_manager.login_message_category = "info"


@login_manager.user_loader
def load_user(login_token: str) -> User | None:
    # Flask-Login's "user id" is a login session's token (User.get_id): a revoked session loads nobody.
    return user_service.user_for_login(login_token)


def organiser_required(view):
    """The logged-in user must have the organiser role."""

    @wraps(view)
    @login_required
    def wrapped(*args, **kwargs):
        if not current_user.is_organiser:
            abort(403, msg("This page is for organisers."))
        return view(*args, **kwargs)

    return wrapped


def tournament_or_404(tournament_id: int) -> Tournament:
    """The tournament; the service's NotFound becomes the 404 page (or JSON) in the error handlers."""
    return tournament_service.get_tournament(tournament_id)


class StandingsHidden(NotFound):
    """A 404 whose page says what happened (the error page's heading is the exception's name)."""

    name = HIDDEN_TITLE
    description = HIDDEN_MESSAGE


def visible_standings_or_404(t: Tournament) -> Tournament:
    """Standings, session results and statistics: hidden from everyone but the staff while the organisers say so."""
    if not standings_visible_to(current_user, t):
        raise StandingsHidden()
    return t


def managed_tournament(tournament_id: int) -> Tournament:
    """The tournament, if the current user organises it (403 otherwise)."""
    t = tournament_or_404(tournament_id)
    if not tournament_service.can_manage(current_user, t):
        abort(403, msg("You are not an organiser of this tournament."))
    return t


def refereed_tournament(tournament_id: int) -> Tournament:
    """The tournament, if the current user is on its staff (organiser or referee)."""
    t = tournament_or_404(tournament_id)
    if not tournament_service.can_referee(current_user, t):
        abort(403, msg("You are not on the staff of this tournament."))
    return t


def show_service_error(form, error: ServiceError) -> None:
    """Put a service's field errors next to the fields; anything else becomes a flash message (both in the
    reader's language, i18n.service_messages). The request
    is marked refused: what the service flushed before refusing is rolled back."""
    refuse()
    placed = False
    for name, message in error.errors.items():
        field = getattr(form, name, None) if form is not None else None
        if field is not None and field.type != "HiddenField":  # nobody sees a hidden field's errors
            field.errors = [*list(field.errors or []), translate(message)]
            placed = True
    if not placed or not error.errors:
        flash(translate(error.message), "error")


def submit_form(form, action: Callable[[], T], success: Callable[[T], tuple[str, str]]) -> Response | None:
    """The POST half of a form view: validate, call the service, then flash `success`'s message and
    redirect to its URL. None when the page must be shown again, with the errors next to the fields."""
    if not form.validate_on_submit():
        return None
    try:
        result = action()
    except ServiceError as exc:
        show_service_error(form, exc)
        return None
    message, url = success(result)
    flash(message, "success")
    return redirect(url)


def form_post(url: str, action: Callable[[], T], done: str | Callable[[T], str], *, form=None,
              invalid: str | Callable[[object], None] | None = None, category: str = "info") -> Response:
    """The flash-and-redirect form post: when `form` validates (or there is none), call the service and
    flash `done` (or `done(result)`), or its refusal, marking the request refused so that what it flushed
    is rolled back; an invalid form flashes `invalid` (or calls it with the form). Redirects to `url`."""
    if form is not None and not form.validate_on_submit():
        if callable(invalid):
            invalid(form)
        elif invalid:
            flash(invalid, "error")
        return redirect(url)
    try:
        result = action()
    except ServiceError as exc:
        refuse()
        flash(translate(exc.message), "error")
    else:
        flash(done(result) if callable(done) else done, category)
    return redirect(url)


def safe_next(target: str | None, fallback: str) -> str:
    """`target` when it is a path on this site, else `fallback`: a `next` parameter is no open redirect."""
    if target and target.startswith("/") and not target.startswith(("//", "/\\")):
        parts = urlsplit(target)
        if not parts.scheme and not parts.netloc:
            return target
    return fallback


def init_app(app: Flask) -> None:
    @app.context_processor
    def globals_for_templates():
        return {
            "can_manage": lambda t: tournament_service.can_manage(current_user, t),
            "can_referee": lambda t: tournament_service.can_referee(current_user, t),
            "tie_break_labels": TIE_BREAKS,
        }

    # Jinja globals, not context: macros imported without context see them too.
    app.jinja_env.globals.update(PlayerStatus=PlayerStatus, SessionStatus=SessionStatus)
    local_time.init_app(app)  # the `local` filter: times in the tournament's zone


def client_address() -> str:
    """The client's address (behind a reverse proxy, set TRUSTED_PROXIES so that this is not the proxy's)."""
    return request.remote_addr or "unknown"


def linked_player(link_token: str, *, say_why: bool) -> Player:
    """The player whose private link `link_token` is: the one check of the player's page and the API's player
    routes. An unknown or renewed token is a 404, counted against the client's address
    (`player_links.open_link`); with `say_why` (the API) its description says the link is not valid, without
    (the page) it is the site's own 404, which says nothing about links. An address that tried too many gets
    the service's LinkThrottled (429, Retry-After), which goes on to the error handlers."""
    try:
        return player_links.open_link(link_token, client_address())
    except errors.NotFound as exc:
        abort(exc.status_code, exc.message if say_why else None)
