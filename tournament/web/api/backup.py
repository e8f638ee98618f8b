"""Backup and restore of a whole tournament.

    GET  /tournaments/{tid}/export.json   the backup document (the tournament's staff)
    POST /tournaments/import              body: a backup document -> 201 {"id"} of the new tournament
                                          (organisers); malformed, unknown version or inconsistent -> 422
"""

from __future__ import annotations

from typing import Any

from flask import abort, jsonify, request
from marshmallow import Schema, fields

from tournament.models import Tournament
from tournament.services.documents import backup as backup_service
from tournament.services.documents.backup import ImportRefused
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.input_guard import BadInput, NotJson, limit_json_values, parse_json_body

bp = api_blueprint("api_backup", "Backup and restore of a whole tournament as one JSON document.")

# A backup of 1,000 players x 10 sessions (40,000 hands with payments and history) is tens of megabytes;
# every other route keeps the application's MAX_CONTENT_LENGTH.
MAX_IMPORT_BYTES = 256 * 1024 * 1024
# Values ([, { and , counted as the body arrives): ~1.6 million in the bench's 1,000 x 10 backup of 24 MB
# without history, ~6 million with a history row per hand. Parsed, a value takes 50-200 bytes: the budget
# bounds what a refused body can cost a worker, whatever its size.
MAX_IMPORT_VALUES = 12_000_000
# Objects ({ counted as the body arrives): an object costs 130 bytes or more parsed, and 5.2 million of them in
# 40 MB took a worker to 1.18 GB before the 422. A backup of 1,000 players x 10 sessions (40,000 hands) holds
# 193,000 objects in bench/_tournament.py's (no tiles, history or confirmations); played through the services
# as the demo plays, a hand is 20 objects at most (the hand and its fans 5, 4 payments, its history entry 7.5,
# 4 players' confirmations): the demo's backup scaled to 40,000 hands is 825,000 objects (86 MB, 360 MB parsed).
# Four times that, rounded up; a body of that many tiny objects peaks a worker at 840 MB (bench/bodies.py).
MAX_IMPORT_OBJECTS = 3_500_000

DOCUMENT = {"type": "object", "required": ["format_version"],
            "properties": {"format_version": {"type": "integer", "enum": list(backup_service.READABLE_VERSIONS)}},
            "additionalProperties": True}


class ImportedSchema(Schema):
    id = fields.Integer(required=True)
    staff_left_out = fields.List(fields.String(), metadata={"description": "Listed staff not confirmed."})


@bp.url_value_preprocessor
def _allow_large_backups(endpoint: str | None, values: dict[str, Any] | None) -> None:
    # Runs before every before_request hook, so the input guard's read of the body already sees this limit.
    if endpoint == f"{bp.name}.import_tournament":
        request.max_content_length = MAX_IMPORT_BYTES
        limit_json_values(MAX_IMPORT_VALUES, MAX_IMPORT_OBJECTS)


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
        parameters=[{"in": "query", "name": "staff", "required": False, "style": "form", "explode": True,
                     "description": "Listed staff addresses the importer confirms (invited as referees: they join when they accept).",
                     "schema": {"type": "array", "items": {"type": "string", "maxLength": 254}}}],
        responses={"201": {"description": "The new tournament's id.",
                           "content": {"application/json": {"schema": ImportedSchema}}},
                   "422": {"description": "Malformed, of an unknown version or inconsistent: nothing saved."}})
def import_tournament():
    """Restore a backup as a new tournament (organisers). The importer is the copy's only organiser; the
    staff the document lists are invited to it only when confirmed by address in the query, as referees
    (`?staff=ann@example.org&staff=bo@example.org`, or comma-separated), and join when they accept on their
    "My events" page: their accounts must exist here, a restore creates none. The answer lists the staff left out (`staff_left_out`). Who entered what is kept
    as text. Checked whole before anything is written; a refusal names the first problem by its path, e.g.
    `hands[3].session_id`."""
    user = current_user()
    if not user.is_organiser:
        abort(403, "Only organisers create tournaments.")
    # Read only now, for an organiser's token: the body's values are counted as it streams in.
    try:
        document = parse_json_body(request.get_data(cache=True))
    except NotJson:
        raise ImportRefused("The body is not a JSON document: send a backup from export.json.",
                            field="document") from None
    except BadInput as problem:  # too deep, a NUL, a lone surrogate: a broken backup like any other
        raise ImportRefused(problem.message, field=problem.field or "document") from None
    confirmed = [e for value in request.args.getlist("staff") for e in value.split(",") if e.strip()]
    t = backup_service.import_tournament(document, user, confirmed)
    taken = {e.strip().lower() for e in confirmed}
    left_out = [e for e in backup_service.listed_staff(document) if e not in taken and e != user.email.lower()]
    response = jsonify({"id": t.id, "staff_left_out": left_out})
    response.status_code = 201
    response.headers["Location"] = f"/api/v1/tournaments/{t.id}"
    return response
