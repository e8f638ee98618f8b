"""A late player (issue 34) through the JSON API: a substitute for lateness plays the whole session (MERS
4.1.1: a late substitution from a later hand is a 400 naming from_hand), and a late arrival is one action that
records MERS 2.2's penalty (10 points up to 10 minutes, else 20) and, when named (required after 15 minutes),
seats the substitute for that session from hand 1."""

from __future__ import annotations

import pytest

from tests.helpers import VALID_22, Api, assert_error, check_in_all, register
from tournament.extensions import db
from tournament.models import Penalty


def _session(api: Api) -> tuple[int, list[int], list[int]]:
    """8 players and 2 registered substitutes, session 1 in play: (tid, table 1's seats E S W N, substitutes)."""
    tid = api.post("/tournaments", {"name": "Late Open", "session_count": 2}, expect=201).get_json()["id"]
    ids = register(api, tid, 8)
    subs = register(api, tid, 2, prefix="S", substitute=True)
    check_in_all(api, tid, ids)
    drawn = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 3}, expect=201).get_json()
    api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)
    return tid, [seat["player_id"] for seat in drawn["tables"][0]["seats"]], subs


def _penalties() -> int:
    return db.session.scalar(db.select(db.func.count(Penalty.id)))


def _nothing_recorded(api: Api, tid: int) -> None:
    assert api.get(f"/tournaments/{tid}/sessions/1/substitutions").get_json()["substitutions"] == []
    assert _penalties() == 0


@pytest.mark.parametrize("from_hand", [2, 5, 16])
def test_a_late_substitute_from_a_later_hand_is_refused_naming_from_hand(api, app_ctx, from_hand):
    tid, (east, *_), subs = _session(api)
    body = {"out_player_id": east, "in_player_id": subs[0], "from_hand": from_hand, "reason": "late"}
    error = assert_error(api.post(f"/tournaments/{tid}/sessions/1/tables/1/substitutions", body), 400, "from_hand")
    assert "MERS 4.1.1" in error["error"]
    _nothing_recorded(api, tid)
    for reason in ("ill", "left", "disqualified"):  # these may start at any hand
        assert api.post(f"/tournaments/{tid}/sessions/1/tables/1/substitutions",
                        {**body, "reason": reason}).status_code != 400


@pytest.mark.parametrize(("minutes", "points"), [(1, 10), (10, 10), (11, 20), (15, 20)])
def test_a_late_arrival_without_a_substitute_is_the_penalty(api, minutes, points):
    tid, (east, *_), _ = _session(api)
    done = api.post(f"/tournaments/{tid}/sessions/1/late-arrivals", {"player_id": east, "minutes": minutes},
                    expect=201).get_json()
    assert done["substitution"] is None
    penalty = done["penalty"]
    assert (penalty["player_id"], penalty["amount"], penalty["foul"], penalty["session"]) == (
        east, points, "Late arrival", 1)
    assert f"{minutes} min late" in penalty["reason"]


def test_a_late_arrival_with_its_substitute_in_one_action(api):
    tid, (east, south, west, north), subs = _session(api)
    done = api.post(f"/tournaments/{tid}/sessions/1/late-arrivals",
                    {"player_id": east, "minutes": 20, "in_player_id": subs[0], "note": "train"},
                    expect=201).get_json()
    assert done["penalty"]["amount"] == 20 and done["penalty"]["reason"] == "20 min late (MERS 2.2): train"
    sub = done["substitution"]
    assert (sub["out_player_id"], sub["in_player_id"], sub["from_hand"], sub["reason"], sub["keeps_table_points"]) == (
        east, subs[0], 1, "late", True)
    # The substitute plays the table for table points (MERS 4.1.1); the late player plays no hand of it, takes 0
    # table points for the session (MERS 4.3) and keeps the 20 points off their score (MERS 2.2).
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands",
             {"number": 1, "result": "win", "winner_id": subs[0], "discarder_id": south, "hand": VALID_22},
             expect=201)
    assert api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands",
                    {"number": 2, "result": "win", "winner_id": east, "discarder_id": south,
                     "hand": VALID_22}).status_code in (400, 422)
    rows = {r["player_id"]: r for r in api.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]}
    assert (rows[east]["table_points"], rows[east]["score"]) == (0, -20)
    assert rows[south]["table_points"] == 0 and subs[0] not in rows


def test_late_arrival_refusals_record_nothing(api, app_ctx):
    tid, (east, south, *_), subs = _session(api)
    url = f"/tournaments/{tid}/sessions/1/late-arrivals"
    assert_error(api.post(url, {"player_id": east, "minutes": 16}), 400, "in_player_id")
    assert_error(api.post(url, {"player_id": east, "minutes": 0}), 422, "minutes")
    assert_error(api.post(url, {"player_id": subs[1], "minutes": 5}), 400, "player_id")  # not drawn
    # the substitute plays elsewhere in the session: refused whole, the penalty is not kept either
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/substitutions",
             {"out_player_id": south, "in_player_id": subs[0], "from_hand": 1, "reason": "ill"}, expect=201)
    assert_error(api.post(url, {"player_id": east, "minutes": 20, "in_player_id": subs[0]}), 409, "in_player_id")
    assert _penalties() == 0
    assert_error(api.post(url.replace("/1/", "/9/"), {"player_id": east, "minutes": 5}), 404)
