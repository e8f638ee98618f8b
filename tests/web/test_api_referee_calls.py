"""The referee calls log of a table (issue 20), through the API and the table page: a call with its ruling, a
dead hand score entry then enforces, a warning or penalty given with the call and linked to it."""

from __future__ import annotations

import re

from tests.helpers import VALID_22, Api, assert_error, token_for
from tournament.extensions import db
from tournament.models import Penalty


def _calls(tid: int) -> str:
    return f"/tournaments/{tid}/sessions/1/tables/1/calls"


def test_a_call_with_a_dead_hand_and_a_warning(client, organiser, seated):
    t, ids = seated
    api = Api(client, token_for(organiser))
    east, south, west, north = ids
    body = {"hand": 3, "called_by": south, "situation": "East called Mahjong on a tile already passed",
            "ruling": "East's hand is dead for hand 3", "dead_hand_player_id": east,
            "penalty": {"player_id": east, "amount": 0, "foul": "Wrong call"}}
    call = api.post(_calls(t.id), body, expect=201).get_json()
    assert call["dead_hand_player_id"] == east and call["penalty_id"] and call["hand"] == 3
    penalty = db.session.get(Penalty, call["penalty_id"])
    assert penalty.amount == 0 and penalty.foul == "Wrong call" and penalty.player_id == east
    assert api.get(_calls(t.id), expect=200).get_json()["calls"][0]["situation"] == body["situation"]

    # Score entry knows: East cannot win hand 3, but can win hand 4 and others can win hand 3.
    win = {"number": 3, "result": "win", "winner_id": east, "discarder_id": south, "hand": VALID_22}
    assert_error(api.post(f"/tournaments/{t.id}/sessions/1/tables/1/hands", win), 400, "winner_id")
    api.post(f"/tournaments/{t.id}/sessions/1/tables/1/hands", {**win, "winner_id": west}, expect=201)
    api.post(f"/tournaments/{t.id}/sessions/1/tables/1/hands", {**win, "number": 4}, expect=201)


def test_bad_calls_are_refused_naming_the_field(client, organiser, in_play):
    t = in_play
    api = Api(client, token_for(organiser))
    from tournament.services.play import session as play

    other_table = play.table_players(play.get_session(t, 1), 2)[0].player_id
    seated = play.table_players(play.get_session(t, 1), 1)[0].player_id
    assert_error(api.post(_calls(t.id), {"situation": "  "}), 400, "situation")
    assert_error(api.post(_calls(t.id), {"situation": "x", "called_by": other_table}), 400, "called_by")
    assert_error(api.post(_calls(t.id), {"situation": "x", "dead_hand_player_id": seated}), 400, "hand")
    assert_error(api.post(_calls(t.id), {"situation": "x", "hand": 17}), 422, "hand")
    assert_error(api.post(_calls(t.id), {"situation": "x", "penalty": {"player_id": other_table, "amount": 5}}),
                 400, "penalty.player_id")
    assert_error(api.post(f"/tournaments/{t.id}/sessions/1/tables/9/calls", {"situation": "x"}), 404)
    assert api.get(_calls(t.id), expect=200).get_json()["calls"] == []


def test_the_table_page_logs_a_call(organiser_client, seated):
    t, ids = seated
    page = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/tables/1").get_data(as_text=True)
    assert "Log a call" in page
    form = page.split('id="calls"')[1]
    data = {name: value for name, value in re.findall(r'name="(csrf_token|idempotency_key)"[^>]*value="([^"]+)"', form)}
    data.update({"hand": "2", "called_by": str(ids[1]), "situation": "Slow play after a warning",
                 "ruling": "Five points", "dead_hand_player_id": "", "penalty_player_id": str(ids[2]),
                 "penalty_amount": "5", "penalty_foul": "Slow play"})
    answer = organiser_client.post(f"/manage/tournaments/{t.id}/play/1/tables/1/calls", data=data,
                                   follow_redirects=True)
    html = answer.get_data(as_text=True)
    assert "Call logged with its penalty." in html and "Slow play after a warning" in html and "penalty 5" in html
    again = organiser_client.post(f"/manage/tournaments/{t.id}/play/1/tables/1/calls", data=data,
                                  follow_redirects=True)  # the same form sent twice: logged once
    assert again.get_data(as_text=True).count("Slow play after a warning") == 1
