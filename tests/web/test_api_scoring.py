"""The JSON API's contract (issue 10): every route, its status codes and JSON keys, the error shape,
wrong types, huge ids, other tournaments' ids, and the generated OpenAPI document."""

from __future__ import annotations

import pytest

from tournament.extensions import db
from tournament.services.tournaments import TournamentData, create_tournament
from tournament.services.users import create_api_token

HUGE = 2**31


class Api:
    """A test client speaking JSON with a Bearer token, like a script would."""

    def __init__(self, client, token: str):
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}

    def call(self, method: str, url: str, body=None, expect: int | None = None, **kwargs):
        kwargs.setdefault("headers", self.headers)
        if body is not None:
            kwargs["json"] = body
        response = self.client.open("/api/v1" + url, method=method, **kwargs)
        if expect is not None:
            assert response.status_code == expect, (method, url, body, response.get_json())
        return response

    def get(self, url, **kwargs):
        return self.call("GET", url, **kwargs)

    def post(self, url, body=None, **kwargs):
        return self.call("POST", url, {} if body is None else body, **kwargs)

    def put(self, url, body=None, **kwargs):
        return self.call("PUT", url, body, **kwargs)

    def delete(self, url, body=None, **kwargs):
        return self.call("DELETE", url, body, **kwargs)


def token_for(user) -> str:
    _, plain = create_api_token(user, "tests")
    db.session.commit()
    return plain


def assert_error(response, status: int, field: str | None = None):
    """The API's one error shape: {"error": message} plus "field" when one field is to blame."""
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], body
    assert set(body) <= {"error", "field"}, body
    if field is not None:
        assert body.get("field") == field, body
    return body


def register(api: Api, tid: int, count: int, prefix: str = "P", **extra) -> list[int]:
    ids = []
    for i in range(count):
        response = api.post(f"/tournaments/{tid}/players",
                            {"first_name": f"{prefix}{i:03d}", "last_name": f"Player{i:03d}", "country": "FI",
                             **extra}, expect=201)
        ids.append(response.get_json()["id"])
    return ids


def check_in_all(api: Api, tid: int, ids: list[int]) -> None:
    for pid in ids:
        api.post(f"/tournaments/{tid}/players/{pid}/checkin", expect=200)


@pytest.fixture
def api(client, organiser):
    return Api(client, token_for(organiser))


@pytest.fixture
def tid(tournament) -> int:
    return tournament.id


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
    from tests.conftest import login

    login(client, organiser.email)  # a logged-in browser session is not an API credential
    assert_error(client.post(f"/api/v1/tournaments/{tid}/players", json={}), 401)
    assert_error(client.get("/api/v1/me", headers={"Authorization": "Basic abc"}), 401)
    client.delete_cookie("session")
    api = Api(client, token_for(organiser))
    api.post(f"/tournaments/{tid}/players", {"first_name": "A", "last_name": "B", "country": "FI"}, expect=201)


def test_permissions(client, app_ctx, organiser, referee, tid):
    from tests.conftest import make_user

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

    saved = Path(app.config["EXPORT_DIR"]) / f"standings-{tid}.pdf"
    assert saved.read_bytes() == response.data
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
            path = rule.rule.replace("<int:", "{").replace(">", "}")
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
    foreign = register(api, other.id, 1)[0]
    id_sets = [
        {"tournament_id": tid, "player_id": ids[0], "number": 1, "table": 1, "hand_number": 1, "penalty_id": 1},
        {"tournament_id": tid, "player_id": foreign, "number": 2, "table": 9, "hand_number": 16, "penalty_id": 999},
        {"tournament_id": other.id, "player_id": ids[0], "number": 1, "table": 1, "hand_number": 1,
         "penalty_id": 1},
        dict.fromkeys(("tournament_id", "player_id", "number", "table", "hand_number", "penalty_id"), HUGE),
        dict.fromkeys(("tournament_id", "player_id", "number", "table", "hand_number", "penalty_id"), 10**20),
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
