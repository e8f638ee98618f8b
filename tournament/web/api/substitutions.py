"""Substitutions during a session (MERS 4): who goes out, who comes in, from which hand (its staff); a late
arrival (MERS 2.2, 4.1.1): the penalty and the substitute in one action."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from tournament.models import HANDS_PER_SESSION, SubstitutionReason, Tournament
from tournament.services.play.penalties import penalty_json
from tournament.services.seating import substitutions as substitution_service
from tournament.services.seating.substitutions import MAX_LATE_MINUTES, SUBSTITUTE_AFTER, substitution_json
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import ID, ONE_LINE, BodySchema, PenaltySchema, StrictInteger, documented

bp = api_blueprint("api_substitutions", "Substitutions during a session (its staff).")

TABLE = "/tournaments/<int:tournament_id>/sessions/<int:number>/tables/<int:table>"
NEW_SUBSTITUTION = {"out_player_id": 7, "in_player_id": 33, "from_hand": 6, "reason": "ill"}
SUBSTITUTION = {"id": 1, "session": 2, "table": 3, **NEW_SUBSTITUTION, "note": "", "keeps_table_points": False,
                "created_at": "2026-05-16T11:42:07Z"}


class SubstitutionInSchema(BodySchema):
    out_player_id = StrictInteger(required=True, validate=ID)
    in_player_id = StrictInteger(required=True, validate=ID, metadata={
        "description": "A player of the tournament (usually a registered substitute) seated nowhere in this "
                       "session."})
    from_hand = StrictInteger(required=True, validate=validate.Range(min=1, max=HANDS_PER_SESSION), metadata={
        "description": "The first hand the incoming player plays; the hands before stay the outgoing player's."})
    reason = fields.String(required=True, validate=validate.OneOf([r.value for r in SubstitutionReason]), metadata={
        "description": "late (the substitute plays the whole session, from hand 1, and the table for table points: "
                       "MERS 4.1.1; `late` with `from_hand` above 1 is a 400 naming `from_hand`), left, ill, "
                       "disqualified (the seat scores 0 table points unless from hand 1: MERS 4), other."})
    note = fields.String(validate=validate.Length(max=500), metadata=documented(pattern=ONE_LINE))


class SubstitutionSchema(Schema):
    id = fields.Integer()
    session = fields.Integer()
    table = fields.Integer()
    out_player_id = fields.Integer()
    in_player_id = fields.Integer()
    from_hand = fields.Integer()
    reason = fields.String()
    note = fields.String()
    keeps_table_points = fields.Boolean()
    created_at = fields.String()


class SubstitutionListSchema(Schema):
    substitutions = fields.List(fields.Nested(SubstitutionSchema))


@bp.route(f"{TABLE}/substitutions", methods=["POST"])
@for_tournament("referee")
@bp.arguments(SubstitutionInSchema, example=NEW_SUBSTITUTION)
@bp.response(201, SubstitutionSchema, example=SUBSTITUTION)
def substitute(body: dict, t: Tournament, number: int, table: int):
    """Record a substitution while the session is in play: from `from_hand` on, the incoming player sits in
    the outgoing player's seat; a hand from then on naming the outgoing player is refused. 409 when the
    incoming player plays elsewhere in the session, the outgoing one is not at this table then, or hands
    from `from_hand` on are already entered."""
    sub = substitution_service.substitute(
        t, number, table, out_player_id=body["out_player_id"], in_player_id=body["in_player_id"],
        from_hand=body["from_hand"], reason=body["reason"], user=current_user(), note=body.get("note") or "")
    return substitution_json(sub, number)


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/substitutions", methods=["GET"])
@for_tournament("referee")
@bp.response(200, SubstitutionListSchema)
def list_substitutions(t: Tournament, number: int):
    """The session's substitutions, by table and hand."""
    return {"substitutions": [substitution_json(s, number) for s in substitution_service.substitutions_of(t, number)]}


NEW_LATE_ARRIVAL = {"player_id": 7, "minutes": 20, "in_player_id": 33}


class LateArrivalInSchema(BodySchema):
    player_id = StrictInteger(required=True, validate=ID, metadata={
        "description": "The late player: drawn in this session."})
    minutes = StrictInteger(required=True, validate=validate.Range(min=1, max=MAX_LATE_MINUTES), metadata={
        "description": "How late: up to 10 minutes 10 points, later 20 (MERS 2.2)."})
    in_player_id = StrictInteger(allow_none=True, validate=ID, metadata={
        "description": f"The substitute who plays the session in the late player's seat, from hand 1 (MERS "
                       f"4.1.1); required after {SUBSTITUTE_AFTER} minutes (MERS 2.2), else optional."})
    note = fields.String(validate=validate.Length(max=500), metadata=documented(pattern=ONE_LINE))


class LateArrivalSchema(Schema):
    penalty = fields.Nested(PenaltySchema)
    substitution = fields.Nested(SubstitutionSchema, allow_none=True)


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/late-arrivals", methods=["POST"])
@for_tournament("referee")
@bp.arguments(LateArrivalInSchema, example=NEW_LATE_ARRIVAL)
@bp.response(201, LateArrivalSchema)
def late_arrival(body: dict, t: Tournament, number: int):
    """A player arrives late (MERS 2.2), in one action: the penalty (10 points up to 10 minutes late, else 20;
    foul "Late arrival" when the tournament lists it) and, with `in_player_id`, the substitute seated in the
    late player's seat for the session, from hand 1 (a substitution with reason `late`: MERS 4.1.1, the
    substitute plays the table for table points). After 15 minutes the substitute is required (a 400 naming
    `in_player_id`). Both are recorded or neither: a 409 when the session is not in play (with a substitute) or
    a hand of that table is already entered."""
    done = substitution_service.late_arrival(
        t, number, player_id=body["player_id"], minutes=body["minutes"], in_player_id=body.get("in_player_id"),
        user=current_user(), note=body.get("note") or "")
    return {"penalty": penalty_json(done.penalty),
            "substitution": substitution_json(done.substitution, number) if done.substitution else None}
