"""Idempotency keys at the web edge, for every write of every route.

A write (POST, PUT, PATCH, DELETE) of a logged-in user or API token may carry a key: the API's
`Idempotency-Key` header, or a form's hidden `idempotency_key` field (`IdempotentForm`, a new key each time
the form is shown). The key is claimed before the view runs (`tournament.services.core.idempotency.claim`) and
the answer recorded after it, in the request's one transaction, so the answer is stored exactly when the
write is. A request sent again with the same key gets the first answer back (header `Idempotent-Replayed`),
without running the view; with the same key but another path or body it is a 422. Bodies are compared as
canonical JSON (keys sorted, no spaces) when they are JSON, so a client that orders its keys differently on
a retry is still recognised; any other body byte for byte.

A replay needs the rights the first request was carried out with (checked here, before the view would check
them, because the view does not run on a replay): a user removed from the tournament's staff, or demoted,
since then gets a 403, never the stored answer (`tournament.services.core.idempotency.Rights`).

What is remembered: for the API, any answer below 400; for a form, a redirect (the write is done and the
browser moves on). A form shown again (errors, a preview) keeps its key free for the corrected send. An
error answer stores nothing (the unit of work rolls back), so a retry is carried out afresh.
"""

from __future__ import annotations

import hashlib
import json
import secrets

from flask import Flask, Response, flash, g, request
from flask_login import current_user
from flask_wtf import FlaskForm
from sqlalchemy import inspect
from wtforms import HiddenField

from tournament.extensions import db
from tournament.models import Tournament, User
from tournament.services.core import idempotency
from tournament.services.core.errors import ServiceError
from tournament.services.people import player_links
from tournament.web.api import auth as api_auth
from tournament.web.errors import error_response

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
WRITES = {"POST", "PUT", "PATCH", "DELETE"}
MAX_STORED_BODY = 1024 * 1024
# Larger JSON bodies (a backup import) are compared byte for byte: parsing them again here would double the
# memory the view needs for them, and a retry from a client library sends the same bytes anyway.
MAX_CANONICAL_BODY = 1024 * 1024
REPLAYED_FORM = "This form was already sent: it was saved once."
# Fields that differ between two sendings of the same form without changing what it asks for.
UNSIGNED_FIELDS = {"csrf_token", FORM_FIELD}


def new_key() -> str:
    return secrets.token_urlsafe(24)


class IdempotentForm(FlaskForm):
    """A form whose sending is carried out once, however often it is sent (double clicks, two tabs on one
    page, a retry after a lost connection): `hidden_tag()` renders the key with the CSRF token."""

    idempotency_key = HiddenField(default=new_key)


def _request_key() -> tuple[str, str] | None:
    key = request.headers.get(HEADER)
    if key is not None:
        return key.strip(), "api"
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        key = request.form.get(FORM_FIELD)
        if key:
            return key, "form"
    return None


def _user() -> User | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return api_auth.bearer_user()
    if current_user.is_authenticated:
        return current_user
    return None


def canonical_body(data: bytes, is_json: bool) -> bytes:
    """The body as compared between two sendings: JSON re-serialised with sorted keys and no spaces (the same
    document however it is laid out), anything else (or JSON that does not parse, or a huge one) as sent."""
    if not is_json or len(data) > MAX_CANONICAL_BODY:
        return data
    try:
        text = json.dumps(json.loads(data), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    except (ValueError, RecursionError):
        return data
    return text.encode("utf-8", "surrogatepass")


def _fingerprint(source: str) -> str:
    digest = hashlib.sha256(f"{request.method} {request.path}?{request.query_string.decode('latin-1')}\n".encode())
    if source == "form":
        for name, value in sorted(request.form.items(multi=True)):
            if name not in UNSIGNED_FIELDS:
                digest.update(f"{name}={value}\n".encode("utf-8", "surrogatepass"))
        for name, upload in sorted(request.files.items(multi=True), key=lambda item: item[0]):
            digest.update(f"{name}:{upload.filename}:".encode("utf-8", "surrogatepass"))
            digest.update(upload.stream.read())
            upload.stream.seek(0)
    else:
        digest.update(canonical_body(request.get_data(cache=True), request.is_json))
    return digest.hexdigest()


def _replay(stored: idempotency.Replay, source: str) -> Response:
    response = Response(stored.body or "", status=stored.status_code, content_type=stored.content_type or None)
    if stored.location:
        response.headers["Location"] = stored.location
    response.headers["Idempotent-Replayed"] = "true"
    if source == "form":
        flash(REPLAYED_FORM, "info")
    return response


def init_app(app: Flask) -> None:
    """Registered after the unit of work: claims run after it begins, answers are recorded before it commits."""

    @app.before_request
    def claim_idempotency_key():
        # No such route or method (a 404, a 405): nothing would be carried out, so no key is claimed.
        if request.method not in WRITES or request.routing_exception is not None:
            return None
        found = _request_key()
        if found is None:
            return None
        key, source = found
        link_token = (request.view_args or {}).get("link_token")
        # A player's own route: the link is the credential, whatever Authorization header comes along.
        user = None if link_token is not None else _user()
        player = player_links.player_for_token(link_token) if link_token else None
        if user is None and player is None:  # not logged in: the view refuses the request anyway
            return None
        tournament_id = (request.view_args or {}).get("tournament_id")
        try:
            if player is not None:  # a player sending from their private link (an offline queue's retry)
                outcome = idempotency.claim(None, key, _fingerprint(source), idempotency.PLAYER_RIGHTS,
                                            player_id=player.id)
            else:
                # The tournament the view loads next, kept for it (the identity map holds objects weakly): its
                # staff are read once for both (a statement less per write).
                g.idempotency_tournament = (db.session.get(Tournament, tournament_id)
                                            if isinstance(tournament_id, int) else None)
                now = idempotency.rights(user, g.idempotency_tournament)
                outcome = idempotency.claim(user.id, key, _fingerprint(source), now)
        except ServiceError as exc:
            return error_response(exc.status_code, "Idempotency key", exc.message)
        if isinstance(outcome, idempotency.Replay):
            return _replay(outcome, source)
        g.idempotency_claim = (outcome, source)
        return None

    @app.after_request
    def record_idempotent_answer(response: Response) -> Response:
        claimed = g.pop("idempotency_claim", None)
        if claimed is None:
            return response
        row, source = claimed
        # An error or a refusal rolls the whole unit back (the claim with it); a rollback inside the view
        # (a service's conflict) already took the claim away.
        if response.status_code >= 400 or g.get("unit_refused") or not inspect(row).persistent:
            return response
        if source == "form" and not 300 <= response.status_code < 400:
            idempotency.release(row)
            return response
        body = None
        if not response.is_streamed and not response.direct_passthrough:
            data = response.get_data()
            if len(data) <= MAX_STORED_BODY:
                body = data.decode("utf-8", "replace")
        idempotency.record(row, response.status_code, body, response.content_type or "",
                           response.headers.get("Location", ""))
        return response
