"""JSON API under /api/v1, authenticated with per-user Bearer tokens, documented at /api/v1/openapi.json.

flask-smorest validates the bodies against the schemas of `schemas.py` and generates the OpenAPI
document from the same schemas, so neither is written by hand. Routes live in one module per area.
"""

from __future__ import annotations

from flask import Blueprint, Flask
from flask.blueprints import BlueprintSetupState

from tournament.web.api import (
    appeals,
    backup,
    clock,
    docs,
    exports,
    hands,
    meta,
    penalties,
    player_entry,
    players,
    referee_calls,
    sessions,
    standings,
    substitutions,
    tournaments,
)
from tournament.web.api.common import JsonApi
from tournament.web.api.openapi import ApiConventionsPlugin

AREAS = (tournaments.bp, players.bp, sessions.bp, hands.bp, penalties.bp, standings.bp, exports.bp, clock.bp,
         backup.bp, substitutions.bp, appeals.bp, player_entry.bp, player_entry.own,
         referee_calls.bp, meta.bp)

OPENAPI_CONFIG = {
    "API_TITLE": "MCR Tournament API",
    "API_VERSION": "v1",
    "OPENAPI_VERSION": "3.0.3",
    "OPENAPI_URL_PREFIX": "/api/v1",
    "OPENAPI_JSON_PATH": "openapi.json",
}

DESCRIPTION = (
    "The tournament's data and score entry for scripts and devices. Every route but the published clock needs "
    "`Authorization: Bearer <token>` (a token from the Account page or `flask users token EMAIL`). Bodies are "
    "JSON objects; keys a route does not know are ignored. Errors are `{\"error\": \"...\", \"field\": "
    "\"...\"}`: 400 for data that breaks a rule, 422 for a wrong type. Text may not hold NUL characters. A "
    "write may carry an `Idempotency-Key` header to be carried out once however often it is sent. The same "
    "document, readable: /api/docs."
)

# The application registers this blueprint like any other; registering it sets up the API's blueprints.
bp = Blueprint("api", __name__)


@bp.record_once
def _set_up_api(state: BlueprintSetupState) -> None:
    init_api(state.app)


def init_api(app: Flask) -> JsonApi:
    for key, value in OPENAPI_CONFIG.items():
        app.config.setdefault(key, value)
    api = JsonApi(app, spec_kwargs={"security": [{"bearerAuth": []}], "info": {"description": DESCRIPTION},
                                    "extra_plugins": [ApiConventionsPlugin()]})
    api.spec.components.security_scheme(
        "bearerAuth", {"type": "http", "scheme": "bearer", "description": "A token from `flask users token`."}
    )
    for area in AREAS:
        api.register_blueprint(area)
    docs.remember_api(app, api)
    app.register_blueprint(docs.bp)
    return api
