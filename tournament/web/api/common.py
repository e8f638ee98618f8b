"""What every JSON API blueprint shares: Bearer-token authentication, the error format, strict JSON
parsing and the tournament/permission check that runs before a body is even read.

Errors are always `{"error": message}` plus `"field"` when one field is to blame; never HTML, never a 5xx
for bad input.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import flask_smorest
from flask import abort, g, jsonify
from flask_smorest import Api
from webargs import core as webargs_core
from webargs.flaskparser import FlaskParser
from werkzeug.exceptions import HTTPException

from tournament.extensions import csrf, db
from tournament.models import Tournament, User
from tournament.services import ServiceError
from tournament.services.people import tournaments as tournament_service
from tournament.web.api.auth import authenticate
from tournament.web.api.schemas import ErrorSchema, first_error
from tournament.web.helpers import tournament_or_404
from tournament.web.input_guard import BadInput, NotJson, parse_json_body
from tournament.web.unit import refuse


def error_body(message: str, field: str | None = None) -> dict[str, str]:
    body = {"error": message}
    if field:
        body["field"] = field
    return body


class ApiParser(FlaskParser):
    """webargs' parser, but a non-empty body that is not JSON is a 400, whatever its Content-Type says
    (curl -d sends form encoding by default): the body is read as JSON or refused, never ignored."""

    def _raw_load_json(self, req):  # type: ignore[no-untyped-def]
        # Reached in the view, after the token and the tournament permission were checked: only a client
        # allowed to write here makes the server read and parse a body (input_guard.parse_json_body).
        data = req.get_data(cache=True)
        if not data.strip():
            return webargs_core.missing
        try:
            return parse_json_body(data)
        except NotJson:
            abort(400, "The body is not valid JSON: send a JSON object.")


class ApiBlueprint(flask_smorest.Blueprint):
    ARGUMENTS_PARSER = ApiParser()


class JsonApi(Api):
    """flask-smorest's Api with our error payload documented, and no app-wide error handler: the HTML
    pages keep theirs, the API blueprints install their own (`api_blueprint`)."""

    ERROR_SCHEMA = ErrorSchema

    def _register_error_handlers(self) -> None:
        pass


def _http_error(exc: HTTPException):
    db.session.rollback()
    data = getattr(exc, "data", None) or {}
    field = None
    message = exc.description or exc.name
    if "messages" in data:  # webargs: {"json": {"field": ["message"]}}
        messages = data["messages"]
        if isinstance(messages, dict) and len(messages) == 1:
            messages = next(iter(messages.values()))
        field, message = first_error(messages)
    if exc.code == 404 and "requested URL was not found" in message:
        message = "Nothing here: no such id."
    response = jsonify(error_body(message, field))
    response.status_code = exc.code or 400
    if exc.code == 405 and hasattr(exc, "valid_methods") and exc.valid_methods:
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    if exc.code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="api"'
    return response


def _service_error(exc: ServiceError):
    refuse()  # the 4xx rolls the unit back too; the flag also tells the idempotency hook
    db.session.rollback()
    field = exc.field or next(iter(exc.errors), None)
    # A form-style summary ("correct the marked fields") says nothing without the form: name the problem.
    message = exc.message if exc.field or not exc.errors else exc.errors[field]  # type: ignore[index]
    response = jsonify(error_body(message, field))
    response.status_code = exc.status_code
    if retry_after := getattr(exc, "retry_after", None):  # a throttle's refusal (429) says how long
        response.headers["Retry-After"] = str(retry_after)
    return response


def _bad_input(exc: BadInput):
    db.session.rollback()
    response = jsonify(error_body(exc.message, exc.field))
    response.status_code = exc.status
    return response


def _authenticate() -> None:
    # A before_request hook's return value would become the response: drop the user, keep the check.
    # Ids past PostgreSQL's integer range never reach here: the `int` URL converter refuses them (a 404).
    authenticate()


def api_blueprint(name: str, description: str, *, bearer: bool = True) -> ApiBlueprint:
    """A blueprint of the API: token required on every route, JSON errors, no CSRF (no cookies used).
    `bearer` False: the players' own routes, where the private link's token in the path is the credential."""
    bp = ApiBlueprint(name, __name__, url_prefix="/api/v1", description=description)
    csrf.exempt(bp)
    if bearer:
        bp.before_request(_authenticate)
    bp.register_error_handler(HTTPException, _http_error)
    bp.register_error_handler(ServiceError, _service_error)
    bp.register_error_handler(BadInput, _bad_input)
    return bp


def current_user() -> User:
    return g.api_user


def require_user() -> User:
    """The token's user; a 401 without one (the routes whose reading needs no token, e.g. a published
    session's clock, ask for it only where they act)."""
    if g.get("api_user") is None:
        abort(401, "Send an API token: Authorization: Bearer <token>.")
    return g.api_user


def for_tournament(permission: str | None = None) -> Callable:
    """Check there is a token (401), look the tournament up (404) and check the token's user may act on it
    (403) before the body is parsed; the view receives it as `t`. permission: None (any token), "manage" (its
    organisers) or "referee" (its staff)."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(*args: Any, tournament_id: int, **kwargs: Any) -> Any:
            user = require_user()
            t: Tournament = tournament_or_404(tournament_id)
            if permission == "manage" and not tournament_service.can_manage(user, t):
                abort(403, "You are not an organiser of this tournament.")
            if permission == "referee" and not tournament_service.can_referee(user, t):
                abort(403, "You are not on the staff of this tournament.")
            return view(*args, t=t, **kwargs)

        return wrapped

    return decorator
