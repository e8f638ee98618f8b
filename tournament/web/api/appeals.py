"""Appeals against a ruling (GB 3.12.2, MERS 2.1) and their decisions (its staff)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from tournament.models import HANDS_PER_SESSION, AppealDecision, Tournament
from tournament.services.play import appeals as appeal_service
from tournament.services.play.appeals import MAX_TEXT, appeal_json
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import ID, LINES, BodySchema, StrictInteger, documented

bp = api_blueprint("api_appeals", "Appeals and their decisions (its staff).")

APPEALS = "/tournaments/<int:tournament_id>/appeals"
NEW_APPEAL = {"session": 2, "table": 3, "hand": 7, "player_id": 12,
              "text": "The referee gave no Last Tile: the fourth 5p was exposed on table 3."}
APPEAL = {"id": 1, **NEW_APPEAL, "filed_by": "Referee Rui", "filed_at": "2026-05-16T12:02:07Z", "decision": None,
          "decision_text": "", "decided_by": None, "decided_at": None, "correction_id": None}
DECISION = {"decision": "upheld", "text": "Last Tile stands: hand 7 corrected."}


class AppealInSchema(BodySchema):
    session = StrictInteger(required=True, validate=ID)
    table = StrictInteger(required=True, validate=ID)
    hand = StrictInteger(allow_none=True, validate=validate.Range(min=1, max=HANDS_PER_SESSION), metadata={
        "description": "The hand appealed about, or null for the session at that table."})
    player_id = StrictInteger(required=True, validate=ID, metadata={
        "description": "Who appeals: a player who sat at that table in that session (drawn or substitute)."})
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TEXT),
                         metadata=documented(pattern=LINES))


class DecisionInSchema(BodySchema):
    decision = fields.String(required=True, validate=validate.OneOf([d.value for d in AppealDecision]))
    text = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TEXT),
                         metadata=documented(pattern=LINES))
    score_change_id = StrictInteger(allow_none=True, validate=ID, metadata={
        "description": "Upheld: the entry of the session's history that corrected it; omitted: the latest change "
                       "of the appeal's table (and hand) since it was filed, if any."})


class AppealSchema(Schema):
    id = fields.Integer()
    session = fields.Integer()
    table = fields.Integer()
    hand = fields.Integer(allow_none=True)
    player_id = fields.Integer()
    text = fields.String()
    filed_by = fields.String()
    filed_at = fields.String()
    decision = fields.String(allow_none=True, metadata={"description": "null while open; upheld or rejected."})
    decision_text = fields.String()
    decided_by = fields.String(allow_none=True)
    decided_at = fields.String(allow_none=True)
    correction_id = fields.Integer(allow_none=True, metadata={
        "description": "Upheld: the score change (history entry) the appeal caused."})


class AppealListSchema(Schema):
    appeals = fields.List(fields.Nested(AppealSchema))


@bp.route(APPEALS, methods=["POST"])
@for_tournament("referee")
@bp.arguments(AppealInSchema, example=NEW_APPEAL)
@bp.response(201, AppealSchema, example=APPEAL)
def file_appeal(body: dict, t: Tournament):
    """File a player's appeal while the session is in play or within the tournament's `appeal_minutes` after
    it finished (409 after: "the appeal window closed at HH:MM", in the tournament's zone). The player must have sat at that table."""
    appeal = appeal_service.file_appeal(t, body["session"], body["table"], body.get("hand"), body["player_id"],
                                        body["text"], current_user())
    return appeal_json(appeal)


@bp.route(f"{APPEALS}/<int:appeal_id>/decision", methods=["POST"])
@for_tournament("referee")
@bp.arguments(DecisionInSchema, example=DECISION)
@bp.response(200, AppealSchema)
def decide(body: dict, t: Tournament, appeal_id: int):
    """Decide an open appeal: upheld or rejected, with the reasons; a second decision is a 409. Appeals change
    no score: an upheld one points at the correction it caused (`correction_id`)."""
    appeal = appeal_service.decide(t, appeal_id, body["decision"], body["text"], current_user(),
                                   score_change_id=body.get("score_change_id"))
    return appeal_json(appeal)


@bp.route(APPEALS, methods=["GET"])
@for_tournament("referee")
@bp.response(200, AppealListSchema)
def list_appeals(t: Tournament):
    """Every appeal of the tournament, open (decision null) and decided, in the order filed."""
    return {"appeals": [appeal_json(a) for a in appeal_service.appeals_of(t)]}
