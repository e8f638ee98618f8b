"""Does a hall full of clocks slow score entry? ``python bench/clock_polling.py [--pollers 100] [--hands 64]``

Serves the app with gunicorn (``--workers 3``, as the README deploys it) on a fresh SQLite file, or on the
DATABASE_URL database (PostgreSQL: use an empty bench database, its tables are dropped and recreated), with
one session in play and its clock running. Then enters hands through the JSON API (wins, checked by the fan
engine, one after another as a score-keeper would) and prints their latency (median, p95, max):

  1. with nobody polling;
  2. with --pollers clients polling every 5 s, what clock.js does: half the projector's (and the table
     pages') `GET /t/<id>/sessions/<n>/clock.json`, public, half the referee board's
     `GET /manage/.../board.json` with a logged-in referee's cookie;
  3. with the same clients polling every second (five times harsher).

`--api` polls the JSON API instead (`GET /api/v1/.../clock` without a token, `.../board` with one), as
scripts would. Client and server share the machine's cores, so the figures include the pollers' own CPU.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from tournament import create_app  # noqa: E402
from tournament.config import normalise_database_url  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.services.seating import lifecycle  # noqa: E402

VALID_WIN = "123456789m123s5p5p"  # Pure Straight and friends: a 22-point win the engine scores


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def reset_postgres(url: str) -> None:
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def prepare(url: str, players: int) -> tuple[int, str, list[tuple[int, list[int]]]]:
    """Schema, an organiser with an API token, session 1 in play with its clock running.
    Returns the tournament id, the token and each table's players (E, S, W, N)."""
    from tournament.services.people.registration import PlayerData, add_player, check_in
    from tournament.services.people.tournaments import TournamentData, create_tournament
    from tournament.services.people.users import create_api_token, create_user
    from tournament.services.play import clock
    from tournament.services.play import session as play
    from tournament.services.seating import draws as draw_service

    url = normalise_database_url(url)
    if url.startswith("postgresql"):
        reset_postgres(url)
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        user = create_user("bench@example.org", "bench-password-4242", "organiser", name="Bench")
        t = create_tournament(user, TournamentData(name="Clock bench", session_minutes=120))
        for i in range(players):
            check_in(add_player(t, PlayerData(first_name=f"P{i:03d}", last_name="Bench", country="FI")))
        draw_service.draw_next(t, seed=7)
        lifecycle.start_session(t, 1)
        clock.start(t, 1, user)
        _, token = create_api_token(user, "bench")
        session = play.get_session(t, 1)
        tables = [(n, [sp.player_id for sp in play.table_players(session, n)]) for n in play.table_numbers(session)]
        db.session.commit()
        tid = t.id
        print(in_process_costs(app, tid, token))
        db.engine.dispose()
    return tid, token, tables


def in_process_costs(app, tid: int, token: str, runs: int = 50) -> str:
    """What one poll costs the server alone (Flask test client, no HTTP, no other load from this bench)."""
    public, staff = app.test_client(), app.test_client()
    page = staff.get("/login").get_data(as_text=True)
    csrf = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    staff.post("/login", data={"csrf_token": csrf, "email": "bench@example.org", "password": "bench-password-4242"})
    api_headers = {"Authorization": f"Bearer {token}"}
    costs = []
    for client, path, headers in ((public, f"/t/{tid}/sessions/1/clock.json", {}),
                                  (staff, f"/manage/tournaments/{tid}/play/1/board.json", {}),
                                  (public, f"/api/v1/tournaments/{tid}/sessions/1/board", api_headers)):
        client.get(path, headers=headers)
        started = time.perf_counter()
        for _ in range(runs):
            assert client.get(path, headers=headers).status_code == 200
        costs.append((time.perf_counter() - started) / runs * 1000)
    return (f"one poll in-process: clock.json {costs[0]:.1f} ms, board.json {costs[1]:.1f} ms, "
            f"API board {costs[2]:.1f} ms (a token's last_used_at is written on every API request)")


class Client:
    def __init__(self, port: int, token: str | None = None, cookie: str | None = None):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Content-Type": "application/json"}
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        if cookie:
            self.headers["Cookie"] = cookie

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, float]:
        started = time.perf_counter()
        try:
            self.conn.request(method, path, body=json.dumps(body) if body is not None else None,
                              headers=self.headers)
            response = self.conn.getresponse()
            response.read()
            status = response.status
        except (OSError, http.client.HTTPException):
            self.conn.close()  # reconnect on the next call
            status = 0
        return status, (time.perf_counter() - started) * 1000


def login_cookie(port: int, email: str, password: str) -> str:
    """A logged-in browser's cookie, through the login form."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", "/login")
    response = conn.getresponse()
    page = response.read().decode()
    cookie = response.getheader("Set-Cookie", "").split(";")[0]
    token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
    form = f"csrf_token={token}&email={email}&password={password}"
    conn.request("POST", "/login", body=form,
                 headers={"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie})
    response = conn.getresponse()
    response.read()
    if response.status != 302:
        raise SystemExit(f"login failed with HTTP {response.status}")
    return response.getheader("Set-Cookie", "").split(";")[0]


class Pollers:
    """`count` clients, each polling every `interval` seconds (starts spread over one interval): half the
    clock (no token, no cookie), half the referee board (logged in)."""

    def __init__(self, port: int, tid: int, count: int, interval: float, *, token: str | None = None,
                 cookie: str | None = None):
        self.stop = threading.Event()
        self.latencies: list[float] = []
        self.errors = 0
        self.lock = threading.Lock()
        if token:
            clock_path = f"/api/v1/tournaments/{tid}/sessions/1/clock"
            board_path = f"/api/v1/tournaments/{tid}/sessions/1/board"
        else:
            clock_path = f"/t/{tid}/sessions/1/clock.json"
            board_path = f"/manage/tournaments/{tid}/play/1/board.json"
        self.threads = [
            threading.Thread(target=self._run, daemon=True, args=(
                Client(port) if i % 2 == 0 else Client(port, token, cookie),
                clock_path if i % 2 == 0 else board_path, interval, random.Random(i).uniform(0, interval)))
            for i in range(count)
        ]

    def _run(self, client: Client, path: str, interval: float, delay: float) -> None:
        if self.stop.wait(delay):
            return
        while not self.stop.is_set():
            status, ms = client.call("GET", path)
            with self.lock:
                if status == 200:
                    self.latencies.append(ms)
                else:
                    self.errors += 1
            self.stop.wait(max(0.0, interval - ms / 1000))

    def __enter__(self) -> Pollers:
        for thread in self.threads:
            thread.start()
        time.sleep(1.0)  # let them all get going
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(timeout=35)


def enter_hands(port: int, token: str, tid: int, tables: list[tuple[int, list[int]]], hands: int,
                pace: float = 0.0) -> list[float]:
    """`hands` wins entered over the given tables (16 a table), one every `pace` seconds at most (a
    score-keeper's rhythm, sped up), latency of each in ms."""
    client = Client(port, token)
    latencies = []
    for index in range(hands):
        if index and pace:
            time.sleep(max(0.0, pace - latencies[-1] / 1000))
        table, seats = tables[index // 16]
        body = {"number": index % 16 + 1, "result": "win", "winner_id": seats[index % 4],
                "discarder_id": seats[(index + 1) % 4], "hand": VALID_WIN}
        status, ms = client.call("POST", f"/api/v1/tournaments/{tid}/sessions/1/tables/{table}/hands", body)
        if status != 201:
            raise SystemExit(f"hand entry failed with HTTP {status}")
        latencies.append(ms)
    return latencies


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return f"median {statistics.median(ordered):6.1f} ms   p95 {p95:6.1f} ms   max {ordered[-1]:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pollers", type=int, default=100)
    parser.add_argument("--hands", type=int, default=64, help="hands entered in each phase (16 a table)")
    parser.add_argument("--workers", type=int, default=3)
    parser.add_argument("--pace", type=float, default=0.25, help="seconds from one hand entry to the next")
    parser.add_argument("--api", action="store_true", help="poll the JSON API (with a token) instead of the pages' JSON")
    args = parser.parse_args()
    phases = [("no pollers", 0.0), (f"{args.pollers} pollers every 5 s", 5.0),
              (f"{args.pollers} pollers every 1 s", 1.0)]
    tables_needed = -(-args.hands // 16) * len(phases)
    folder = tempfile.mkdtemp(prefix="mcr-clock-bench-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/bench.db"
    tid, token, tables = prepare(url, players=(tables_needed + 1) * 4)  # one more table to warm up on
    port = free_port()
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench-secret", "INSTANCE_PATH": folder}
    server = subprocess.Popen(
        [str(ROOT / ".venv/bin/gunicorn"), "--workers", str(args.workers), "--bind", f"127.0.0.1:{port}",
         "--log-level", "warning", "app:app"], cwd=ROOT, env=env)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        print(f"database: {url.split('://')[0]}; gunicorn --workers {args.workers}; {len(tables)} tables in play, "
              f"clock running; {args.hands} hands entered per phase (wins, engine-checked), one every {args.pace} s")
        enter_hands(port, token, tid, tables[-1:], 4)  # warm every worker up a little
        auth = {"token": token} if args.api else {"cookie": login_cookie(port, "bench@example.org",
                                                                         "bench-password-4242")}
        print(f"pollers: {'the JSON API' if args.api else 'the pages JSON'} (half clock, half referee board)")
        offset = 0
        for label, interval in phases:
            chunk = tables[offset: offset + -(-args.hands // 16)]
            offset += len(chunk)
            if interval:
                with Pollers(port, tid, args.pollers, interval, **auth) as pollers:
                    latencies = enter_hands(port, token, tid, chunk, args.hands, args.pace)
                polled = f"; polls answered {len(pollers.latencies)} ({summary(pollers.latencies)}), " \
                         f"failed {pollers.errors}"
            else:
                latencies = enter_hands(port, token, tid, chunk, args.hands, args.pace)
                polled = ""
            print(f"{label:28s} hand entry: {summary(latencies)}{polled}")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
