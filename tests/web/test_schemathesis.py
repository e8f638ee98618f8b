"""Property-based run of the JSON API against its own OpenAPI document (schemathesis).

Every operation of /api/v1/openapi.json, on the test app through WSGI, authenticated with an organiser's
Bearer token, in a tournament with players, a session in play and a hand (so that the ids schemathesis
tries first, 1 and up, reach real data and not only 404s). No 5xx anywhere; every response has a
documented status, content type and the documented schema.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.generation import GenerationMode

from tests.helpers import add_players, make_tournament
from tournament.extensions import db
from tournament.services import draws, play, scoring
from tournament.services.scoring import HandData
from tournament.services.users import create_api_token

# Bounded: 31 operations x (positive + negative) x 12 examples, plus schemathesis' coverage cases: about
# 1,900 requests, ~45 s on PostgreSQL.
MAX_EXAMPLES = 12

schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def api_schema(app, app_ctx, organiser):
    t = make_tournament(organiser)
    add_players(t, 8)
    draws.set_status(draws.draw_next(t, seed=1), "published")
    play.start_session(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    db.session.commit()
    loaded = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    # Schema-valid data and schema-breaking data (wrong types, missing fields: a 4xx each, never a 5xx).
    loaded.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    return loaded


@pytest.fixture
def bearer(organiser, app_ctx) -> dict[str, str]:
    _, plain = create_api_token(organiser, "schemathesis")
    db.session.commit()
    return {"Authorization": f"Bearer {plain}"}


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                 HealthCheck.function_scoped_fixture])
def test_api_conforms_to_its_openapi_document(case, bearer):
    # Every check but "schema-valid data is accepted": the services refuse more than a JSON schema can
    # say (an empty name, a winner not at the table, a hand that scores under 8) with a 400 naming the field.
    case.call_and_validate(headers=bearer, excluded_checks=[schemathesis.checks.positive_data_acceptance])
