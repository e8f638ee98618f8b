"""MERS 4.3 (issue 20): the head referee may strip a player who withdrew ill from the EMA result. The standings
keep them; the EMA files leave them out and move those ranked below up."""

from __future__ import annotations

import csv
import io

from tests.helpers import VALID_22, Api, assert_error, check_in_all, register, token_for


def _played(api: Api) -> tuple[int, list[int]]:
    tid = api.post("/tournaments", {"name": "Ill", "session_count": 2}, expect=201).get_json()["id"]
    ids = register(api, tid, 8)
    check_in_all(api, tid, ids)
    drawn = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 3}, expect=201).get_json()
    api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)
    seats = [seat["player_id"] for seat in drawn["tables"][0]["seats"]]
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands",
             {"number": 1, "result": "win", "winner_id": seats[0], "discarder_id": seats[1], "hand": VALID_22},
             expect=201)
    return tid, seats


def _ema(api: Api, tid: int) -> list[list[str]]:
    return list(csv.reader(io.StringIO(api.get(f"/tournaments/{tid}/ema-results.csv", expect=200).get_data(as_text=True))))[1:]


def test_a_withdrawn_player_left_out_of_the_ema_results(client, organiser, app_ctx):
    api = Api(client, token_for(organiser))
    tid, seats = _played(api)
    winner = seats[0]
    before = _ema(api, tid)
    assert_error(api.post(f"/tournaments/{tid}/players/{winner}/ema-result", {"left_out": True}), 400, "left_out")
    api.post(f"/tournaments/{tid}/players/{winner}/withdraw", {"note": "ill"}, expect=200)
    answer = api.post(f"/tournaments/{tid}/players/{winner}/ema-result", {"left_out": True}, expect=200)
    assert answer.get_json()["left_out_of_ema"] is True
    after = _ema(api, tid)
    assert len(after) == len(before) - 1
    assert [row[0] for row in after][:1] == ["1"]  # the second moved up to first place
    assert before[1][1:3] == after[0][1:3]
    rows = api.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]
    assert any(r["player_id"] == winner for r in rows)  # the standings keep them
    problems = api.get(f"/tournaments/{tid}/ema-results/check", expect=200).get_json()["problems"]
    assert any("MERS 4.3" in p["message"] for p in problems)
    api.post(f"/tournaments/{tid}/players/{winner}/ema-result", {"left_out": False}, expect=200)
    assert _ema(api, tid) == before
    assert_error(api.post(f"/tournaments/{tid}/players/{winner}/ema-result", {"left_out": "yes"}), 422, "left_out")


def test_the_organiser_leaves_a_withdrawn_player_out_from_the_player_form(organiser_client, seated):
    import re

    t, ids = seated
    from tournament.extensions import db
    from tournament.services.people import registration

    registration.withdraw(registration.get_player(t, ids[0]), "ill")
    db.session.commit()
    page = organiser_client.get(f"/manage/tournaments/{t.id}/players/{ids[0]}/edit").get_data(as_text=True)
    assert "Leave out of the EMA results" in page
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    done = organiser_client.post(f"/manage/tournaments/{t.id}/players/{ids[0]}/ema-result",
                                 data={"csrf_token": token, "left_out": "1"}, follow_redirects=True)
    assert "is left out of the EMA results (MERS 4.3)" in done.get_data(as_text=True)
    assert registration.get_player(t, ids[0]).left_out_of_ema
