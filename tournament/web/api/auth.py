"""Bearer-token authentication for the JSON API (no cookies, hence no CSRF)."""

from __future__ import annotations

from flask import abort, g, request

from tournament.models import User
from tournament.services import users as user_service


def authenticate() -> User:
    """The user of the request's `Authorization: Bearer <token>` header, kept in `g.api_user`; 401 otherwise."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        abort(401, "Send an API token: Authorization: Bearer <token>.")
    user = user_service.user_for_token(token.strip())
    if user is None:
        abort(401, "The API token is unknown or revoked.")
    g.api_user = user
    return user
