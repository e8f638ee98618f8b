"""The session clock: its state (public once the session is published), its buttons and time calls (staff).

    GET  /tournaments/{tid}/sessions/{n}/clock                  the clock; no token needed when published
    POST /tournaments/{tid}/sessions/{n}/clock/start|pause|resume|end   {}
    POST /tournaments/{tid}/sessions/{n}/clock/end/undo         {} End taken back, its time calls lifted
    POST /tournaments/{tid}/sessions/{n}/clock/extend           {"seconds": 1..3600, "table"?: t}
    POST /tournaments/{tid}/sessions/{n}/tables/{t}/time        {"hand_in_progress": 1..16 | null}
    POST /tournaments/{tid}/sessions/{n}/tables/{t}/time/undo   {} (organisers)
    GET  /tournaments/{tid}/sessions/{n}/board                  the referee board (staff)
"""

from __future__ import annotations

from collections.abc import Callable

from flask import abort, g, request
from marshmallow import Schema, ValidationError, fields, validate, validates_schema
from werkzeug.exceptions import HTTPException

from tournament.extensions import csrf
from tournament.models import HANDS_PER_SESSION, Tournament
from tournament.services import ServiceError
from tournament.services.people import tournaments as tournament_service
from tournament.services.play import clock
from tournament.services.play import session as play
from tournament.web.api.auth import authenticate
from tournament.web.api.common import ApiBlueprint, _http_error, _service_error, for_tournament, require_user
from tournament.web.api.schemas import ID, MAX_ID, BodySchema, EmptySchema, StrictInteger
from tournament.web.clock.payload import board_json, clock_json
from tournament.web.helpers import tournament_or_404

SESSION = "/tournaments/<int:tournament_id>/sessions/<int:number>"
PUBLIC_OR_TOKEN = [{}, {"bearerAuth": []}]


# ----------------------------------------------------------------------------- schemas


class ExtendInSchema(BodySchema):
    seconds = StrictInteger(required=True, validate=validate.Range(min=1, max=clock.MAX_EXTRA_SECONDS))
    table = StrictInteger(allow_none=True, validate=ID,
                          metadata={"description": "One table; leave it out for every table."})


class TimeCallInSchema(BodySchema):
    hand_in_progress = StrictInteger(
        required=True, allow_none=True, validate=validate.Range(min=1, max=HANDS_PER_SESSION),
        metadata={"description": "The hand being played when time was called; null when between hands."})
    last_hand_played = StrictInteger(
        validate=validate.Range(min=0, max=HANDS_PER_SESSION),
        metadata={"description": "Between hands (required with `hand_in_progress` null): the last hand finished "
                                 "before time was called, typed in or not; hands up to it may still be "
                                 "entered, later ones are a 409."})

    @validates_schema
    def _last_hand_between_hands(self, data: dict, **kwargs) -> None:
        if data.get("hand_in_progress") is None and data.get("last_hand_played") is None:
            raise ValidationError("Between hands, say the last hand played (0 to 16).", "last_hand_played")
        if data.get("hand_in_progress") is not None and data.get("last_hand_played") is not None:
            raise ValidationError("With a hand in progress, leave the last hand played out.", "last_hand_played")


class ClockTableSchema(Schema):
    table = fields.Integer()
    extra_seconds = fields.Integer()
    remaining_seconds = fields.Integer()
    time_called = fields.Boolean()
    hand_in_progress = fields.Integer(allow_none=True)


class ClockSchema(Schema):
    state = fields.String(metadata={"description": "not_started, running, paused or ended."})
    duration_seconds = fields.Integer()
    remaining_seconds = fields.Integer(metadata={"description": "Whole seconds, never below 0."})
    ends_at = fields.String(allow_none=True, metadata={"description": "ISO 8601 UTC; null unless running."})
    warning = fields.Boolean()
    server_time = fields.String(metadata={"description": "ISO 8601 UTC: correct a client clock with it."})
    tables = fields.List(fields.Nested(ClockTableSchema))


class BoardDisputeSchema(Schema):
    hand = fields.Integer()
    player_id = fields.Integer(metadata={"description": "Who disputed the hand."})
    reason = fields.String(metadata={"description": "What they said is wrong, as typed."})


class BoardTableSchema(ClockTableSchema):
    mode = fields.String()
    entered = fields.Integer()
    last_hand = fields.Integer(allow_none=True)
    current_hand = fields.Integer(allow_none=True)
    over_time = fields.Boolean()
    needs_referee = fields.Boolean()
    reason = fields.String()
    disputed = fields.Integer(metadata={"description": "Hands with a player's open dispute."})
    unconfirmed = fields.Integer(metadata={"description": "Players' entries not yet confirmed by all four."})
    disputes = fields.List(fields.Nested(BoardDisputeSchema), metadata={"description": "The open disputes, oldest first."})


class BoardSchema(Schema):
    clock = fields.Nested(ClockSchema)
    tables = fields.List(fields.Nested(BoardTableSchema))


# ----------------------------------------------------------------------------- authentication


def _token_if_sent() -> None:
    """A token is checked when one is sent (401 if it is bad); without one the view decides."""
    g.api_user = authenticate() if request.headers.get("Authorization") else None
    for value in (request.view_args or {}).values():
        if isinstance(value, int) and value > MAX_ID:
            abort(404, "Nothing here: no such id.")


bp = ApiBlueprint("api_clock", __name__, url_prefix="/api/v1",
                  description="The session clock: public state once published; buttons and time calls (staff).")
csrf.exempt(bp)
bp.before_request(_token_if_sent)
bp.register_error_handler(HTTPException, _http_error)
bp.register_error_handler(ServiceError, _service_error)


# ----------------------------------------------------------------------------- routes


@bp.route(f"{SESSION}/clock", methods=["GET"])
@bp.doc(security=PUBLIC_OR_TOKEN)
@bp.response(200, ClockSchema)
def get_clock(tournament_id: int, number: int):
    """The clock now, with each table's extra time, remaining time and time call. Needs no token once the
    session's seating is published; a draft session's clock is for its staff."""
    t = tournament_or_404(tournament_id)
    session = play.get_session(t, number)
    if not session.is_published:
        user = require_user()
        if not tournament_service.can_referee(user, t):
            abort(403, "This session is not published: its clock is for the tournament's staff.")
    return clock_json(clock.state_of(t, session))


def _action(name: str, action: Callable[..., clock.ClockState], doc: str) -> None:
    @bp.route(f"{SESSION}/clock/{name}", methods=["POST"], endpoint=f"clock_{name}")
    @bp.doc(summary=doc.split(":")[0].split(";")[0].rstrip("."), description=doc)
    @for_tournament("referee")
    @bp.arguments(EmptySchema, required=False)
    @bp.response(200, ClockSchema)
    def view(_: dict, t: Tournament, number: int):
        return clock_json(action(t, number, g.api_user))


_action("start", clock.start, "Start the clock (its staff) of a session in play. A session not in play (an "
        "organiser starts play first) or a clock already started is a 409.")
_action("pause", clock.pause, "Pause a running clock (of a session in play, or one finished while its clock "
        "ran); anything else is a 409.")
_action("resume", clock.resume, "Resume a paused clock of a session in play; anything else is a 409.")
_action("end", clock.end, "Call time for everyone: the clock stops at zero for every table, extra time "
        "included. Under `finish_hand`, every hands table without its own time call gets one with the hand "
        "after its last entered in progress (`hand_in_progress`): later hands are a 409. A clock not running "
        "or paused, or a session not in play (finished while its clock ran apart), is a 409.")


@bp.route(f"{SESSION}/clock/end/undo", methods=["POST"])
@for_tournament("referee")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, ClockSchema)
def undo_end(_: dict, t: Tournament, number: int):
    """Take End back (a press by mistake): the clock is as if End had not been pressed and the time calls End
    recorded are lifted (a table's own call stays); the history keeps both. No End in force is a 409."""
    return clock_json(clock.undo_end(t, number, g.api_user))


@bp.route(f"{SESSION}/clock/extend", methods=["POST"])
@for_tournament("referee")
@bp.arguments(ExtendInSchema)
@bp.response(200, ClockSchema)
def extend(body: dict, t: Tournament, number: int):
    """Extra time: `seconds` for one `table`, or for every table without it. It adds up: a table's
    `extra_seconds` is its total. Refused (409) for a session not in play and once time was called for
    everyone."""
    return clock_json(clock.extend(t, number, body["seconds"], g.api_user, table=body.get("table")))


@bp.route(f"{SESSION}/tables/<int:table>/time", methods=["POST"])
@for_tournament("referee")
@bp.arguments(TimeCallInSchema)
@bp.response(200, ClockSchema)
def call_time(body: dict, t: Tournament, number: int, table: int):
    """Time called at a table, with the hand in progress (null: between hands). From then on a hand above
    it (or above the last hand entered, when null) is refused with a 409; under the `stop_immediately`
    rule the hand in progress is stored at once with zero payments. Calling it again is a 409."""
    return clock_json(clock.call_time(t, number, table, body["hand_in_progress"], g.api_user,
                                      last_hand_played=body.get("last_hand_played")))


@bp.route(f"{SESSION}/tables/<int:table>/time/undo", methods=["POST"])
@for_tournament("manage")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, ClockSchema)
def undo_time_call(_: dict, t: Tournament, number: int, table: int):
    """Take a table's time call back (its organisers; the history keeps both)."""
    return clock_json(clock.undo_time_call(t, number, table, g.api_user))


@bp.route(f"{SESSION}/board", methods=["GET"])
@for_tournament("referee")
@bp.response(200, BoardSchema)
def get_board(t: Tournament, number: int):
    """The referee board: every table's clock and progress, the tables needing a referee first."""
    return board_json(*clock.board(t, number))
