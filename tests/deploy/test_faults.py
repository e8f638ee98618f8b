"""Faults on an event day (issue 13), against the app served by gunicorn (deploy/gunicorn.conf.py) on PostgreSQL.

1. A worker killed with `kill -9` in the middle of hand entry through the API: every hand that was answered
   2xx is stored exactly once, and a request sent again with the same Idempotency-Key is stored once.
2. The database restarting (a private cluster made with initdb on its own port): clear 503s with Retry-After
   while it is down, then the app answers again by itself, without a restart.
"""

from __future__ import annotations

import glob
import http.client
import http.cookiejar
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask_migrate import upgrade
from sqlalchemy import func, select

from tests.deploy import servers
from tournament import create_app
from tournament.extensions import db
from tournament.models.scoring import Hand
from tournament.services.people.users import create_api_token, create_user

GUNICORN = servers.GUNICORN
PURE_STRAIGHT = "123456789m123s5p5p"  # a legal win on a discard, whatever the winds

pytestmark = [pytest.mark.postgres,
              pytest.mark.skipif(not GUNICORN.exists(), reason="gunicorn is not installed in this environment")]


def call(port: int, method: str, path: str, token: str | None = None, body: object = None,
         key: str | None = None, accept: str = "application/json") -> tuple[int, dict, object]:
    """One request on a fresh connection: (status, headers, JSON or text); status 0 if nothing came back."""
    headers = {"Accept": accept}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    if key:
        headers["Idempotency-Key"] = key
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request(method, path, body=data, headers=headers)
        response = connection.getresponse()
        payload = response.read()
    except (OSError, http.client.HTTPException):
        return 0, {}, None
    finally:
        connection.close()
    answer_headers = {name.lower(): value for name, value in response.getheaders()}
    if payload[:1] in (b"{", b"["):
        return response.status, answer_headers, json.loads(payload)
    return response.status, answer_headers, payload.decode(errors="replace")


def expect(status: int, port: int, method: str, path: str, token: str, body: object = None) -> dict:
    got, _, answer = call(port, method, path, token, body)
    assert got == status, (method, path, got, answer)
    return answer  # type: ignore[return-value]


@contextmanager
def gunicorn(database_url: str, secret: str, instance: str, log: Path, workers: int, threads: int
             ) -> Iterator[tuple[int, subprocess.Popen]]:
    env = {"DATABASE_URL": database_url, "SECRET_KEY": secret, "INSTANCE_PATH": instance,
           "GUNICORN_WORKERS": str(workers), "GUNICORN_THREADS": str(threads), "GUNICORN_ACCESS_LOG": os.devnull}
    with servers.gunicorn(env, log) as running:
        yield running


class Browser:
    """A browser with its cookies (urllib): logs in through the login form as a person would."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def open(self, path: str, form: dict | None = None) -> tuple[int, dict, str]:
        data = urllib.parse.urlencode(form).encode() if form is not None else None
        try:
            answer = self.opener.open(self.base + path, data=data, timeout=20)
        except urllib.error.HTTPError as error:
            answer = error
        with answer:
            return answer.status, {k.lower(): v for k, v in answer.headers.items()}, answer.read().decode()

    def csrf(self, path: str) -> str:
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', self.open(path)[2]).group(1)


def workers_of(master: int) -> list[int]:
    """The gunicorn master's child processes (its workers), read from /proc."""
    children = []
    for stat in glob.glob("/proc/[0-9]*/stat"):
        try:
            fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            children.append(int(Path(stat).parent.name))
    return children


def organiser_token(app) -> str:
    with app.app_context():
        user = create_user("fault-organiser@example.org", "fault-test-organiser-2026", "organiser")
        db.session.flush()
        _, token = create_api_token(user, "faults")
        db.session.commit()
    return token


def test_worker_killed_mid_entry_loses_nothing_answered(app, tmp_path):
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        pytest.skip("the fault is about gunicorn on PostgreSQL (set TEST_DATABASE_URL)")
    token = organiser_token(app)
    tables, hands = 4, 8
    log = tmp_path / "gunicorn.log"
    with gunicorn(app.config["SQLALCHEMY_DATABASE_URI"], app.config["SECRET_KEY"], app.instance_path, log,
                  workers=2, threads=2) as (port, master):
        tid = expect(201, port, "POST", "/api/v1/tournaments", token,
                     {"name": "Fault Open", "session_count": 1, "tie_breaks": []})["id"]
        for i in range(tables * 4):
            pid = expect(201, port, "POST", f"/api/v1/tournaments/{tid}/players", token,
                         {"first_name": f"P{i:02d}", "last_name": "Fault", "country": "FI"})["id"]
            expect(200, port, "POST", f"/api/v1/tournaments/{tid}/players/{pid}/checkin", token)
        drawn = expect(201, port, "POST", f"/api/v1/tournaments/{tid}/sessions/1/draw", token, {"seed": 1})
        expect(200, port, "POST", f"/api/v1/tournaments/{tid}/sessions/1/start", token)
        seats = {table["table"]: [seat["player_id"] for seat in table["seats"]] for table in drawn["tables"]}

        answered: dict[int, list[int]] = defaultdict(list)
        sent: list[tuple[str, dict, str]] = []  # (path, body, key) of answered hands
        failures: list[str] = []
        lock = threading.Lock()
        halfway = threading.Barrier(len(seats) + 1)

        def enter(table: int) -> None:
            east, south, *_ = seats[table]
            path = f"/api/v1/tournaments/{tid}/sessions/1/tables/{table}/hands"
            for number in range(1, hands + 1):
                if number == hands // 2 + 1:
                    halfway.wait(30)  # the kill lands while every table is mid-entry
                body = ({"number": number, "result": "win", "winner_id": east, "discarder_id": south,
                         "hand": PURE_STRAIGHT} if number % 2 else {"number": number, "result": "draw"})
                key = str(uuid.uuid4())
                for _attempt in range(20):  # a tablet retries a failed send with the SAME key
                    status, _, answer = call(port, "POST", path, token, body, key)
                    if status and status < 500:
                        break
                    time.sleep(0.25)
                with lock:
                    if status == 201:
                        answered[table].append(number)
                        sent.append((path, body, key))
                    else:
                        failures.append(f"table {table} hand {number}: {status} {answer!r:.200}")

        threads = [threading.Thread(target=enter, args=(table,)) for table in seats]
        for thread in threads:
            thread.start()
        halfway.wait(60)
        victims = workers_of(master.pid)
        assert victims, "gunicorn has no workers to kill"
        os.kill(victims[0], signal.SIGKILL)
        for thread in threads:
            thread.join(120)
        assert not failures, failures
        assert victims[0] not in workers_of(master.pid)  # it really died (and was replaced)

        # A request sent again with a key that was answered: the first answer back, nothing stored twice.
        path, body, key = sent[0]
        status, headers, _ = call(port, "POST", path, token, body, key)
        assert status == 201 and "idempotent-replayed" in headers

        for table in seats:
            listing = expect(200, port, "GET", f"/api/v1/tournaments/{tid}/sessions/1/tables/{table}/hands", token)
            stored = sorted(hand["number"] for hand in listing["hands"])
            assert stored == sorted(answered[table]) == list(range(1, hands + 1)), table
    with app.app_context():
        rows = db.session.scalar(select(func.count()).select_from(Hand))
    assert rows == tables * hands


POSTGRES_BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
PG_BIN = Path(POSTGRES_BIN[-1]) if POSTGRES_BIN else None


def as_cluster_owner(command: list[str]) -> list[str]:
    # initdb and postgres refuse to run as root: the cluster then belongs to the postgres user.
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextmanager
def private_cluster() -> Iterator[tuple[str, callable, callable]]:
    if PG_BIN is None or not (PG_BIN / "initdb").exists():
        pytest.skip("PostgreSQL's initdb is not installed (Debian package postgresql)")
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        pytest.skip("running as root without runuser to start PostgreSQL as another user")
    home = Path(tempfile.mkdtemp(prefix="mcr-faults-pg-"))
    if os.geteuid() == 0:
        shutil.chown(home, "postgres")
    data, port = home / "data", servers.free_port()
    ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data), "-l", str(home / "server.log")]
    init = subprocess.run(as_cluster_owner([str(PG_BIN / "initdb"), "-D", str(data), "-A", "trust", "-U",
                                             "postgres", "--no-sync"]), capture_output=True, text=True)
    if init.returncode:
        shutil.rmtree(home, ignore_errors=True)
        pytest.skip(f"initdb failed: {init.stderr[-500:]}")

    def start() -> None:
        options = f"-p {port} -k {home} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(as_cluster_owner([*ctl, "-w", "-o", options, "start"]), check=True,
                       capture_output=True)

    def stop() -> None:
        subprocess.run(as_cluster_owner([*ctl, "-w", "-m", "fast", "stop"]), check=True, capture_output=True)

    start()
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", start, stop
    finally:
        subprocess.run(as_cluster_owner([*ctl, "-m", "immediate", "stop"]), capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def test_database_restart_gives_503_then_recovers_without_restart(tmp_path):
    with private_cluster() as (url, start, stop):
        app = create_app({"SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            upgrade()
            db.engine.dispose()
        token = organiser_token(app)
        log = tmp_path / "gunicorn.log"
        with gunicorn(url, app.config["SECRET_KEY"], app.instance_path, log, workers=1, threads=2) as (port, _):
            assert call(port, "GET", "/", accept="text/html")[0] == 200
            assert call(port, "GET", "/api/v1/tournaments", token)[0] == 200

            staff, visitor = Browser(port), Browser(port)  # someone logged in, someone about to
            login = {"email": "fault-organiser@example.org", "password": "fault-test-organiser-2026"}
            assert staff.open("/login", {"csrf_token": staff.csrf("/login"), **login})[0] == 200  # on /manage
            token_for_login = visitor.csrf("/login")

            stop()
            status, headers, page = call(port, "GET", "/", accept="text/html")
            assert status == 503 and headers["retry-after"].isdigit()
            assert headers["content-type"].startswith("text/html") and "database cannot be reached" in page
            # Logged in too (issue 31): the 503 page asks the database nothing more, instead of a bare 500.
            for who, path, form in [(staff, "/manage", None), (staff, "/login", None),
                                    (staff, "/no-such-page", None),
                                    (visitor, "/login", {"csrf_token": token_for_login, **login})]:
                status, headers, page = who.open(path, form)
                assert status == 503 and headers["retry-after"].isdigit(), (path, status, page[:300])
                assert "database cannot be reached" in page, path
            status, headers, answer = call(port, "GET", "/api/v1/tournaments", token)
            assert status == 503 and headers["retry-after"].isdigit()
            assert "database cannot be reached" in answer["error"]
            status, _, answer = call(port, "POST", "/api/v1/tournaments", token, {"name": "Down Open"})
            assert status == 503, answer

            start()
            deadline = time.monotonic() + 20
            while call(port, "GET", "/", accept="text/html")[0] != 200:  # the same gunicorn, not restarted
                assert time.monotonic() < deadline, "the app did not recover after the database came back"
                time.sleep(0.5)
            assert call(port, "GET", "/api/v1/tournaments", token)[0] == 200
            status, _, answer = call(port, "POST", "/api/v1/tournaments", token,
                                     {"name": "Back Open", "session_count": 1, "tie_breaks": []})
            assert status == 201, answer
        server_log = log.read_text()
        assert "Traceback" not in server_log, server_log[-3000:]
        assert "Database unreachable" in server_log
