"""Fixtures the web tests share."""

from __future__ import annotations

import pytest

from tests.helpers import Api, token_for
from tournament.extensions import db
from tournament.services.tournaments import add_staff
from tournament.services.users import create_api_token


@pytest.fixture
def api(client, organiser) -> Api:
    """The JSON API as the organiser, with a Bearer token."""
    return Api(client, token_for(organiser))


@pytest.fixture
def staffed_table(seated, organiser, referee):
    """`seated` with the referee on the staff: (tournament, table 1's ids, organiser, referee)."""
    t, ids = seated
    add_staff(t, referee.email, "referee")
    db.session.commit()
    return t, ids, organiser, referee



@pytest.fixture
def raw_api(client, organiser, app_ctx):
    """The JSON API as the organiser, sending a body exactly as given (bytes, broken JSON, lone surrogates):
    `raw_api(method, url, body, content_type)`."""
    _, plain = create_api_token(organiser, "bad input")
    db.session.commit()

    def send(method: str, url: str, body: str | bytes, content_type: str = "application/json"):
        return client.open(url, method=method, data=body, content_type=content_type,
                           headers={"Authorization": f"Bearer {plain}"})

    return send
