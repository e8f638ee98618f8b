"""Appeals through the JSON API (issue 20 defect 8), the exact contract: POST /appeals -> 201 {"id", ...},
POST /appeals/{id}/decision -> 200, GET /appeals -> {"appeals": [...]}; clear 4xx on bad input, a retry with the
same Idempotency-Key stored once, the window after the session (409 "the appeal window closed at HH:MM")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from tests.helpers import VALID_22, Api, assert_error, check_in_all, register, token_for
from tournament.extensions import db
from tournament.models import Appeal, ScoreChange, Tournament, TournamentSession
from tournament.services.people.tournaments import add_staff
from tournament.services.seating import lifecycle


def _event(client, organiser, **settings) -> tuple[Api, int, list[int], list[int]]:
    """8 players, session 1 drawn and in play: (api, tid, table 1's seats E S W N, table 2's)."""
    api = Api(client, token_for(organiser))
    tid = api.post("/tournaments", {"name": "Appeals Open", "session_count": 2, **settings},
                   expect=201).get_json()["id"]
    ids = register(api, tid, 8)
    check_in_all(api, tid, ids)
    drawn = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 3}, expect=201).get_json()
    api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)
    tables = [[seat["player_id"] for seat in table["seats"]] for table in drawn["tables"]]
    return api, tid, tables[0], tables[1]


def _appeal(api, tid, player, headers=None, **extra):
    return api.post(f"/tournaments/{tid}/appeals",
                    {"session": 1, "table": 1, "hand": 2, "player_id": player, "text": "No Last Tile.", **extra},
                    headers=headers or api.headers)


def test_file_decide_and_list(client, organiser):
    api, tid, (east, south, west, _), _ = _event(client, organiser)
    filed = _appeal(api, tid, east)
    assert filed.status_code == 201, filed.get_json()
    body = filed.get_json()
    assert isinstance(body["id"], int)
    assert {k: body[k] for k in ("session", "table", "hand", "player_id", "text", "decision")} == {
        "session": 1, "table": 1, "hand": 2, "player_id": east, "text": "No Last Tile.", "decision": None}
    assert body["filed_at"].endswith("Z") and body["decided_at"] is None and body["correction_id"] is None
    without_hand = api.post(f"/tournaments/{tid}/appeals", {"session": 1, "table": 1, "player_id": south,
                                                            "text": "Slow play penalty."}, expect=201).get_json()
    assert without_hand["hand"] is None

    listed = api.get(f"/tournaments/{tid}/appeals", expect=200).get_json()["appeals"]
    assert [a["id"] for a in listed] == [body["id"], without_hand["id"]]
    assert all(a["decision"] is None for a in listed)

    decided = api.post(f"/tournaments/{tid}/appeals/{body['id']}/decision",
                       {"decision": "rejected", "text": "The tile was not shown."}, expect=200).get_json()
    assert decided["decision"] == "rejected" and decided["decision_text"] == "The tile was not shown."
    assert decided["decided_at"].endswith("Z") and decided["correction_id"] is None
    again = api.post(f"/tournaments/{tid}/appeals/{body['id']}/decision", {"decision": "upheld", "text": "No."})
    assert_error(again, 409, "decision")
    listed = {a["id"]: a for a in api.get(f"/tournaments/{tid}/appeals", expect=200).get_json()["appeals"]}
    assert listed[body["id"]]["decision"] == "rejected" and listed[without_hand["id"]]["decision"] is None


def test_an_upheld_appeal_points_at_the_correction_and_changes_no_score(client, organiser):
    api, tid, (east, south, west, _), _ = _event(client, organiser)
    hands = f"/tournaments/{tid}/sessions/1/tables/1/hands"
    api.post(hands, {"number": 1, "result": "win", "winner_id": east, "discarder_id": south, "hand": VALID_22},
             expect=201)
    appeal = _appeal(api, tid, south, hand=1, text="West discarded it.").get_json()
    changes = db.session.scalar(select(func.count()).select_from(ScoreChange))
    api.put(f"{hands}/1", {"result": "win", "winner_id": east, "discarder_id": west, "hand": VALID_22}, expect=200)
    correction = db.session.scalar(select(func.max(ScoreChange.id)))
    decided = api.post(f"/tournaments/{tid}/appeals/{appeal['id']}/decision",
                       {"decision": "upheld", "text": "West's discard."}, expect=200).get_json()
    assert decided["decision"] == "upheld" and decided["correction_id"] == correction
    # filing and deciding recorded nothing in the history: only the correction did
    assert db.session.scalar(select(func.count()).select_from(ScoreChange)) == changes + 1


def test_the_window_after_the_session(client, organiser):
    api, tid, (east, *_), _ = _event(client, organiser, appeal_minutes=45)
    assert api.get(f"/tournaments/{tid}", expect=200).get_json()["appeal_minutes"] == 45
    # finished as an organiser insisting (the tables are not complete): the API's finish needs complete tables
    lifecycle.finish_session(db.session.get(Tournament, tid), 1, force=True)
    db.session.commit()
    session = db.session.scalar(select(TournamentSession).where(TournamentSession.tournament_id == tid))
    assert session.status == "finished" and session.finished_at is not None
    assert _appeal(api, tid, east).status_code == 201  # just finished: within the window

    session.finished_at -= timedelta(minutes=46)  # the session finished 46 minutes ago
    db.session.commit()
    closes = session.finished_at + timedelta(minutes=45)
    late = _appeal(api, tid, east)
    assert_error(late, 409, "session")
    assert f"the appeal window closed at {closes:%H:%M}" in late.get_json()["error"]
    assert len(api.get(f"/tournaments/{tid}/appeals", expect=200).get_json()["appeals"]) == 1


def test_the_setting_defaults_to_30_minutes_and_is_checked(client, organiser):
    api = Api(client, token_for(organiser))
    assert api.post("/tournaments", {"name": "Default"}, expect=201).get_json()["appeal_minutes"] == 30
    assert_error(api.post("/tournaments", {"name": "Long", "appeal_minutes": 241}), 400, "appeal_minutes")
    assert_error(api.post("/tournaments", {"name": "Neg", "appeal_minutes": -1}), 400, "appeal_minutes")
    assert_error(api.post("/tournaments", {"name": "Str", "appeal_minutes": "30"}), 422, "appeal_minutes")


@pytest.mark.parametrize("change, status, field", [
    ({"session": "1"}, 422, "session"),
    ({"session": None}, 422, "session"),
    ({"table": 1.5}, 422, "table"),
    ({"hand": 17}, 422, "hand"),
    ({"hand": "2"}, 422, "hand"),
    ({"player_id": True}, 422, "player_id"),
    ({"text": ""}, 422, "text"),
    ({"text": 5}, 422, "text"),
    ({"text": "x" * 2001}, 422, "text"),
    ({"text": "   "}, 400, "text"),
    ({"session": 2}, 404, "session"),
    ({"table": 3}, 404, "table"),
    ({"player_id": 2**31 - 1}, 400, "player_id"),
])
def test_bad_appeals_are_clear_4xx(client, organiser, change, status, field):
    api, tid, (east, *_), _ = _event(client, organiser)
    assert_error(_appeal(api, tid, east, **change), status, field)
    assert db.session.scalar(select(func.count()).select_from(Appeal)) == 0


def test_missing_fields_and_a_player_of_another_table(client, organiser):
    api, tid, (east, *_), (other, *_) = _event(client, organiser)
    for missing in ("session", "table", "player_id", "text"):
        body = {"session": 1, "table": 1, "player_id": east, "text": "x"}
        del body[missing]
        assert_error(api.post(f"/tournaments/{tid}/appeals", body), 422, missing)
    assert_error(_appeal(api, tid, other), 400, "player_id")
    not_json = client.post(f"/api/v1/tournaments/{tid}/appeals", data="session=1",
                           headers={**api.headers, "Content-Type": "application/x-www-form-urlencoded"})
    assert 400 <= not_json.status_code < 500 and not_json.get_json()["error"]


@pytest.mark.parametrize("body, status, field", [
    ({"decision": "maybe", "text": "x"}, 422, "decision"),
    ({"decision": None, "text": "x"}, 422, "decision"),
    ({"text": "x"}, 422, "decision"),
    ({"decision": "upheld"}, 422, "text"),
    ({"decision": "upheld", "text": "  "}, 400, "text"),
    ({"decision": "upheld", "text": "x", "score_change_id": "3"}, 422, "score_change_id"),
    ({"decision": "upheld", "text": "x", "score_change_id": 2**31 - 1}, 400, "score_change_id"),
    ({"decision": "rejected", "text": "x", "score_change_id": 1}, 400, "score_change_id"),
])
def test_bad_decisions_are_clear_4xx(client, organiser, body, status, field):
    api, tid, (east, *_), _ = _event(client, organiser)
    appeal = _appeal(api, tid, east).get_json()
    assert_error(api.post(f"/tournaments/{tid}/appeals/{appeal['id']}/decision", body), status, field)
    assert db.session.get(Appeal, appeal["id"]).decision is None


def test_unknown_appeals_and_strangers(client, organiser, referee):
    api, tid, (east, *_), _ = _event(client, organiser)
    appeal = _appeal(api, tid, east).get_json()
    assert_error(api.post(f"/tournaments/{tid}/appeals/{appeal['id'] + 1}/decision",
                          {"decision": "upheld", "text": "x"}), 404)
    stranger = Api(client, token_for(referee))
    assert_error(stranger.get(f"/tournaments/{tid}/appeals"), 403)
    assert_error(stranger.post(f"/tournaments/{tid}/appeals",
                               {"session": 1, "table": 1, "player_id": east, "text": "x"}), 403)
    assert_error(Api(client, "mcr_nonsense").get(f"/tournaments/{tid}/appeals"), 401)


def test_a_referee_of_the_staff_files_and_decides(client, organiser, referee):
    api, tid, (east, *_), _ = _event(client, organiser)
    add_staff(db.session.get(Tournament, tid), referee.email, "referee")
    db.session.commit()
    ref = Api(client, token_for(referee))
    appeal = _appeal(ref, tid, east).get_json()
    decided = ref.post(f"/tournaments/{tid}/appeals/{appeal['id']}/decision",
                       {"decision": "rejected", "text": "Stands."}, expect=200).get_json()
    assert decided["decided_by"] == referee.display_name and appeal["filed_by"] == referee.display_name


def test_a_double_submit_with_the_same_key_is_stored_once(client, organiser):
    api, tid, (east, *_), _ = _event(client, organiser)
    headers = {**api.headers, "Idempotency-Key": "appeal-1"}
    first = _appeal(api, tid, east, headers=headers)
    second = _appeal(api, tid, east, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.headers.get("Idempotent-Replayed") == "true" and second.get_json() == first.get_json()
    assert db.session.scalar(select(func.count()).select_from(Appeal)) == 1

    url = f"/tournaments/{tid}/appeals/{first.get_json()['id']}/decision"
    decision_headers = {**api.headers, "Idempotency-Key": "decision-1"}
    once = api.post(url, {"decision": "upheld", "text": "Yes."}, headers=decision_headers)
    twice = api.post(url, {"decision": "upheld", "text": "Yes."}, headers=decision_headers)
    assert once.status_code == twice.status_code == 200 and twice.headers.get("Idempotent-Replayed") == "true"
    # the same key on another request is refused, not replayed
    assert_error(api.post(url, {"decision": "rejected", "text": "No."}, headers=decision_headers), 422)
