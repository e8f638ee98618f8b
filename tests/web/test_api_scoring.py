"""The JSON API's contract (issue 10): every route, its status codes and JSON keys, the error shape,
wrong types, huge ids, other tournaments' ids, and the generated OpenAPI document."""

from __future__ import annotations

import pytest

from tests.helpers import Api, assert_error, check_in_all, register, token_for
from tournament.extensions import db
from tournament.services.people.tournaments import TournamentData, create_tournament

HUGE = 2**31


# ----------------------------------------------------------------------------- tournaments


def test_create_tournament_contract(api, organiser):
    response = api.post("/tournaments", {"name": "Contract Open", "session_count": 4, "ruleset": "chinese",
                                         "tie_breaks": ["seconds", "firsts"]}, expect=201)
    body = response.get_json()
    assert isinstance(body["id"], int)
    assert (body["session_count"], body["ruleset"], body["tie_breaks"]) == (4, "chinese", ["seconds", "firsts"])
    assert body["table_points"] == [4, 2, 1, 0]
    assert api.get(f"/tournaments/{body['id']}", expect=200).get_json()["name"] == "Contract Open"


@pytest.mark.parametrize(("body", "field"), [
    ({"name": 5}, "name"),
    ({"name": "X", "session_count": "4"}, "session_count"),
    ({"name": "X", "session_count": 4.5}, "session_count"),
    ({"name": "X", "session_count": True}, "session_count"),
    ({"name": "X", "table_points": [4, 2, "1", 0]}, "table_points.2"),
    ({"name": "X", "tie_breaks": "firsts"}, "tie_breaks"),
    ({"session_count": 4}, "name"),
])
def test_wrong_types_are_422_naming_the_field(api, body, field):
    assert_error(api.post("/tournaments", body), 422, field)


def test_malformed_json_is_400(api):
    for data in ("{not json", '{"name": "X",}', "\xff\xfe"):
        response = api.client.post("/api/v1/tournaments", data=data, content_type="application/json",
                                   headers=api.headers)
        assert_error(response, 400)
    # A JSON value that is not an object is well formed but of the wrong type.
    assert_error(api.post("/tournaments", ["name"]), 422)


def test_service_errors_keep_their_status_and_field(api):
    body = assert_error(api.post("/tournaments", {"name": "X", "session_count": 99}), 400, "session_count")
    assert "1 to 30" in body["error"]


# ----------------------------------------------------------------------------- authentication and permissions


def test_token_only_no_cookie_no_csrf(client, organiser, tid):
    from tests.helpers import login

    login(client, organiser.email)  # a logged-in browser session is not an API credential
    assert_error(client.post(f"/api/v1/tournaments/{tid}/players", json={}), 401)
    assert_error(client.get("/api/v1/me", headers={"Authorization": "Basic abc"}), 401)
    client.delete_cookie("session")
    api = Api(client, token_for(organiser))
    api.post(f"/tournaments/{tid}/players", {"first_name": "A", "last_name": "B", "country": "FI"}, expect=201)


def test_permissions(client, app_ctx, organiser, referee, tid):
    from tests.helpers import make_user

    organiser_api = Api(client, token_for(organiser))
    pid = register(organiser_api, tid, 1)[0]
    referee_api = Api(client, token_for(referee))
    stranger_api = Api(client, token_for(make_user("sam@example.org", "organiser")))
    # Players, check-in and draws belong to the tournament's organisers only.
    for api in (referee_api, stranger_api):
        assert_error(api.post(f"/tournaments/{tid}/players", {"first_name": "A", "last_name": "B",
                                                              "country": "FI"}), 403)
        assert_error(api.post(f"/tournaments/{tid}/players/{pid}/checkin"), 403)
        assert_error(api.post(f"/tournaments/{tid}/sessions/1/draw"), 403)
        assert_error(api.post(f"/tournaments/{tid}/sessions/1/start"), 403)
    assert_error(referee_api.post("/tournaments", {"name": "Mine"}), 403)
    # Permission is checked before the body: a junk body from an outsider is still a 403.
    assert_error(referee_api.post(f"/tournaments/{tid}/players", {"first_name": 1}), 403)
    # Standings: any valid token.
    stranger_api.get(f"/tournaments/{tid}/standings", expect=200)


# ----------------------------------------------------------------------------- players


def test_add_player_and_check_in(api, tid):
    response = api.post(f"/tournaments/{tid}/players",
                        {"first_name": "Ann", "last_name": "Lee", "country": "Finland", "ema_number": "04000123",
                         "club": "Helsinki MC", "team": "Team A", "substitute": False}, expect=201)
    player = response.get_json()
    assert player["id"] > 0
    assert (player["country"], player["ema_number"], player["status"]) == ("FI", "04000123", "registered")
    for _ in range(2):  # checking in again is still a 200
        again = api.post(f"/tournaments/{tid}/players/{player['id']}/checkin", expect=200).get_json()
        assert again["status"] == "present"
    sub = api.post(f"/tournaments/{tid}/players",
                   {"first_name": "Sub", "last_name": "Stitute", "country": "SE", "substitute": True}, expect=201)
    assert sub.get_json()["substitute"] is True
    listed = api.get(f"/tournaments/{tid}/players", expect=200).get_json()["players"]
    assert {p["last_name"] for p in listed} == {"Lee", "Stitute"}


@pytest.mark.parametrize(("body", "status", "field"), [
    ({"first_name": "A", "last_name": "B"}, 422, "country"),
    ({"first_name": "A", "last_name": "B", "country": "FI", "substitute": "yes"}, 422, "substitute"),
    ({"first_name": "A", "last_name": "B", "country": "FI", "ema_number": 4000123}, 422, "ema_number"),
    ({"first_name": "A", "last_name": "B", "country": "Atlantis"}, 400, "country"),
    ({"first_name": "A", "last_name": "B", "country": "FI", "ema_number": "12"}, 400, "ema_number"),
    ({"first_name": "", "last_name": "B", "country": "FI"}, 400, "first_name"),
])
def test_add_player_refusals(api, tid, body, status, field):
    assert_error(api.post(f"/tournaments/{tid}/players", body), status, field)


def test_duplicate_player_is_refused_with_its_field(api, tid):
    body = {"first_name": "Ann", "last_name": "Lee", "country": "FI", "ema_number": "04000123"}
    api.post(f"/tournaments/{tid}/players", body, expect=201)
    assert_error(api.post(f"/tournaments/{tid}/players", body), 400, "first_name")


# ----------------------------------------------------------------------------- draw


def test_draw_contract(api, tid):
    ids = register(api, tid, 9)
    check_in_all(api, tid, ids[:8])  # the ninth stays registered: not seated
    assert_error(api.post(f"/tournaments/{tid}/sessions/2/draw"), 409, "number")
    response = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 42}, expect=201)
    body = response.get_json()
    assert body["session"] == 1
    assert [table["table"] for table in body["tables"]] == [1, 2]
    for table in body["tables"]:
        assert [seat["wind"] for seat in table["seats"]] == ["E", "S", "W", "N"]
        assert set(table["seats"][0]) == {"wind", "player_id"}
    seated = sorted(seat["player_id"] for table in body["tables"] for seat in table["seats"])
    assert seated == sorted(ids[:8])
    # Session 1 again, or session 3 before 2: not the next session.
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/draw"), 409)
    assert_error(api.post(f"/tournaments/{tid}/sessions/3/draw"), 409)
    assert api.post(f"/tournaments/{tid}/sessions/2/draw", expect=201).get_json()["session"] == 2


def test_draw_is_reproducible_from_its_seed(client, app_ctx, organiser):
    api = Api(client, token_for(organiser))
    seatings = []
    for name in ("One", "Two"):
        t = api.post("/tournaments", {"name": name, "session_count": 3}, expect=201).get_json()["id"]
        ids = register(api, t, 8)
        check_in_all(api, t, ids)
        tables = api.post(f"/tournaments/{t}/sessions/1/draw", {"seed": 7}, expect=201).get_json()["tables"]
        # Compare by registration order: ids differ between the two tournaments.
        seatings.append([[ids.index(s["player_id"]) for s in table["seats"]] for table in tables])
    assert seatings[0] == seatings[1]


@pytest.mark.parametrize(("body", "field"), [({"seed": "1"}, "seed"), ({"seed": -1}, "seed"),
                                             ({"seed": 2**31}, "seed"), ({"seed": 1.5}, "seed")])
def test_draw_bad_seed(api, tid, body, field):
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/draw", body), 422, field)


def test_draw_without_enough_players_is_refused(api, tid):
    register(api, tid, 3)  # nobody checked in
    assert_error(api.post(f"/tournaments/{tid}/sessions/1/draw"), 400)


# ----------------------------------------------------------------------------- standings


def test_standings_before_play_and_pdf(app, client, api, referee, tid):
    ids = register(api, tid, 4)
    register(api, tid, 1, prefix="S", substitute=True)
    rows = api.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]
    assert sorted(row["player_id"] for row in rows) == sorted(ids)  # substitutes never ranked
    assert {row["rank"] for row in rows} == {1}  # nobody has played: all share the first rank
    assert set(rows[0]) == {"rank", "player_id", "name", "country", "table_points", "score", "sessions"}
    assert (rows[0]["table_points"], rows[0]["score"], rows[0]["sessions"]) == (0, 0, [])
    # Any valid token may read them, staff or not.
    response = Api(client, token_for(referee)).get(f"/tournaments/{tid}/standings.pdf", expect=200)
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    from pathlib import Path

    name = response.headers["Content-Disposition"].split('filename="')[1].rstrip('"')
    assert name.startswith(f"standings-{tid}-")  # the staff page's file: one builder, one name
    assert (Path(app.config["EXPORT_DIR"]) / name).read_bytes() == response.data
    assert_error(client.get(f"/api/v1/tournaments/{tid}/standings.pdf"), 401)


# ----------------------------------------------------------------------------- ids


def test_huge_and_foreign_ids_are_404_not_500(client, app_ctx, organiser, tid):
    api = Api(client, token_for(organiser))
    other = create_tournament(organiser, TournamentData(name="Other Open"))
    db.session.commit()
    foreign = register(api, other.id, 1)[0]
    for url in (f"/tournaments/{HUGE}", f"/tournaments/{2**63}", f"/tournaments/{10**30}/standings",
                f"/tournaments/{tid}/players/{HUGE}/checkin", f"/tournaments/{tid}/players/{foreign}/checkin",
                f"/tournaments/{tid}/sessions/{HUGE}/draw"):
        method = "GET" if url.count("/") == 2 or url.endswith("standings") else "POST"
        response = api.call(method, url, {} if method == "POST" else None)
        assert response.status_code in (404, 409), (url, response.get_json())
        assert_error(response, response.status_code)


def test_unknown_routes_and_methods_answer_json(api, tid):
    assert_error(api.get("/nothing"), 404)
    assert_error(api.call("PATCH", "/tournaments"), 405)
    assert_error(api.get(f"/tournaments/{tid}/players/1/checkin"), 405)


# ----------------------------------------------------------------------------- OpenAPI


def test_openapi_documents_every_route(app, client):
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"].startswith("3.")
    assert doc["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer", "description": "A token from `flask users token`."}
    assert doc["security"] == [{"bearerAuth": []}]
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/") and rule.endpoint != "api-docs.openapi_json":
            path = rule.rule.replace("<int:", "{").replace("<", "{").replace(">", "}")
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routes.add((path, method.lower()))
    documented = {(path, method) for path, item in doc["paths"].items() for method in item
                  if method != "parameters"}
    assert routes == documented
    contract = {
        ("/api/v1/tournaments", "post"),
        ("/api/v1/tournaments/{tournament_id}/players", "post"),
        ("/api/v1/tournaments/{tournament_id}/players/{player_id}/checkin", "post"),
        ("/api/v1/tournaments/{tournament_id}/sessions/{number}/draw", "post"),
        ("/api/v1/tournaments/{tournament_id}/standings", "get"),
    }
    assert contract <= documented
    for path, method in documented:
        operation = doc["paths"][path][method]
        assert any(code.startswith("2") for code in operation["responses"]), (path, method)
        if method in ("post", "put"):
            assert "requestBody" in operation, (path, method)
    player_in = doc["components"]["schemas"]["PlayerIn"]
    assert set(player_in["required"]) == {"first_name", "last_name", "country"}
    assert doc["components"]["schemas"]["Error"]["required"] == ["error"]


# ----------------------------------------------------------------------------- junk sweep

JUNK_BODIES = [None, {}, [], "text", 12, {"junk": [1, {"a": None}]},
               {"number": "1", "result": 5, "winner_id": HUGE, "discarder_id": -1, "hand": "x" * 500,
                "flowers": 99, "last_tile": "yes", "false_mahjongs": [{"player_id": "a", "kind": "bad"}],
                "seed": 1e30, "player_id": 10**40, "session": 0, "amount": -5, "reason": None,
                "first_name": ["a"], "country": {}, "name": 1, "version": "v"}]


def test_every_api_route_answers_junk_and_wrong_ids_with_4xx(app, client, organiser, tid):
    api = Api(client, token_for(organiser))
    other = create_tournament(organiser, TournamentData(name="Other Open"))
    db.session.commit()
    ids = register(api, tid, 8)
    check_in_all(api, tid, ids)
    api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 3}, expect=201)
    api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)  # junk reaches score entry itself
    foreign = register(api, other.id, 1)[0]
    id_sets = [
        {"tournament_id": tid, "player_id": ids[0], "number": 1, "table": 1, "hand_number": 1, "penalty_id": 1,
         "appeal_id": 1, "link_token": "x" * 43},
        {"tournament_id": tid, "player_id": foreign, "number": 2, "table": 9, "hand_number": 16, "penalty_id": 999,
         "appeal_id": 999, "link_token": "renewed"},
        {"tournament_id": other.id, "player_id": ids[0], "number": 1, "table": 1, "hand_number": 1,
         "penalty_id": 1, "appeal_id": 1, "link_token": "short"},
        dict.fromkeys(("tournament_id", "player_id", "number", "table", "hand_number", "penalty_id", "appeal_id",
                       "link_token"), HUGE),
        dict.fromkeys(("tournament_id", "player_id", "number", "table", "hand_number", "penalty_id", "appeal_id",
                       "link_token"), 10**20),
    ]
    failures, requested = [], 0
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1/"):
            continue
        for values in id_sets:
            url = rule.build({arg: values[arg] for arg in rule.arguments}, append_unknown=False)[1]
            for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
                bodies = [None] if method == "GET" else JUNK_BODIES
                for body in bodies:
                    response = client.open(url, method=method, json=body, headers=api.headers)
                    requested += 1
                    if response.status_code >= 500 or (response.status_code >= 400 and not
                                                       isinstance((response.get_json() or {}).get("error"), str)):
                        failures.append((method, url, body, response.status_code))
    assert requested > 100
    assert failures == []


# ----------------------------------------------------------------------------- play: start, hands, penalties

PURE_STRAIGHT = "123456789m123s5p5p"  # 22 fan points on a discard, whatever the winds
UNDER_EIGHT = "123m345p567s678s99m"   # 5 fan points on a discard: a legal hand under the minimum
NO_WIN = "13579m13579p1357s"


def test_start_again_is_200_finished_is_409(api_table, tid):
    boss, _, _, _ = api_table
    assert boss.post(f"/tournaments/{tid}/sessions/1/start", expect=200).get_json()["status"] == "in_play"
    assert_error(boss.post(f"/tournaments/{tid}/sessions/2/start"), 404)
    from tournament.models import Tournament
    from tournament.services.seating.lifecycle import finish_session

    finish_session(db.session.get(Tournament, tid), 1, force=True)
    db.session.commit()
    assert_error(boss.post(f"/tournaments/{tid}/sessions/1/start"), 409)


def test_discard_win_contract(api_table):
    _, ref, url, (east, south, west, north) = api_table
    body = {"number": 1, "result": "win", "winner_id": east, "discarder_id": south, "hand": PURE_STRAIGHT,
            "flowers": 2}
    hand = ref.post(url, body, expect=201).get_json()
    assert {"id", "number", "fans", "payments"} <= set(hand)
    assert hand["number"] == 1
    assert all(set(fan) == {"name", "points", "count"} for fan in hand["fans"])
    fans = {fan["name"]: (fan["points"], fan["count"]) for fan in hand["fans"]}
    assert fans["Pure Straight"] == (16, 1) and fans["Flower Tiles"] == (1, 2)
    base = sum(points * count for points, count in fans.values())
    assert base == 24
    assert hand["payments"] == {str(east): 8 + base + 16, str(south): -(8 + base), str(west): -8, str(north): -8}
    assert ref.get(url, expect=200).get_json() == {"hands": [hand]}
    # The same number again is a 409; nothing changes.
    assert_error(ref.post(url, body), 409)
    assert len(ref.get(url).get_json()["hands"]) == 1


def test_self_drawn_win_and_false_mahjongs(api_table):
    _, ref, url, (east, south, west, north) = api_table
    hand = ref.post(url, {"number": 2, "result": "win", "winner_id": west, "discarder_id": None,
                          "hand": PURE_STRAIGHT, "false_mahjongs": [{"player_id": north, "kind": "under_minimum"}]},
                    expect=201).get_json()
    base = sum(fan["points"] * fan["count"] for fan in hand["fans"])
    assert "Fully Concealed Hand" in {fan["name"] for fan in hand["fans"]}  # self-drawn, nothing declared
    assert hand["payments"] == {str(west): 3 * (8 + base) + 10, str(east): -(8 + base) + 10,
                                str(south): -(8 + base) + 10, str(north): -(8 + base) - 30}
    # A draw with a false mahjong whose kind the engine decides from the tiles.
    draw = ref.post(url, {"number": 3, "result": "draw", "false_mahjongs": [{"player_id": east, "hand": NO_WIN}]},
                    expect=201).get_json()
    assert draw["fans"] == []
    assert draw["payments"] == {str(east): -60, str(south): 20, str(west): 20, str(north): 20}


def test_refused_claims_store_nothing(api_table):
    _, ref, url, (east, south, _, _) = api_table
    for claim in (NO_WIN, UNDER_EIGHT):
        assert_error(ref.post(url, {"number": 1, "result": "win", "winner_id": east, "discarder_id": south,
                                    "hand": claim}), 422)
    assert ref.get(url, expect=200).get_json() == {"hands": []}


@pytest.mark.parametrize(("change", "field"), [
    ({"number": "1"}, "number"), ({"number": 0}, "number"), ({"number": 17}, "number"),
    ({"result": "tsumo"}, "result"), ({"result": None}, "result"), ({"flowers": 9}, "flowers"),
    ({"flowers": "2"}, "flowers"), ({"last_tile": "yes"}, "last_tile"), ({"kong": 1}, "kong"),
    ({"winner_id": "east"}, "winner_id"), ({"winner_id": HUGE}, "winner_id"), ({"discarder_id": 1.5}, "discarder_id"),
    ({"hand": 123}, "hand"), ({"false_mahjongs": {"player_id": 1}}, "false_mahjongs"),
    ({"false_mahjongs": [{"player_id": 1, "kind": "bad"}]}, "false_mahjongs.0.kind"),
    ({"false_mahjongs": [{"kind": "not_winning"}]}, "false_mahjongs.0.player_id"),
])
def test_hand_wrong_types_are_422(api_table, change, field):
    _, ref, url, (east, south, _, _) = api_table
    body = {"number": 1, "result": "win", "winner_id": east, "discarder_id": south, "hand": PURE_STRAIGHT, **change}
    assert_error(ref.post(url, body), 422, field)


def test_players_not_at_the_table_are_refused(client, api_table, organiser, tid):
    boss, ref, url, seats = api_table
    other_table = ref.get(url.replace("tables/1", "tables/2")).get_json()
    assert other_table == {"hands": []}
    stranger = [p["id"] for p in boss.get(f"/tournaments/{tid}/players").get_json()["players"]
                if p["id"] not in seats][0]
    other = create_tournament(organiser, TournamentData(name="Other Open"))
    db.session.commit()
    foreign = register(boss, other.id, 1)[0]
    for winner in (stranger, foreign, 999999):
        response = ref.post(url, {"number": 1, "result": "win", "winner_id": winner, "hand": PURE_STRAIGHT})
        assert response.status_code in (400, 404, 422), response.get_json()
        assert_error(response, response.status_code, "winner_id")
    assert_error(ref.post(url.replace("tables/1", "tables/3"), {"number": 1, "result": "draw"}), 404)
    assert_error(ref.post(url.replace("sessions/1", "sessions/2"), {"number": 1, "result": "draw"}), 404)


def test_hands_need_a_session_in_play(api_table, tid):
    boss, ref, _, _ = api_table
    boss.post(f"/tournaments/{tid}/sessions/2/draw", expect=201)
    assert_error(ref.post(f"/tournaments/{tid}/sessions/2/tables/1/hands", {"number": 1, "result": "draw"}), 409)


def test_correct_and_delete(api_table):
    _, ref, url, (east, south, west, north) = api_table
    first = ref.post(url, {"number": 1, "result": "win", "winner_id": east, "discarder_id": south,
                           "hand": PURE_STRAIGHT}, expect=201).get_json()
    corrected = ref.put(f"{url}/1", {"number": 1, "result": "win", "winner_id": east, "discarder_id": south,
                                     "hand": PURE_STRAIGHT, "flowers": 3, "version": first["version"]},
                        expect=200).get_json()
    assert corrected["id"] == first["id"] and {"id", "number", "fans", "payments"} <= set(corrected)
    assert corrected["payments"][str(south)] == first["payments"][str(south)] - 3
    # A correction from a stale copy is a conflict and changes nothing.
    assert_error(ref.put(f"{url}/1", {"number": 1, "result": "draw", "version": first["version"]}), 409)
    assert_error(ref.put(f"{url}/1", {"number": 2, "result": "draw"}), 400, "number")
    assert_error(ref.put(f"{url}/2", {"number": 2, "result": "draw"}), 404)
    assert_error(ref.put(f"{url}/1", {"number": 1, "result": "win", "winner_id": east, "hand": NO_WIN}), 422)
    assert ref.get(url).get_json()["hands"] == [corrected]
    deleted = ref.delete(f"{url}/1", expect=204)
    assert deleted.data == b""
    assert_error(ref.delete(f"{url}/1"), 404)
    assert ref.get(url).get_json() == {"hands": []}
    again = ref.post(url, {"number": 1, "result": "draw"}, expect=201).get_json()
    assert again["payments"] in ({}, dict.fromkeys(map(str, (east, south, west, north)), 0))



def test_false_mahjong_claims_take_the_win_context(api_table):
    """Issue 20: 123m456m678s234s5p5p is 6 on a discard, exactly 8 self-drawn (a win, not a false mahjong)."""
    _, ref, url, (east, south, west, north) = api_table
    claim = {"player_id": south, "hand": "123m456m678s234s5p5p"}
    assert_error(ref.post(url, {"number": 1, "result": "draw", "false_mahjongs": [{**claim, "self_drawn": True}]}),
                 422, "false_mahjongs.0.hand")
    assert_error(ref.post(url, {"number": 1, "result": "draw",
                                "false_mahjongs": [{**claim, "kong": True, "wall_last": True}]}),
                 422, "false_mahjongs.0.kong")
    assert_error(ref.post(url, {"number": 1, "result": "draw", "false_mahjongs": [{**claim, "self_drawn": "yes"}]}),
                 422, "false_mahjongs.0.self_drawn")
    # Robbing the Kong with Last Tile Claim: refused on the flags' field
    assert_error(ref.post(url, {"number": 1, "result": "win", "winner_id": east, "discarder_id": south,
                                "hand": "[123m]456m789s23p5s5s1p", "kong": True, "wall_last": True}), 422, "kong")
    hand = ref.post(url, {"number": 1, "result": "draw", "false_mahjongs": [claim]}, expect=201).get_json()
    assert hand["false_mahjongs"][0]["kind"] == "under_minimum"
    assert hand["payments"] == {str(south): -30, str(east): 10, str(west): 10, str(north): 10}


def test_stop_immediately_false_mahjong_in_the_stopped_hand(api_table, tid):
    from tournament.models import Tournament

    boss, ref, url, (east, south, west, north) = api_table
    db.session.get(Tournament, tid).end_rule = "stop_immediately"
    db.session.commit()
    boss.post(f"/tournaments/{tid}/sessions/1/tables/1/time", {"hand_in_progress": 1}, expect=200)
    stopped = ref.get(url).get_json()["hands"][0]
    assert stopped["result"] == "not_scored"
    assert_error(ref.post(url, {"number": 2, "result": "not_scored"}), 409)
    assert_error(ref.put(f"{url}/1", {"result": "draw"}), 409)
    body = {"result": "not_scored", "false_mahjongs": [{"player_id": north, "kind": "under_minimum"}],
            "version": stopped["version"]}
    hand = ref.put(f"{url}/1", body, expect=200).get_json()
    assert hand["result"] == "not_scored" and hand["fans"] == [] and hand["winner_id"] is None
    assert hand["payments"] == {str(north): -30, str(east): 10, str(south): 10, str(west): 10}

def test_penalties_contract(client, api_table, organiser, tid):
    boss, ref, _, (east, _, _, _) = api_table
    given = ref.post(f"/tournaments/{tid}/penalties",
                     {"player_id": east, "session": 1, "amount": 10, "reason": "Slow play", "hand": 3},
                     expect=201).get_json()
    assert isinstance(given["id"], int)
    assert (given["player_id"], given["session"], given["amount"], given["hand"], given["cancelled"]) == (
        east, 1, 10, 3, False)
    row = next(r for r in ref.get(f"/tournaments/{tid}/standings").get_json()["rows"] if r["player_id"] == east)
    assert (row["score"], row["sessions"][0]["score"]) == (-10, -10)
    assert_error(ref.delete(f"/tournaments/{tid}/penalties/{given['id']}", {}), 422, "reason")
    cancelled = ref.delete(f"/tournaments/{tid}/penalties/{given['id']}", {"reason": "Wrong player"},
                           expect=200).get_json()
    assert cancelled["cancelled"] is True and cancelled["cancel_reason"] == "Wrong player"
    assert_error(ref.delete(f"/tournaments/{tid}/penalties/{given['id']}", {"reason": "Again"}), 409)
    row = next(r for r in ref.get(f"/tournaments/{tid}/standings").get_json()["rows"] if r["player_id"] == east)
    assert row["score"] == 0
    # Another tournament's penalty id is a 404 here.
    other = boss.post("/tournaments", {"name": "Other"}, expect=201).get_json()["id"]
    assert_error(boss.delete(f"/tournaments/{other}/penalties/{given['id']}", {"reason": "x"}), 404)


@pytest.mark.parametrize(("change", "status", "field"), [
    ({"amount": "10"}, 422, "amount"), ({"amount": -1}, 422, "amount"), ({"session": "1"}, 422, "session"),
    ({"player_id": None}, 422, "player_id"), ({"hand": 17}, 422, "hand"), ({"reason": 5}, 422, "reason"),
    ({"session": 4}, 404, None), ({"reason": "  "}, 400, "reason"),
])
def test_penalty_refusals(api_table, tid, change, status, field):
    _, ref, _, (east, _, _, _) = api_table
    body = {"player_id": east, "session": 1, "amount": 10, "reason": "Slow play", **change}
    assert_error(ref.post(f"/tournaments/{tid}/penalties", body), status, field)
