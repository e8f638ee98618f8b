"""Results that stand at a real event (issue 20), through the JSON API: no-shows are neither ranked nor
exported, a disqualified player keeps their place with 0 table points (MERS 4.4), and penalties move table
points only where the tournament says so."""

from __future__ import annotations

import csv
import io

import pytest

from tests.helpers import VALID_22, Api, assert_error, check_in_all, register, token_for


@pytest.fixture
def api(client, app_ctx, organiser):
    return Api(client, token_for(organiser))


def _tournament(api: Api, players: int, **settings) -> tuple[int, list[int]]:
    tid = api.post("/tournaments", {"name": f"Event {settings}", "session_count": 2, **settings},
                   expect=201).get_json()["id"]
    return tid, register(api, tid, players)


def _play_one_hand(api: Api, tid: int, present: list[int]) -> list[int]:
    """Session 1 drawn from `present` and started; at table 1, East wins 22 points off South's discard.
    Returns table 1's seats, East first."""
    check_in_all(api, tid, present)
    drawn = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 3}, expect=201).get_json()
    api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)
    seats = [seat["player_id"] for seat in drawn["tables"][0]["seats"]]
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands",
             {"number": 1, "result": "win", "winner_id": seats[0], "discarder_id": seats[1], "hand": VALID_22},
             expect=201)
    return seats


def _rows(api: Api, tid: int) -> dict[int, dict]:
    return {row["player_id"]: row for row in api.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]}


def _ema_ids(api: Api, tid: int) -> list[str]:
    text = api.get(f"/tournaments/{tid}/ema-results.csv", expect=200).get_data(as_text=True)
    return [row[1] + " " + row[2] for row in list(csv.reader(io.StringIO(text)))[1:]]


# ----------------------------------------------------------------------------- no-shows (defect 2)


def test_a_no_show_is_neither_ranked_nor_exported(api):
    tid, ids = _tournament(api, 5)
    no_show = ids[4]
    _play_one_hand(api, tid, ids[:4])
    rows = _rows(api, tid)
    # Was ranked "5=" with 0 points, above every player with a negative score, and exported with their number.
    assert no_show not in rows and set(rows) == set(ids[:4])
    assert "P004 Player004" not in _ema_ids(api, tid)
    problems = api.get(f"/tournaments/{tid}/ema-results/check", expect=200).get_json()["problems"]
    assert any("P004 Player004 played no session" in p["message"] for p in problems)


def test_before_play_everyone_expected_is_listed(api):
    tid, ids = _tournament(api, 5)
    assert set(_rows(api, tid)) == set(ids)


# ----------------------------------------------------------------------------- disqualification (defect 3)


def test_a_disqualified_player_keeps_their_place_with_no_table_points(api):
    tid, ids = _tournament(api, 4)
    east, south, west, north = _play_one_hand(api, tid, ids)
    assert _rows(api, tid)[east]["table_points"] == 4
    answer = api.post(f"/tournaments/{tid}/players/{east}/disqualify", {"reason": "Cheating"}, expect=200)
    assert answer.get_json()["status"] == "disqualified"
    again = api.post(f"/tournaments/{tid}/players/{east}/disqualify", {"reason": "Cheating"}, expect=200)
    assert again.get_json()["status"] == "disqualified"
    rows = _rows(api, tid)
    # Was left out of the standings and of the EMA file, which changed everyone's EMA base rank.
    assert east in rows
    assert rows[east]["table_points"] == 0 and rows[east]["score"] == 46  # 30 + 8 + 8: the score stands
    assert rows[south]["table_points"] == 0  # the others keep the points of their places
    exported = _ema_ids(api, tid)
    assert len(exported) == 4 and sorted(exported) == sorted(f"P{i:03d} Player{i:03d}" for i in range(4))


@pytest.mark.parametrize("body, field", [({}, "reason"), ({"reason": ""}, "reason"), ({"reason": 5}, "reason")])
def test_disqualify_needs_a_reason(api, body, field):
    tid, ids = _tournament(api, 4)
    assert_error(api.post(f"/tournaments/{tid}/players/{ids[0]}/disqualify", body), 422, field)
    assert_error(api.post(f"/tournaments/{tid}/players/{10**6}/disqualify", {"reason": "x"}), 404)


# ----------------------------------------------------------------------------- penalties and table points (defect 7)


@pytest.mark.parametrize("setting", [True, False])
def test_penalties_move_table_points_only_when_the_tournament_says_so(api, setting):
    tid, ids = _tournament(api, 4, penalties_affect_table_points=setting)
    assert api.get(f"/tournaments/{tid}", expect=200).get_json()["penalties_affect_table_points"] is setting
    east, south, west, north = _play_one_hand(api, tid, ids)
    # East won 22 off South: +46, South -30, West and North -8. A 100-point penalty puts East last by score.
    api.post(f"/tournaments/{tid}/penalties", {"player_id": east, "session": 1, "amount": 100,
                                               "reason": "Slow play"}, expect=201)
    rows = _rows(api, tid)
    assert rows[east]["score"] == 46 - 100  # the score loses the penalty either way
    if setting:
        assert rows[east]["table_points"] == 0  # a 4 turned into a 0 (was: always)
        assert rows[west]["table_points"] == rows[north]["table_points"] == 3  # 4 and 2 shared
    else:
        assert rows[east]["table_points"] == 4  # places from the scores before penalties
        assert rows[south]["table_points"] == 0


def test_the_setting_defaults_to_the_green_book_and_is_validated(api):
    tid = api.post("/tournaments", {"name": "Default"}, expect=201).get_json()["id"]
    assert api.get(f"/tournaments/{tid}").get_json()["penalties_affect_table_points"] is True
    assert_error(api.post("/tournaments", {"name": "X", "penalties_affect_table_points": "no"}), 422,
                 "penalties_affect_table_points")


# ----------------------------------------------------------------------------- warnings and fouls (defect 5)


def test_a_warning_is_recorded_and_changes_no_score(api):
    tid, ids = _tournament(api, 4)
    east, south, west, north = _play_one_hand(api, tid, ids)
    before = _rows(api, tid)
    warning = api.post(f"/tournaments/{tid}/penalties", {"player_id": south, "session": 1, "amount": 0,
                                                         "foul": "Slow play", "reason": "Long thinking"},
                       expect=201).get_json()  # was a 422: "amount must be at least 1"
    assert (warning["amount"], warning["warning"], warning["foul"]) == (0, True, "Slow play")
    assert _rows(api, tid) == before


def test_foul_types_are_the_tournaments(api):
    tid = api.post("/tournaments", {"name": "Fouls", "foul_types": ["Noise", "Other"]},
                   expect=201).get_json()["id"]
    assert api.get(f"/tournaments/{tid}").get_json()["foul_types"] == ["Noise", "Other"]
    ids = register(api, tid, 4)
    east, *_ = _play_one_hand(api, tid, ids)
    body = {"player_id": east, "session": 1, "amount": 5, "reason": "x"}
    assert_error(api.post(f"/tournaments/{tid}/penalties", {**body, "foul": "Slow play"}), 400, "foul")
    api.post(f"/tournaments/{tid}/penalties", {**body, "foul": "Noise"}, expect=201)
    assert_error(api.post("/tournaments", {"name": "Y", "foul_types": []}), 400, "foul_types")


def test_the_ladder_counts_the_same_foul_in_the_session(app_ctx, api):
    from tournament.extensions import db
    from tournament.models import Tournament
    from tournament.services import penalties

    tid, ids = _tournament(api, 4)
    east, south, *_ = _play_one_hand(api, tid, ids)
    t = db.session.get(Tournament, tid)
    session_id = t.sessions[0].id
    for amount in (0, 5):
        api.post(f"/tournaments/{tid}/penalties", {"player_id": east, "session": 1, "amount": amount,
                                                   "foul": "Slow play", "reason": "again"}, expect=201)
    api.post(f"/tournaments/{tid}/penalties", {"player_id": east, "session": 1, "amount": 0,
                                               "foul": "Conduct", "reason": "noise"}, expect=201)
    ladder = penalties.ladder_suggestions(t, session_id)
    assert ladder[f"{east}|Slow play"] == 10  # a warning, then 5: next 10 (MERS 3.1)
    assert ladder[f"{east}|Conduct"] == 5
    assert f"{south}|Slow play" not in ladder  # the others start with a warning
