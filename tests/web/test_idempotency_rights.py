"""Idempotency keys (issue 22 item 14): a stored answer is given again only to a user who may still send the
request (removed from the staff or demoted since: 403, nothing replayed, nothing written), and the same
JSON sent again in another key order or layout is the same request."""

from __future__ import annotations

import json
import re

import pytest
from sqlalchemy import func, select, update

from tests.helpers import csrf_token, make_user
from tournament.extensions import db
from tournament.models import IdempotencyKey, Player, Role, TournamentStaff
from tournament.services.people.tournaments import add_staff, remove_staff
from tournament.services.people.users import create_api_token

pytestmark = pytest.mark.postgres

AINO = {"first_name": "Aino", "last_name": "Virtanen", "country": "FI"}


def players() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(Player))


def second_organiser(tournament) -> tuple[object, TournamentStaff]:
    oscar = make_user("oscar@example.org", "organiser")
    member = add_staff(tournament, oscar.email, "organiser")
    db.session.commit()
    return oscar, member


def headers_for(user, key: str) -> dict[str, str]:
    _, plain = create_api_token(user, "keys")
    db.session.commit()
    return {"Authorization": f"Bearer {plain}", "Idempotency-Key": key}


def test_a_user_removed_from_the_staff_gets_no_replay(client, organiser, tournament):
    oscar, member = second_organiser(tournament)
    headers = headers_for(oscar, "before-removal")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    assert client.post(url, json=AINO, headers=headers).status_code == 201
    remove_staff(tournament, member.id)
    db.session.commit()
    again = client.post(url, json=AINO, headers=headers)
    assert again.status_code == 403, again.get_data(as_text=True)
    assert "Idempotent-Replayed" not in again.headers and "rights" in again.get_json()["error"]
    assert players() == 1
    # Put back on the staff, the retry is answered again (the key still holds the first answer).
    add_staff(tournament, oscar.email, "organiser")
    db.session.commit()
    back = client.post(url, json=AINO, headers=headers)
    assert back.status_code == 201 and back.headers["Idempotent-Replayed"] == "true" and players() == 1


def test_an_organiser_demoted_to_referee_gets_no_replay_of_an_organisers_request(client, organiser, tournament):
    oscar, member = second_organiser(tournament)
    headers = headers_for(oscar, "before-demotion")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    assert client.post(url, json=AINO, headers=headers).status_code == 201
    db.session.execute(update(TournamentStaff).where(TournamentStaff.id == member.id).values(role=Role.REFEREE))
    db.session.commit()
    assert client.post(url, json=AINO, headers=headers).status_code == 403
    assert players() == 1


def test_a_form_sent_again_after_removal_from_the_staff_is_refused(client, auth, organiser, tournament):
    oscar, member = second_organiser(tournament)
    auth.login(oscar)
    url = f"/manage/tournaments/{tournament.id}/players/new"
    html = client.get(url).get_data(as_text=True)
    key = re.search(r'name="idempotency_key"[^>]*value="([^"]+)"', html).group(1)
    data = {"csrf_token": csrf_token(client, url), "idempotency_key": key, **AINO}
    assert client.post(url, data=data).status_code == 302
    remove_staff(tournament, member.id)
    db.session.commit()
    assert client.post(url, data=data).status_code == 403
    assert players() == 1


def test_the_same_json_in_another_key_order_and_layout_is_the_same_request(client, organiser, tournament):
    headers = headers_for(organiser, "reordered")
    url = f"/api/v1/tournaments/{tournament.id}/players"
    first = client.post(url, data=json.dumps(AINO), headers=headers, content_type="application/json")
    assert first.status_code == 201
    reordered = json.dumps(dict(reversed(list(AINO.items()))), indent=2)
    again = client.post(url, data=reordered, headers=headers, content_type="application/json")
    assert again.status_code == 201, again.get_data(as_text=True)
    assert again.headers["Idempotent-Replayed"] == "true" and again.get_json() == first.get_json()
    assert players() == 1
    # Another value is another request, however it is laid out.
    other = client.post(url, data=json.dumps({**AINO, "first_name": "Eero"}, indent=1), headers=headers,
                        content_type="application/json")
    assert other.status_code == 422 and players() == 1
    assert db.session.scalar(select(func.count()).select_from(IdempotencyKey)) == 1
