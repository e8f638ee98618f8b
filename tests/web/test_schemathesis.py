"""Property-based run of the JSON API against its own OpenAPI document (schemathesis).

Every operation of /api/v1/openapi.json, on the test app through WSGI, authenticated with an organiser's
Bearer token, in a tournament with players, a session in play and a hand (so that the ids schemathesis
tries first, 1 and up, reach real data and not only 404s). Every check schemathesis has, on every response:
no 5xx, every status, content type, header and body as documented, schema-breaking data refused and
schema-valid data accepted.
"""

from __future__ import annotations

import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

pytestmark = pytest.mark.postgres

# Bounded: 33 operations x (positive + negative) x 12 examples (~400 requests), the 19 documented examples
# and schemathesis' coverage cases (~2,000: every documented status, parameter and header, the
# Idempotency-Key included): about 2,450 requests, ~60 s on SQLite.
MAX_EXAMPLES = 12

# The rules JSON Schema cannot state, each in its operation's description or its field's: they compare
# fields with each other or with the data (a winner seated at this table, a hand the engine scores at 8 or
# more, a player of this tournament). Schema-valid data that breaks one of them is refused with a 400
# (a 422 for a hand the engine refuses, or a broken backup) naming the field, and only such a refusal,
# naming one of these fields, passes the "schema-valid data is accepted" check.
RULES_BEYOND_THE_SCHEMA: dict[str, set[str | None]] = {
    # Cross-field rules, foul types told apart without letter case, a host country that is a code or name of one.
    "POST /api/v1/tournaments": {"end_date", "warning_minutes", "table_points", "foul_types", "country"},
    # Between hands the last hand played is required, with a hand in progress it is left out.
    "POST /api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/time": {"last_hand_played"},
    # Players of this tournament, the outgoing one at that table then, the incoming one seated nowhere else.
    "POST /api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/substitutions":
        {"out_player_id", "in_player_id", "from_hand"},
    # The late player drawn in this session; a substitute after 15 minutes, seated nowhere else in it.
    "POST /api/v1/tournaments/{tournament_id}/sessions/{number}/late-arrivals": {"player_id", "in_player_id"},
    # A person is registered once per tournament (same names without an EMA number, or the same number); a fixed
    # table is one of the tournament's tables (one per four players), kept by one player; a country is a code or
    # a name of one (a list no pattern holds).
    "POST /api/v1/tournaments/{tournament_id}/players": {"first_name", "ema_number", "fixed_table", "country"},
    "POST /api/v1/tournaments/{tournament_id}/players/{player_id}/fixed-table": {"fixed_table"},
    # A player of this tournament; a foul of the tournament's own list (its settings name them).
    "POST /api/v1/tournaments/{tournament_id}/penalties": {"player_id", "foul"},
    # The player must have sat at that table in that session; a text of blanks says nothing.
    "POST /api/v1/tournaments/{tournament_id}/appeals": {"player_id", "text"},
    "POST /api/v1/tournaments/{tournament_id}/appeals/{appeal_id}/decision": {"text", "score_change_id"},
    # The players checked in cannot be seated (none, or too few without substitutes): no field to blame.
    "POST /api/v1/tournaments/{tournament_id}/sessions/{number}/draw": {None},
    "POST /api/v1/tournaments/{tournament_id}/draws/plan": {None},
    # The re-plan for quality needs sessions drawn ahead (not in play).
    "POST /api/v1/tournaments/{tournament_id}/draws/replan": {None},
    # A withdrawn or disqualified player checks in only once reinstated.
    "POST /api/v1/tournaments/{tournament_id}/players/{player_id}/checkin": {"status"},
    "POST /api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/hands":
        {"result", "winner_id", "discarder_id", "hand", "false_mahjongs"},
    "PUT /api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/hands/{hand_number}":
        {"number", "result", "winner_id", "discarder_id", "hand", "false_mahjongs"},
    # An ISO alpha-2 code that names no country (ZZ).
    "GET /api/v1/tournaments/{tournament_id}/ema-results.xlsx": {"country"},
    "GET /api/v1/tournaments/{tournament_id}/ema-observer-report.pdf": {"country"},
    # Players of this table; a dead hand needs its hand (and is no winner of it); the penalty's player and foul.
    "POST /api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/calls":
        {"called_by", "dead_hand_player_id", "hand", "penalty.player_id", "player_id", "foul"},
    # MERS 4.3 strips only a player who withdrew.
    "POST /api/v1/tournaments/{tournament_id}/players/{player_id}/ema-result": {"left_out"},
    # A backup is checked whole: every id it refers to must be in it.
    "POST /api/v1/tournaments/import": {"*"},
}

schema = schemathesis.pytest.from_fixture("api_schema")


def refused_by_a_rule_beyond_the_schema(case, response) -> bool:
    fields = RULES_BEYOND_THE_SCHEMA.get(f"{case.method.upper()} {case.path}", set())
    if response.status_code not in (400, 422) or not fields:
        return False
    field = (response.json() or {}).get("field")
    return "*" in fields or (field.split(".")[0] if field else None) in fields


@pytest.mark.slow
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_api_conforms_to_its_openapi_document(case, bearer):
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive and case.headers and "Idempotency-Key" in case.headers:
        # A key is one write's: schemathesis draws few distinct ones ("0", "!"), and the same key on another
        # request is rightly a 422. Each generated write gets a key of its own.
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    response = case.call(headers=bearer)
    excluded = []
    if positive and refused_by_a_rule_beyond_the_schema(case, response):
        excluded.append(schemathesis.checks.positive_data_acceptance)
    case.validate_response(response, headers=bearer, excluded_checks=excluded)
