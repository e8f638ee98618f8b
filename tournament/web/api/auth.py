"""Bearer-token authentication for the JSON API (no cookies, hence no CSRF)."""

from __future__ import annotations

from functools import wraps

from flask import abort, g, request

from tournament.services import users as user_service


def token_required(view):
    @wraps(view)
    def wrapped(*args, **kwargs):
        header = request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            abort(401, "Send an API token: Authorization: Bearer <token>.")
        user = user_service.user_for_token(token.strip())
        if user is None:
            abort(401, "The API token is unknown or revoked.")
        g.api_user = user
        return view(*args, **kwargs)

    return wrapped
