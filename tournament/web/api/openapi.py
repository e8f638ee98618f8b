"""What the OpenAPI document says about every operation at once: its operationId, its error answers and the
`Idempotency-Key` header of the writes.

Written once here (an apispec plugin sees each operation as a blueprint registers it) rather than on each
view, so a new route is documented like the others without anyone remembering to.
"""

from __future__ import annotations

from typing import Any

from apispec import BasePlugin

WRITES = ("post", "put", "patch", "delete")

ERROR_EXAMPLE = {"error": "Choose a player of this tournament.", "field": "player_id"}

# name: (status, description, example); the body is always ErrorSchema: {"error"} plus "field" when one
# field of the body is to blame.
ERRORS: dict[str, tuple[int, str, dict[str, str]]] = {
    "BadRequest": (400, "Refused: the body is not JSON, a GET carries a body, or the data breaks a rule the "
                   "schema cannot state (a winner not at the table, a warning after the end of the session, "
                   "a player not of this tournament). `field` names the culprit.", ERROR_EXAMPLE),
    "Unauthorized": (401, "No token, or an unknown or revoked one (header `WWW-Authenticate: Bearer`).",
                     {"error": "The API token is unknown or revoked."}),
    "Forbidden": (403, "The token's user may not do this here: not on the tournament's staff, not one of its "
                  "organisers, or (an idempotent replay) no longer allowed what the first sending was.",
                  {"error": "You are not on the staff of this tournament."}),
    "NotFound": (404, "No such tournament, session, table, hand, player or penalty.",
                 {"error": "Nothing here: no such id."}),
    "Conflict": (409, "The state forbids it now: a session not in play, a hand number already entered, a "
                 "stale `version`, a change made by someone else at the same moment, or the first request "
                 "with this `Idempotency-Key` still running. Reload, then decide.",
                 {"error": "Hand 3 is already entered at table 2. Correct it instead."}),
    "PayloadTooLarge": (413, "The body is larger than the server takes.",
                        {"error": "The request body is too large."}),
    "UnprocessableEntity": (422, "A field of the wrong type, missing or out of range, or this "
                            "`Idempotency-Key` already used for another request.",
                            {"error": "Not a valid integer.", "field": "number"}),
}

IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "description": "Any 1-100 printable ASCII characters without spaces, new for each write (a UUID). Sent "
                   "again with the same key (a retry after a timeout), the write is not carried out twice: "
                   "the first answer comes back, with `Idempotent-Replayed: true`, for 24 hours. The same key "
                   "on another request is a 422.",
    "schema": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": "^[!-~]+$"},
    "example": "7d0f6c8e-2b1a-4c43-9d5e-2f0a4b7c9e11",
}


# Each operation's operationId, the name a generated client gives its method (`client.enter_hand(...)`): the
# view's own name in camelCase (enter_hand: enterHand), or, where that name says too little out of its module
# (`start`, `give`, a player's own `enter_hand`), the name written here, keyed by the Flask endpoint.
# tests/web/api/test_openapi_generator.py checks that they are all there, distinct, and none is left over.
OPERATION_IDS = {
    "api_tournaments.me": "getCurrentUser",
    "api_players.check_in": "checkInPlayer",
    "api_players.disqualify": "disqualifyPlayer",
    "api_players.withdraw": "withdrawPlayer",
    "api_players.ema_result": "setEmaResultLeftOut",
    "api_players.fixed_table": "setFixedTable",
    "api_sessions.draw": "drawSession",
    "api_sessions.finish": "finishSession",
    "api_hands.start": "startSession",
    "api_penalties.give": "givePenalty",
    "api_penalties.cancel": "cancelPenalty",
    "api_standings.standings": "getStandings",
    "api_standings.standings_pdf": "getStandingsPdf",
    "api_exports.seating_pdf": "getSeatingPdf",
    "api_exports.score_sheets_pdf": "getScoreSheetsPdf",
    "api_exports.ema_results": "getEmaResultsCsv",
    "api_exports.ema_check": "checkEmaResults",
    "api_exports.ema_results_workbook": "getEmaResultsWorkbook",
    "api_exports.mers_weight": "getMersWeight",
    "api_exports.ema_observer_report": "getEmaObserverReportPdf",
    "api_clock.clock_start": "startClock",
    "api_clock.clock_pause": "pauseClock",
    "api_clock.clock_resume": "resumeClock",
    "api_clock.clock_end": "endClock",
    "api_clock.undo_end": "undoClockEnd",
    "api_clock.extend": "extendClock",
    "api_substitutions.substitute": "substitutePlayer",
    "api_appeals.decide": "decideAppeal",
    "api_player_links.get_link": "getPlayerLink",
    "api_player_links.renew_link": "renewPlayerLink",
    "api_player_links.rule_stands": "ruleHandStands",
    "api_player_own.my_table": "getMyTable",
    "api_player_own.enter_hand": "enterOwnHand",
    "api_player_own.confirm": "confirmOwnHand",
    "api_player_own.dispute": "disputeOwnHand",
    "api_referee_calls.log_call": "logRefereeCall",
    "api_referee_calls.list_calls": "listRefereeCalls",
}


def camel_case(name: str) -> str:
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)


def operation_id(endpoint: str, method: str, methods: int = 1) -> str:
    """The operationId of `method` on the Flask endpoint `blueprint.view`; an endpoint with several methods
    (none yet) has the method in front of each."""
    name = OPERATION_IDS.get(endpoint) or camel_case(endpoint.rpartition(".")[2])
    return name if methods == 1 else camel_case(f"{method}_{name}")


def error_names(path: str, method: str) -> list[str]:
    """The error answers an operation can give. 401 everywhere (a bad token is refused even where none is
    needed); 404 where the path names something; 403 where a permission is checked (a tournament's staff,
    or organisers creating one); the writes also 409 (state, races, a key in use), 413 and 422."""
    names = ["BadRequest", "Unauthorized"]
    if "{" in path:
        names.append("NotFound")
    if "{tournament_id}" in path or method in WRITES:
        names.append("Forbidden")
    if method in WRITES:
        names += ["Conflict", "PayloadTooLarge", "UnprocessableEntity"]
    return names


class ApiConventionsPlugin(BasePlugin):
    """Adds the operationId, the error answers and the Idempotency-Key header to every operation of the
    document."""

    def init_spec(self, spec: Any) -> None:
        super().init_spec(spec)
        for name, (_, description, example) in ERRORS.items():
            spec.components.response(name, {
                "description": description,
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"},
                                                 "example": example}},
            })
        spec.components.parameter("IdempotencyKey", "header", dict(IDEMPOTENCY_KEY))

    def operation_helper(self, path: str | None = None, operations: dict | None = None, **kwargs: Any) -> None:
        rule = kwargs.get("rule")
        documented = [m for m in (operations or {}) if m in ("get", "head", *WRITES)]
        for method, operation in (operations or {}).items():
            if method not in ("get", "head", *WRITES):
                continue
            if rule is not None:  # flask-smorest hands the URL rule of the view (its endpoint) to every plugin
                operation.setdefault("operationId", operation_id(rule.endpoint, method, len(documented)))
            responses = operation.setdefault("responses", {})
            for name in error_names(path or "", method):
                # An answer the view documents itself (a backup's 422) keeps its own description.
                responses.setdefault(str(ERRORS[name][0]), name)
            if method in WRITES:
                operation.setdefault("parameters", []).append("IdempotencyKey")
