"""The event-day and players-at-the-table routes as the independent checks drive them (issues 20, 23, 25):
gunicorn with the shipped settings, the test database (PostgreSQL under TEST_DATABASE_URL), an organiser made
and a token printed by the `flask users` commands, then plain HTTP. Two clients send the same writes at once:
nothing is lost or stored twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid

import pytest

from tests.deploy.servers import ROOT
from tests.deploy.servers import app_gunicorn as gunicorn
from tests.helpers import VALID_22

pytestmark = [pytest.mark.postgres, pytest.mark.slow]


def _flask(app, *args: str, stdin: str = "") -> str:
    env = {**os.environ, "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": app.config["SECRET_KEY"],
           "INSTANCE_PATH": app.instance_path}
    done = subprocess.run([sys.executable, "-m", "flask", "--app", "app", *args], cwd=ROOT, env=env, input=stdin,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


class Client:
    def __init__(self, base: str, token: str | None = None) -> None:
        self.base, self.token = base, token

    def call(self, method: str, path: str, body=None, key: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + "/api/v1" + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                text = answer.read().decode()
                return answer.status, json.loads(text) if text and "json" in answer.headers["Content-Type"] else {}
        except urllib.error.HTTPError as error:
            text = error.read().decode()
            return error.code, json.loads(text) if text.startswith("{") else {}


def _together(*calls):
    results: list = [None] * len(calls)
    barrier = threading.Barrier(len(calls))

    def run(i, call):
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_a_players_session_driven_over_http(app, tmp_path):
    _flask(app, "users", "create", "head@example.org", "--role", "organiser", "--password", "Kalasatama-2026!x")
    token = _flask(app, "users", "token", "head@example.org").strip().splitlines()[-1]
    with gunicorn(app, tmp_path) as (url, access_log):
        staff = Client(url, token)
        status, t = staff.call("POST", "/tournaments", {"name": "Drive", "session_count": 2, "entry_mode": "players",
                                                       "draw_separation": "team"})
        assert status == 201 and t["entry_mode"] == "players"
        tid = t["id"]
        ids = []
        for i in range(8):
            status, p = staff.call("POST", f"/tournaments/{tid}/players",
                                   {"first_name": f"D{i}", "last_name": "Player", "country": "FI"})
            assert status == 201
            ids.append(p["id"])
            assert staff.call("POST", f"/tournaments/{tid}/players/{p['id']}/checkin", {})[0] == 200
        status, drawn = staff.call("POST", f"/tournaments/{tid}/sessions/1/draw", {"seed": 7})
        assert status == 201
        assert staff.call("POST", f"/tournaments/{tid}/sessions/1/start", {})[0] == 200
        seats = [s["player_id"] for s in drawn["tables"][0]["seats"]]
        tokens = {pid: staff.call("GET", f"/tournaments/{tid}/players/{pid}/link")[1]["token"] for pid in seats}

        # Two phones of East send hand 1 at once with one key (an offline queue's retry): stored once.
        east = Client(url)
        hand = {"number": 1, "result": "win", "winner_id": seats[0], "discarder_id": seats[1], "hand": VALID_22}
        key = str(uuid.uuid4())
        answers = _together(*(lambda: east.call("POST", f"/p/{tokens[seats[0]]}/hands", hand, key),) * 2)
        assert [a[0] for a in answers] == [201, 201] and answers[0][1]["id"] == answers[1][1]["id"]
        assert answers[0][1]["status"] == "pending" and answers[0][1]["confirmed_by"] == [seats[0]]

        # The other three confirm at the same moment: all counted once, the hand confirmed.
        confirms = _together(*(lambda pid=pid: Client(url).call(
            "POST", f"/p/{tokens[pid]}/tables/1/hands/1/confirm", {}) for pid in seats[1:]))
        assert [c[0] for c in confirms] == [200, 200, 200]
        status, listed = staff.call("GET", f"/tournaments/{tid}/sessions/1/tables/1/hands")
        assert listed["hands"][0]["status"] == "confirmed" and sorted(listed["hands"][0]["confirmed_by"]) == sorted(seats)

        # A dispute, the queue, a ruling that it stands.
        status, disputed = Client(url).call("POST", f"/p/{tokens[seats[2]]}/tables/1/hands/1/dispute",
                                            {"reason": "Wrong discarder"})
        assert status == 200 and disputed["status"] == "disputed"
        status, queue = staff.call("GET", f"/tournaments/{tid}/sessions/1/disputes")
        assert [(d["table"], d["hand"], d["player_id"]) for d in queue["disputes"]] == [(1, 1, seats[2])]
        assert staff.call("POST", f"/tournaments/{tid}/sessions/1/finish", {})[0] == 409
        assert staff.call("POST", f"/tournaments/{tid}/sessions/1/tables/1/hands/1/stands", {})[0] == 200
        assert staff.call("GET", f"/tournaments/{tid}/sessions/1/disputes")[1] == {"disputes": []}

        # A renewed link answers 404 on every route; the old token is not in gunicorn's log.
        old = tokens[seats[3]]
        status, renewed = staff.call("POST", f"/tournaments/{tid}/players/{seats[3]}/link", {})
        assert status == 200 and renewed["token"] != old
        assert Client(url).call("GET", f"/p/{old}")[0] == 404
        assert Client(url).call("POST", f"/p/{old}/tables/1/hands/1/confirm", {})[0] == 404
        assert Client(url).call("GET", f"/p/{renewed['token']}")[0] == 200
        assert "/api/v1/p/…/hands" in access_log.read_text() and old not in access_log.read_text()

        # The standings count the confirmed hand: East +46, South -30.
        status, standings = staff.call("GET", f"/tournaments/{tid}/standings")
        scores = {row["player_id"]: row["score"] for row in standings["rows"]}
        assert scores[seats[0]] == 46 and scores[seats[1]] == -30

        # Without entry_mode, the referees enter (the default).
        status, ref = staff.call("POST", "/tournaments", {"name": "Drive 2"})
        assert ref["entry_mode"] == "referee"


def test_an_event_day_driven_over_http(app, tmp_path):
    """Issue 20's routes as deployed: a substitution, a ruling, a warning and a referee call, a time call between
    hands, a disqualification, an appeal and its decision, MERS 4.3, the EMA pack; every write sent twice at
    once by two clients with one key is carried out once."""
    _flask(app, "users", "create", "head@example.org", "--role", "organiser", "--password", "Kalasatama-2026!x")
    token = _flask(app, "users", "token", "head@example.org").strip().splitlines()[-1]
    with gunicorn(app, tmp_path) as (url, _):
        staff, other = Client(url, token), Client(url, token)
        tid = staff.call("POST", "/tournaments", {"name": "Day", "session_count": 2,
                                                  "penalties_affect_table_points": False})[1]["id"]
        ids = [staff.call("POST", f"/tournaments/{tid}/players",
                          {"first_name": f"E{i}", "last_name": "Player", "country": "FI",
                           "substitute": i == 8})[1]["id"] for i in range(9)]
        for pid in ids:
            assert staff.call("POST", f"/tournaments/{tid}/players/{pid}/checkin", {})[0] == 200
        drawn = staff.call("POST", f"/tournaments/{tid}/sessions/1/draw", {"seed": 11})[1]
        assert staff.call("POST", f"/tournaments/{tid}/sessions/1/start", {})[0] == 200
        table = next(t for t in drawn["tables"] if all(s["player_id"] != ids[8] for s in t["seats"]))
        seats = [s["player_id"] for s in table["seats"]]
        base = f"/tournaments/{tid}/sessions/1/tables/{table['table']}"

        def twice(method: str, path: str, body: dict) -> tuple[int, dict]:
            key = str(uuid.uuid4())
            first, second = _together(lambda: staff.call(method, path, body, key),
                                      lambda: other.call(method, path, body, key))
            assert first[0] == second[0] and first[1] == second[1], (path, first, second)
            return first

        hand = {"number": 1, "result": "win", "winner_id": seats[0], "discarder_id": seats[1], "hand": VALID_22,
                "ruled_points": 20, "ruling": "No Single Wait: the winning tile was not shown"}
        status, entered = twice("POST", f"{base}/hands", hand)
        assert status == 201 and entered["fan_points"] == 22 and entered["ruled_points"] == 20
        status, call = twice("POST", f"{base}/calls", {"hand": 2, "situation": "Tiles knocked over",
                                                       "penalty": {"player_id": seats[2], "amount": 0}})
        assert status == 201 and call["penalty_id"]
        status, sub = twice("POST", f"{base}/substitutions", {"out_player_id": seats[3], "in_player_id": ids[8],
                                                              "from_hand": 2, "reason": "ill"})
        assert status == 201
        assert staff.call("POST", f"{base}/time", {"hand_in_progress": None, "last_hand_played": 1})[0] == 200
        assert staff.call("POST", f"{base}/hands", {**hand, "number": 2})[0] == 409  # not played: time called
        status, _ = twice("POST", f"/tournaments/{tid}/players/{seats[1]}/disqualify", {"reason": "Cheating"})
        assert status == 200
        status, appeal = twice("POST", f"/tournaments/{tid}/appeals", {"session": 1, "table": table["table"],
                                                                      "hand": 1, "player_id": seats[1],
                                                                      "text": "The ruling was wrong"})
        assert status == 201
        decided = staff.call("POST", f"/tournaments/{tid}/appeals/{appeal['id']}/decision",
                             {"decision": "rejected", "text": "The tile was not shown"})
        assert decided[0] == 200
        assert staff.call("POST", f"/tournaments/{tid}/players/{seats[3]}/ema-result", {"left_out": True})[0] == 200
        rows = {r["player_id"]: r for r in staff.call("GET", f"/tournaments/{tid}/standings")[1]["rows"]}
        assert rows[seats[1]]["table_points"] == 0 and seats[3] in rows
        assert staff.call("GET", f"/tournaments/{tid}/mers")[0] == 200
        listed = staff.call("GET", f"/tournaments/{tid}/sessions/1/substitutions")[1]["substitutions"]
        assert len(listed) == 1 and len(staff.call("GET", f"{base}/calls")[1]["calls"]) == 1


def test_a_weekend_of_draws_driven_over_http(app, tmp_path):
    """Issues 24 and 25 as deployed: a tournament's default language, teams kept apart, a fixed table for access
    needs, a session drawn ahead, then a withdrawal sent twice at once that re-plans it once."""
    _flask(app, "users", "create", "draws@example.org", "--role", "organiser", "--password", "Kalasatama-2026!x")
    token = _flask(app, "users", "token", "draws@example.org").strip().splitlines()[-1]
    with gunicorn(app, tmp_path) as (url, _):
        staff, other = Client(url, token), Client(url, token)
        status, made = staff.call("POST", "/tournaments", {"name": "Weekend", "session_count": 3, "language": "fi",
                                                          "draw_separation": "team"})
        assert status == 201 and made["language"] == "fi" and made["draw_separation"] == "team"
        tid = made["id"]
        assert staff.call("GET", f"/tournaments/{tid}")[1]["language"] == "fi"
        ids = [staff.call("POST", f"/tournaments/{tid}/players",
                          {"first_name": f"W{i}", "last_name": "Player", "country": "FI", "team": f"Team {i % 4}",
                           "substitute": i == 16})[1]["id"] for i in range(17)]
        for pid in ids:
            assert staff.call("POST", f"/tournaments/{tid}/players/{pid}/checkin", {})[0] == 200
        status, fixed = staff.call("POST", f"/tournaments/{tid}/players/{ids[5]}/fixed-table", {"fixed_table": 2})
        assert status == 200 and fixed["fixed_table"] == 2
        assert staff.call("POST", f"/tournaments/{tid}/players/{ids[6]}/fixed-table", {"fixed_table": 99})[0] in (
            400, 422)
        team = {pid: i % 4 for i, pid in enumerate(ids[:16])}
        for number in (1, 2):
            status, drawn = staff.call("POST", f"/tournaments/{tid}/sessions/{number}/draw", {"seed": 40 + number})
            assert status == 201, drawn
            tables = {t["table"]: [s["player_id"] for s in t["seats"]] for t in drawn["tables"]}
            assert ids[5] in tables[2]
            assert all(len({team.get(p, p) for p in seated}) == 4 for seated in tables.values())
        gone = next(p for p in tables[1] if p != ids[5])
        key = str(uuid.uuid4())
        first, second = _together(
            lambda: staff.call("POST", f"/tournaments/{tid}/players/{gone}/withdraw", {"note": "ill"}, key),
            lambda: other.call("POST", f"/tournaments/{tid}/players/{gone}/withdraw", {"note": "ill"}, key))
        assert first == second and first[0] == 200 and first[1]["status"] == "withdrawn"
        for number in (1, 2):  # drawn ahead, not in play: both mended without them, the substitute in
            session = staff.call("GET", f"/tournaments/{tid}/sessions/{number}")[1]
            seated = {s["player_id"] for t in session["tables"] for s in t["seats"]}
            assert gone not in seated and ids[16] in seated
