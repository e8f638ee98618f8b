"""Idempotency keys (issue 13): what a second sending with the same key gets, one request at a time, on SQLite
and PostgreSQL alike (the concurrent cases are in test_races*.py and need PostgreSQL)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select, update

from tests.helpers import csrf_token, make_user
from tournament.extensions import db
from tournament.models import IdempotencyKey, Player
from tournament.models._common import utcnow
from tournament.services.people.users import create_api_token

pytestmark = pytest.mark.postgres

KEY_RE = r'name="idempotency_key"[^>]*value="([^"]+)"'


def players() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(Player))


def api_headers(user, key: str | None = None) -> dict[str, str]:
    _, plain = create_api_token(user, "keys")
    db.session.commit()
    headers = {"Authorization": f"Bearer {plain}"}
    if key is not None:
        headers["Idempotency-Key"] = key
    return headers


def form_key(client, url: str) -> tuple[str, str]:
    import re

    html = client.get(url).get_data(as_text=True)
    return csrf_token(client, url), re.search(KEY_RE, html).group(1)


AINO = {"first_name": "Aino", "last_name": "Virtanen", "country": "FI"}


def test_the_api_answers_a_retry_with_the_first_answer_and_stores_once(client, organiser, tournament):
    headers = api_headers(organiser, "retry-1")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    first = client.post(url, json=AINO, headers=headers)
    again = client.post(url, json=AINO, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert players() == 1
    # A new key is a new request: here the duplicate rule answers.
    other = client.post(url, json=AINO, headers={**headers, "Idempotency-Key": "retry-2"})
    assert other.status_code in (400, 409, 422) and players() == 1


def test_the_same_key_on_another_request_is_refused(client, organiser, tournament):
    headers = api_headers(organiser, "once")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    assert client.post(url, json=AINO, headers=headers).status_code == 201
    reused = client.post(url, json={**AINO, "first_name": "Eero"}, headers=headers)
    assert reused.status_code == 422
    assert "already used for a different request" in reused.get_json()["error"]
    assert players() == 1


def test_a_failed_request_keeps_its_key_free_for_the_retry(client, organiser, tournament):
    headers = api_headers(organiser, "fix-and-retry")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    assert client.post(url, json={**AINO, "country": "Atlantis"}, headers=headers).status_code in (400, 422)
    assert client.post(url, json=AINO, headers=headers).status_code == 201
    assert players() == 1


@pytest.mark.parametrize("key", ["", "a" * 101, "two words", "nul\u00e9"])
def test_a_malformed_key_is_a_400(client, organiser, tournament, key):
    headers = api_headers(organiser, key)
    response = client.post(f"/api/v1/tournaments/{tournament.id}/players", json=AINO, headers=headers)
    assert response.status_code == 400 and "idempotency key" in response.get_json()["error"]
    assert players() == 0


def test_keys_belong_to_one_user(client, organiser, tournament):
    other = make_user("oscar@example.org", "organiser")
    from tournament.services.people.tournaments import add_staff

    add_staff(tournament, other.email, "organiser")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    assert client.post(url, json=AINO, headers=api_headers(organiser, "shared")).status_code == 201
    theirs = client.post(url, json={**AINO, "first_name": "Eero"}, headers=api_headers(other, "shared"))
    assert theirs.status_code == 201 and players() == 2


def test_old_keys_are_forgotten_after_a_day(client, organiser, tournament):
    headers = api_headers(organiser, "yesterday")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    assert client.post(url, json=AINO, headers=headers).status_code == 201
    db.session.execute(update(IdempotencyKey).values(created_at=utcnow() - timedelta(hours=25)))
    db.session.commit()
    again = client.post(url, json={**AINO, "first_name": "Eero"}, headers=headers)
    assert again.status_code == 201 and "Idempotent-Replayed" not in again.headers
    assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 1


def test_a_form_sent_twice_is_saved_once_and_says_so(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/players/new"
    csrf, key = form_key(organiser_client, url)
    data = {"csrf_token": csrf, "idempotency_key": key, **AINO}
    first = organiser_client.post(url, data=data)
    again = organiser_client.post(url, data=data)
    assert first.status_code == again.status_code == 302 and again.location == first.location
    assert players() == 1
    page = organiser_client.get(again.location).get_data(as_text=True)
    assert "already sent: it was saved once" in page
    # Each showing of the form has its own key.
    assert form_key(organiser_client, url)[1] != key


def test_a_form_shown_again_with_errors_keeps_its_key_for_the_corrected_sending(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/players/new"
    csrf, key = form_key(organiser_client, url)
    wrong = organiser_client.post(url, data={"csrf_token": csrf, "idempotency_key": key, **AINO, "last_name": ""})
    assert wrong.status_code == 400
    assert key in wrong.get_data(as_text=True)  # the page shown again carries the same key
    fixed = organiser_client.post(url, data={"csrf_token": csrf, "idempotency_key": key, **AINO})
    assert fixed.status_code == 302 and players() == 1


def test_a_form_without_a_key_still_works(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/players/new"
    response = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url), **AINO})
    assert response.status_code == 302 and players() == 1
    assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 0
