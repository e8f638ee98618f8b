"""Backup and restore of a whole tournament.

    GET  /tournaments/{tid}/export.json   the backup document (the tournament's staff)
    POST /tournaments/import              body: a backup document -> 201 {"id"} of the new tournament
                                          (organisers); malformed, unknown version or inconsistent -> 422
"""

from __future__ import annotations

import json
from typing import Any

from flask import abort, jsonify, request
from marshmallow import Schema, fields

from tournament.models import Tournament
from tournament.services import backup as backup_service
from tournament.services.backup import ImportRefused
from tournament.web.api.common import api_blueprint, current_user, for_tournament

bp = api_blueprint("api_backup", "Backup and restore of a whole tournament as one JSON document.")

# A backup of 1,000 players x 10 sessions (40,000 hands with payments and history) is tens of megabytes;
# every other route keeps the application's MAX_CONTENT_LENGTH.
MAX_IMPORT_BYTES = 256 * 1024 * 1024

DOCUMENT = {"type": "object", "required": ["format_version"],
            "properties": {"format_version": {"type": "integer", "enum": [backup_service.FORMAT_VERSION]}},
            "additionalProperties": True}


class ImportedSchema(Schema):
    id = fields.Integer(required=True)


@bp.url_value_preprocessor
def _allow_large_backups(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before every before_request hook, so the input guard's read of the body already sees this limit.
    if endpoint == f"{bp.name}.import_tournament":
        request.max_content_length = MAX_IMPORT_BYTES


@bp.route("/tournaments/<int:tournament_id>/export.json", methods=["GET"])
@for_tournament("referee")
@bp.doc(responses={"200": {"description": "The backup document.",
                           "content": {"application/json": {"schema": DOCUMENT}}}})
def export_tournament(t: Tournament):
    """Everything of the tournament as one JSON object: settings, staff (by e-mail), players, sessions,
    seats, tables, hands, payments, false mahjongs, penalties, clock events and the score history.
    Ids are local to the document."""
    response = jsonify(backup_service.export_tournament(t))
    response.headers["Content-Disposition"] = f'attachment; filename="tournament-{t.id}-backup.json"'
    return response


@bp.route("/tournaments/import", methods=["POST"])
@bp.doc(requestBody={"required": True, "content": {"application/json": {"schema": DOCUMENT}}},
        responses={"201": {"description": "The new tournament's id.",
                           "content": {"application/json": {"schema": ImportedSchema}}},
                   "422": {"description": "Malformed, of an unknown version or inconsistent: nothing saved."}})
def import_tournament():
    """Restore a backup as a new tournament (organisers; the importer becomes one of its organisers).
    Accounts named in it must exist here (by e-mail): a restore creates none. Checked whole before anything
    is written; a refusal names the first problem by its path, e.g. `hands[3].session_id`."""
    user = current_user()
    if not user.is_organiser:
        abort(403, "Only organisers create tournaments.")
    try:
        document = json.loads(request.get_data(cache=True))
    except (ValueError, RecursionError):
        raise ImportRefused("The body is not a JSON document: send a backup from export.json.",
                            field="document") from None
    t = backup_service.import_tournament(document, user)
    response = jsonify({"id": t.id})
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/tournaments/{t.id}"
    return response
