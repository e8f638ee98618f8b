"""The backup API: GET /tournaments/{tid}/export.json and POST /tournaments/import."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select

from tests.helpers import Api, assert_error, comparable, make_user, row_counts, standing_rows, token_for
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.people import invitations

pytestmark = pytest.mark.postgres


def test_export_and_import_round_trip(client, api, demo_tournament, referee):
    # Any member of the staff may download the backup (the referee here).
    document = Api(client, token_for(referee)).get(f"/tournaments/{demo_tournament.id}/export.json", expect=200).get_json()
    assert document["format_version"] == 2 and document["hands"]
    before = standing_rows(demo_tournament)

    response = api.post(f"/tournaments/import?staff={referee.email}", document, expect=201)
    new_id = response.get_json()["id"]
    assert response.get_json() == {"id": new_id, "staff_left_out": []} and new_id != demo_tournament.id

    copy_ = db.session.get(Tournament, new_id)
    assert standing_rows(copy_) == before
    # The confirmed referee is invited to the copy's staff and joins by accepting.
    [invitation] = invitations.pending_for(referee)
    assert invitation.tournament_id == new_id
    invitations.accept(invitation.id, referee)
    db.session.commit()
    restored = api.get(f"/tournaments/{new_id}/export.json", expect=200).get_json()
    assert comparable(restored) == comparable(document)
    # The copy's standings through the API equal the original's.
    a = api.get(f"/tournaments/{demo_tournament.id}/standings", expect=200).get_json()
    b = api.get(f"/tournaments/{new_id}/standings", expect=200).get_json()
    assert [(r["name"], r["score"], r["table_points"]) for r in a["rows"]] == \
           [(r["name"], r["score"], r["table_points"]) for r in b["rows"]]


def test_permissions(client, demo_tournament, app_ctx):
    outsider = make_user("outsider@example.org", "referee")
    other_organiser = make_user("elsewhere@example.org", "organiser")
    outsider_api, elsewhere_api = Api(client, token_for(outsider)), Api(client, token_for(other_organiser))
    url = f"/tournaments/{demo_tournament.id}/export.json"
    assert_error(client.get("/api/v1" + url), 401)
    assert_error(outsider_api.get(url), 403)
    assert_error(elsewhere_api.get(url), 403)
    document = Api(client, token_for(demo_tournament.staff[0].user)).get(url, expect=200).get_json()
    counts = row_counts()
    assert_error(outsider_api.post("/tournaments/import", document), 403)  # referees create no tournaments
    assert row_counts() == counts
    # An organiser who is not on its staff may restore it, and becomes the copy's only organiser; the
    # staff it lists are left out unless confirmed (and said so).
    answer = elsewhere_api.post("/tournaments/import", document, expect=201).get_json()
    assert sorted(answer["staff_left_out"]) == sorted(m.user.email for m in demo_tournament.staff)
    elsewhere_api.get(f"/tournaments/{answer['id']}/export.json", expect=200)
    assert_error(Api(client, token_for(demo_tournament.staff[0].user)).get(
        f"/tournaments/{answer['id']}/export.json"), 403)


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d.update(format_version=99), "format_version"),
    (lambda d: d["hands"][3].update(session_id=10**6), "hands[3].session_id"),
    (lambda d: d["seats"][2].update(player_id=10**6), "seats[2].player_id"),
    (lambda d: d["hand_payments"][0].update(delta=10**5), None),
    (lambda d: d.pop("players"), "players"),
])
def test_inconsistent_documents_are_422_naming_the_place(api, demo_tournament, mutate, field):
    document = api.get(f"/tournaments/{demo_tournament.id}/export.json", expect=200).get_json()
    mutate(document)
    counts = row_counts()
    body = assert_error(api.post("/tournaments/import", document), 422, field)
    assert field is None or field in body["error"]
    assert row_counts() == counts


@pytest.mark.parametrize("data", [b"not json", b"[1, 2]", b'"backup"', b"null", b"{}", b'{"format_version": 1}'])
def test_not_a_backup_is_422(client, api, organiser, data):
    counts = row_counts()
    response = client.post("/api/v1/tournaments/import", data=data, headers={
        **api.headers, "Content-Type": "application/json"})
    assert_error(response, 422)
    assert row_counts() == counts


def test_deep_nesting_and_unstorable_text_are_422_like_any_broken_backup(client, api):
    deep = '{"format_version": 1, "tournament": ' + "[" * 5000 + "]" * 5000 + "}"
    nul = '{"format_version": 1, "tournament": {"name": "A\\u0000B"}}'
    surrogate = '{"format_version": 1, "tournament": {"name": "\\ud800"}}'
    for body, words in ((deep, "nested"), (nul, "NUL"), (surrogate, "tournament")):
        response = client.post("/api/v1/tournaments/import", data=body, headers={
            **api.headers, "Content-Type": "application/json"})
        assert response.status_code == 422, body[:60]
        assert words.lower() in response.get_json()["error"].lower(), response.get_json()
    assert db.session.scalar(select(func.count()).select_from(Tournament)) == 0


def test_a_backup_larger_than_other_bodies_is_read(client, api, app):
    """The import reads bodies past MAX_CONTENT_LENGTH (a big tournament's backup); other routes do not."""
    padding = "x" * (app.config["MAX_CONTENT_LENGTH"] + 1024)
    body = json.dumps({"format_version": 1, "padding": padding})
    response = client.post("/api/v1/tournaments/import", data=body, headers={
        **api.headers, "Content-Type": "application/json"})
    assert_error(response, 422)  # read and refused for what it holds, not 413
    other = client.post("/api/v1/tournaments", data=body, headers={**api.headers, "Content-Type": "application/json"})
    assert other.status_code == 413
