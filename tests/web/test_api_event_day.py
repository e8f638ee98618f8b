"""Results that stand at a real event (issue 20), through the JSON API: no-shows are neither ranked nor
exported, a disqualified player keeps their place with 0 table points (MERS 4.4), and penalties move table
points only where the tournament says so."""

from __future__ import annotations

import csv
import io

import pytest

from tests.helpers import VALID_22, Api, assert_error, check_in_all, register


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
    page = api.client.get(f"/t/{tid}/standings").get_data(as_text=True)
    assert "disqualified" in page  # said on the public standings too


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
    from tournament.services.play import penalties

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


# ----------------------------------------------------------------------------- substitutions (defect 1)


def _session_with_a_substitute(api: Api) -> tuple[int, list[int], int]:
    """8 players and a registered substitute, session 1 in play; returns (tid, table 1's seats E S W N, sub)."""
    tid, ids = _tournament(api, 8)
    substitute = register(api, tid, 1, prefix="S", substitute=True)[0]
    check_in_all(api, tid, ids)
    drawn = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 3}, expect=201).get_json()
    api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)
    return tid, [seat["player_id"] for seat in drawn["tables"][0]["seats"]], substitute


def _hand(api: Api, tid: int, number: int, winner: int, discarder: int, expect: int | None = 201):
    return api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands",
                    {"number": number, "result": "win", "winner_id": winner, "discarder_id": discarder,
                     "hand": VALID_22}, expect=expect)


def test_a_substitute_plays_from_the_hand_given(api):
    tid, (east, south, west, north), sub = _session_with_a_substitute(api)
    url = f"/tournaments/{tid}/sessions/1/tables/1/substitutions"
    for number in (1, 2):
        _hand(api, tid, number, east, south)
    # Was: "already in play: its seating can no longer be redrawn", and the substitute's hands went to the
    # absent player.
    answer = api.post(url, {"out_player_id": south, "in_player_id": sub, "from_hand": 3, "reason": "ill"},
                      expect=201).get_json()
    assert {"id", "out_player_id", "in_player_id", "from_hand", "reason"} <= set(answer)
    assert (answer["out_player_id"], answer["in_player_id"], answer["from_hand"]) == (south, sub, 3)
    # From hand 3 the outgoing player is not at the table; the incoming one wins, discards and pays.
    assert _hand(api, tid, 3, south, east, expect=None).status_code in (400, 422)
    assert _hand(api, tid, 3, east, south, expect=None).status_code in (400, 422)
    third = _hand(api, tid, 3, sub, east).get_json()
    assert third["payments"][str(sub)] == 46 and str(south) not in third["payments"]
    fourth = _hand(api, tid, 4, east, sub).get_json()
    assert fourth["payments"][str(sub)] == -30
    rows = _rows(api, tid)
    # Hands 1-2 stay South's (-60); the substitute is never ranked; the seat scores no table points (MERS
    # 4.1.2: ill during the session), the other three take 4, 2, 1 by their scores.
    assert rows[south]["score"] == -60 and rows[south]["table_points"] == 0
    assert sub not in rows
    assert rows[east]["table_points"] == 4  # +46 +46 -30 +46
    assert {rows[west]["table_points"], rows[north]["table_points"]} == {1.5}  # -32 each: 2 and 1 shared
    listed = api.get(f"/tournaments/{tid}/sessions/1/substitutions", expect=200).get_json()["substitutions"]
    assert [s["in_player_id"] for s in listed] == [sub]


def test_a_late_players_substitute_plays_the_table(api):
    tid, (east, south, west, north), sub = _session_with_a_substitute(api)
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/substitutions",
             {"out_player_id": east, "in_player_id": sub, "from_hand": 1, "reason": "late"}, expect=201)
    _hand(api, tid, 1, sub, south)
    rows = _rows(api, tid)
    assert rows[east]["table_points"] == 0  # missed the session (MERS 4.3)
    assert rows[south]["table_points"] == 0 and rows[west]["table_points"] == rows[north]["table_points"] == 1.5


@pytest.mark.parametrize("change, status, field", [
    ({"in_player_id": "seated elsewhere"}, 409, "in_player_id"),
    ({"out_player_id": "at another table"}, 409, "out_player_id"),
    ({"from_hand": 0}, 422, "from_hand"),
    ({"from_hand": 17}, 422, "from_hand"),
    ({"reason": "bored"}, 422, "reason"),
    ({"in_player_id": "the outgoing one"}, 400, "in_player_id"),
])
def test_substitution_refusals(api, change, status, field):
    tid, (east, south, west, north), sub = _session_with_a_substitute(api)
    other_table = api.get(f"/tournaments/{tid}/sessions/1", expect=200).get_json()["tables"][1]["seats"]
    names = {"seated elsewhere": other_table[0]["player_id"], "at another table": other_table[1]["player_id"],
             "the outgoing one": south}
    body = {"out_player_id": south, "in_player_id": sub, "from_hand": 3, "reason": "ill"}
    body.update({key: names.get(value, value) for key, value in change.items()})
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/tables/1/substitutions", body), status, field)
    assert api.get(f"/tournaments/{tid}/sessions/1/substitutions").get_json()["substitutions"] == []


def test_a_substitution_after_hands_already_entered_is_refused(api):
    tid, (east, south, west, north), sub = _session_with_a_substitute(api)
    _hand(api, tid, 3, east, south)
    body = {"out_player_id": south, "in_player_id": sub, "from_hand": 2, "reason": "left"}
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/tables/1/substitutions", body), 409, "from_hand")


def test_the_same_substitution_twice_is_stored_once(api):
    tid, (east, south, west, north), sub = _session_with_a_substitute(api)
    url = f"/tournaments/{tid}/sessions/1/tables/1/substitutions"
    body = {"out_player_id": south, "in_player_id": sub, "from_hand": 3, "reason": "ill"}
    api.post(url, body, expect=201)
    assert_error(api.post(url, body), 409)  # the incoming player already plays in the session
    assert len(api.get(f"/tournaments/{tid}/sessions/1/substitutions").get_json()["substitutions"]) == 1


# ----------------------------------------------------------------------------- referee rulings (defect 4)


def test_a_ruling_on_the_points_is_paid_and_the_engines_count_kept(api):
    tid, ids = _tournament(api, 4)
    east, south, west, north = _play_one_hand(api, tid, ids)
    url = f"/tournaments/{tid}/sessions/1/tables/1/hands"
    body = {"number": 2, "result": "win", "winner_id": east, "discarder_id": south, "hand": VALID_22,
            "ruled_points": 20, "ruling": "Winning tile not shown: no Single Wait, no Concealed Hand (MERS 1.9)"}
    hand = api.post(url, body, expect=201).get_json()
    # Was: the engine's maximum always paid, the signed sheet's score not recordable.
    assert (hand["fan_points"], hand["ruled_points"]) == (22, 20)
    assert hand["ruling"].startswith("Winning tile not shown")
    assert hand["payments"] == {str(east): 8 + 20 + 16, str(south): -(8 + 20), str(west): -8, str(north): -8}
    assert hand["total"] == 20
    listed = api.get(url, expect=200).get_json()["hands"][1]
    assert (listed["fan_points"], listed["ruled_points"]) == (22, 20)
    # A correction without the ruling pays the engine's count again.
    corrected = api.put(f"{url}/2", {**body, "ruled_points": None, "ruling": None, "version": hand["version"]},
                        expect=200).get_json()
    assert corrected["ruled_points"] is None and corrected["payments"][str(south)] == -30


@pytest.mark.parametrize("ruled, ruling, field", [
    (23, "more than the engine", "ruled_points"),
    (7, "under the minimum", "ruled_points"),
    (12, None, "ruling"),
    (12, "   ", "ruling"),
    (None, "a ruling without points", "ruled_points"),
])
def test_a_ruling_is_within_8_and_the_engines_points(api, ruled, ruling, field):
    tid, ids = _tournament(api, 4)
    east, south, west, north = _play_one_hand(api, tid, ids)
    body = {"number": 2, "result": "win", "winner_id": east, "discarder_id": south, "hand": VALID_22,
            "ruled_points": ruled, "ruling": ruling}
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands", body), 422, field)
    assert len(api.get(f"/tournaments/{tid}/sessions/1/tables/1/hands").get_json()["hands"]) == 1


# ----------------------------------------------------------------------------- time call between hands (defect 6)


def test_hands_finished_before_the_time_call_can_still_be_entered(api):
    tid, ids = _tournament(api, 4)
    east, south, west, north = _play_one_hand(api, tid, ids)  # hand 1 typed in
    # Hands 2-3 were finished before the gong but their paper sheet reaches the desk later.
    url = f"/tournaments/{tid}/sessions/1/tables/1"
    api.post(f"{url}/time", {"hand_in_progress": None, "last_hand_played": 3}, expect=200)
    for number in (2, 3):  # was: "hand 2 was not played" (the limit was the last hand typed in)
        api.post(f"{url}/hands", {"number": number, "result": "draw"}, expect=201)
    assert_error(api.post(f"{url}/hands", {"number": 4, "result": "draw"}), 409)


@pytest.mark.parametrize("body, status, field", [
    ({"hand_in_progress": None}, 422, "last_hand_played"),
    ({"hand_in_progress": None, "last_hand_played": 17}, 422, "last_hand_played"),
    ({"hand_in_progress": None, "last_hand_played": -1}, 422, "last_hand_played"),
    ({"hand_in_progress": 4, "last_hand_played": 3}, 422, "last_hand_played"),
    ({"hand_in_progress": None, "last_hand_played": 0}, 409, "last_hand_played"),  # hand 1 is entered
])
def test_time_call_bodies(api, body, status, field):
    tid, ids = _tournament(api, 4)
    _play_one_hand(api, tid, ids)
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/tables/1/time", body), status, field)


def test_the_ladder_carries_stalling_across_sessions(app_ctx, api):
    """MERS 3.6: the count restarts each session, except for obstruction and stalling for time (issue 34)."""
    from tournament.extensions import db
    from tournament.models import Tournament
    from tournament.services.play import penalties

    tid, ids = _tournament(api, 4, foul_types=["Slow play", "Conduct", "Obstruction"])
    east, south, *_ = _play_one_hand(api, tid, ids)
    for foul, amount in (("Slow play", 0), ("Slow play", 5), ("Conduct", 0), ("Obstruction", 0)):
        api.post(f"/tournaments/{tid}/penalties", {"player_id": east, "session": 1, "amount": amount,
                                                   "foul": foul, "reason": "again"}, expect=201)
    cancelled = api.post(f"/tournaments/{tid}/penalties", {"player_id": south, "session": 1, "amount": 0,
                                                           "foul": "Slow play", "reason": "x"}, expect=201).get_json()
    api.delete(f"/tournaments/{tid}/penalties/{cancelled['id']}", {"reason": "mistaken"}, expect=200)
    from tournament.models import SessionStatus
    from tournament.services.seating import lifecycle

    t = db.session.get(Tournament, tid)
    lifecycle.set_status(t.sessions[0], SessionStatus.FINISHED)  # the sheets' totals are not the point here
    db.session.commit()
    api.post(f"/tournaments/{tid}/sessions/2/draw", {"seed": 4}, expect=201)
    api.post(f"/tournaments/{tid}/sessions/2/start", expect=200)
    db.session.refresh(t)
    ladder = {key: rung for key, rung in penalties.ladder_suggestions(t, t.sessions[1].id).items() if rung}
    assert ladder == {f"{east}|Slow play": 10, f"{east}|Obstruction": 5}  # Conduct starts again; cancelled: none
    assert penalties.ladder_suggestions(t, t.sessions[0].id)[f"{east}|Conduct"] == 5  # in session 1 it counts
    assert penalties.carries_over("Slow play") and penalties.carries_over("Stalling for time")
    assert not penalties.carries_over("Conduct") and not penalties.carries_over("Late arrival")
