"""An Idempotency-Key on a request no route takes: the 404 or 405 the request deserves, never a claim of the key
(schemathesis found a used key on a wrong method answered 422 "key used for another request" instead of 405)."""

from __future__ import annotations

import pytest

from tests.helpers import Api, token_for

pytestmark = pytest.mark.postgres


def test_a_wrong_method_with_a_used_key_is_a_405(client, organiser, tournament):
    api = Api(client, token_for(organiser))
    headers = {**api.headers, "Idempotency-Key": "retry-1"}
    api.post(f"/tournaments/{tournament.id}/players",
             {"first_name": "Aino", "last_name": "Virtanen", "country": "FI"}, headers=headers, expect=201)
    response = api.put(f"/tournaments/{tournament.id}/players", {}, headers=headers)
    assert response.status_code == 405
    assert "POST" in response.headers["Allow"]


def test_a_key_sent_to_no_route_is_not_claimed(client, organiser, tournament):
    api = Api(client, token_for(organiser))
    headers = {**api.headers, "Idempotency-Key": "retry-2"}
    assert api.post("/no-such-route", {}, headers=headers).status_code == 404
    # The key is still free for the write it was made for.
    api.post(f"/tournaments/{tournament.id}/players",
             {"first_name": "Mei", "last_name": "Chen", "country": "DK"}, headers=headers, expect=201)
