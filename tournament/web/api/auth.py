"""Bearer-token authentication for the JSON API (no cookies, hence no CSRF)."""

from __future__ import annotations

from flask import abort, g, request

from tournament.models import User
from tournament.services.people import users as user_service

_BEARER = "tournament.bearer_user"


def bearer_user() -> User | None:
    """The live user of the request's bearer token, looked up once per request (the idempotency check asks
    before the view does); None without a token or for an unknown or revoked one."""
    # Kept in the request's environ: `g` belongs to the app context, which can outlive a request (tests).
    if _BEARER not in request.environ:
        scheme, _, token = request.headers.get("Authorization", "").partition(" ")
        token = token.strip() if scheme.lower() == "bearer" else ""
        request.environ[_BEARER] = user_service.user_for_token(token) if token else None
    return request.environ[_BEARER]


def authenticate() -> User:
    """The user of the request's `Authorization: Bearer <token>` header, kept in `g.api_user`; 401 otherwise."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, "Send an API token: Authorization: Bearer <token>.")
    user = bearer_user()
    if user is None:
        abort(401, "The API token is unknown or revoked.")
    g.api_user = user
    return user
