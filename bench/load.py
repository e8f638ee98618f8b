"""Event-day load on gunicorn + PostgreSQL: ``DATABASE_URL=postgresql://... python bench/load.py``.

Options: ``[--tables 100] [--hands 16] [--standings-clients 40] [--seating-clients 40] [--hand-interval 4]
[--poll-interval 1] [--max-seconds 300]``.

Serves the app with deploy/gunicorn.conf.py on a free loopback port, builds a tournament through the API
(4 x tables players, all present, session 1 drawn and started), then every table enters its hands through
the API at once (one thread per table, one hand after another, each with its own Idempotency-Key; a request
that fails is retried once with the same key) while clients poll the API standings and the public seating
page until the entry ends. Prints p50/p95/p99 and throughput per kind of request, the errors, and whether
every answered hand is stored exactly once. DATABASE_URL must name a PostgreSQL database of its own: its
schema is DROPPED and rebuilt first.

Pace: after each answer a table waits about ``--hand-interval`` seconds (0.5x to 1.5x, at random) before
entering its next hand, and a poller about ``--poll-interval`` seconds; every client starts at a random
moment within its first interval. The defaults are an event day compressed: a hand of MCR takes minutes,
so 100 tables enter about 0.3 hands a second; the default offers 25 a second (75 times that), and the
pollers ask every second where the live pages ask every 10 s. Seating pollers send If-None-Match with the
ETag they last got, as the live pages' script does. ``--hand-interval 0 --poll-interval 0`` is the
saturation case: every client sends its next request as soon as it has an answer, so latency is queueing
(clients / throughput) and the figure that matters is the throughput.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import defaultdict
from collections.abc import Iterator

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from tournament import create_app  # noqa: E402
from tournament.config import normalise_database_url  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.services.people.users import create_api_token, create_user  # noqa: E402

PURE_STRAIGHT = "123456789m123s5p5p"  # a legal win worth 22 fan points on a discard, whatever the winds


class Client:
    """One keep-alive connection; every request is timed under its kind."""

    def __init__(self, port: int, token: str, timings: dict[str, list[float]], errors: dict[str, int],
                 not_modified: dict[str, int], lock: threading.Lock) -> None:
        self.port, self.token = port, token
        self.timings, self.errors, self.not_modified, self.lock = timings, errors, not_modified, lock
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.etag: str | None = None  # of the last answer

    def call(self, kind: str, method: str, path: str, body: object = None,
             key: str | None = None, etag: str | None = None) -> tuple[int, object]:
        headers = {"Authorization": f"Bearer {self.token}"}
        if etag:
            headers["If-None-Match"] = etag
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if key:
            headers["Idempotency-Key"] = key
        started = time.perf_counter()
        status, payload = 0, b""
        # A kept-alive connection the server closed meanwhile is opened again and the request sent once more,
        # as HTTP clients do; only a failure on a fresh connection counts as an error.
        for fresh in (self.connection.sock is None, True):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                payload = response.read()
                status = response.status
                self.etag = response.getheader("ETag")
                break
            except (OSError, http.client.HTTPException):
                self.connection.close()
                if fresh:
                    break
        elapsed = time.perf_counter() - started
        with self.lock:
            self.timings[kind].append(elapsed)
            if status == 0 or status >= 500:
                self.errors[kind] += 1
            elif status == 304:
                self.not_modified[kind] += 1
        is_json = kind != "standings" and payload[:1] in (b"{", b"[")  # the pollers' bodies are not read
        return status, (json.loads(payload) if is_json else payload)

    def expect(self, status: int, method: str, path: str, body: object = None) -> dict:
        got, answer = self.call("setup", method, path, body)
        if got != status:
            raise SystemExit(f"setup: {method} {path} answered {got}: {answer!r}")
        return answer  # type: ignore[return-value]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def prepare_database(url: str) -> tuple[str, str]:
    """Empty schema, migrations, one organiser and their API token; returns (token, secret key)."""
    engine = create_engine(normalise_database_url(url))
    if engine.dialect.name != "postgresql":
        raise SystemExit("DATABASE_URL must be PostgreSQL (the load is about gunicorn + PostgreSQL)")
    with engine.begin() as conn:
        conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
        conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        user = create_user("bench-organiser@example.org", "load-bench-organiser-2026", "organiser")
        db.session.flush()
        _, token = create_api_token(user, "bench")
        db.session.commit()
    return token, app.config["SECRET_KEY"]


def start_gunicorn(port: int, url: str, secret: str, log: pathlib.Path) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secret, "GUNICORN_ACCESS_LOG": os.devnull}
    process = subprocess.Popen(
        [str(pathlib.Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", "app:app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=log.open("w"))
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit("gunicorn did not start") from None
            time.sleep(0.2)


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in pathlib.Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    ticks = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields) - idle) / ticks, sum(fields) / ticks


def process_cpu(pid: int) -> float:
    """User + system CPU seconds of a process and its children that ended, from /proc/<pid>/stat."""
    try:
        fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _processes() -> Iterator[tuple[int, str, int]]:
    """(pid, command name, parent pid) of every process, from /proc."""
    for stat in pathlib.Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
            name = text[text.index("(") + 1:text.rindex(")")]
            yield int(stat.parent.name), name, int(text.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue


def app_cpu(master: int) -> float:
    """CPU seconds of gunicorn: the master with the workers it already replaced, and its live workers."""
    return process_cpu(master) + sum(process_cpu(pid) for pid, _, parent in _processes() if parent == master)


def app_memory(master: int) -> float:
    """Resident memory of gunicorn's workers, in MB."""
    total = 0
    for pid, _, parent in _processes():
        if parent == master:
            try:
                status = pathlib.Path(f"/proc/{pid}/status").read_text()
            except OSError:  # gone meanwhile
                continue
            total += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total / 1024


def database_cpu() -> float:
    """CPU seconds of this machine's PostgreSQL processes (the postmaster counts the backends that ended)."""
    return sum(process_cpu(pid) for pid, name, _ in _processes() if name == "postgres")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hands", type=int, default=16)
    parser.add_argument("--standings-clients", type=int, default=40)
    parser.add_argument("--seating-clients", type=int, default=40)
    parser.add_argument("--hand-interval", type=float, default=4.0,
                        help="seconds a table waits after an answer before its next hand (0: flat out)")
    parser.add_argument("--poll-interval", type=float, default=1.0,
                        help="seconds a poller waits between requests (0: flat out)")
    parser.add_argument("--max-seconds", type=float, default=300, help="the entry stops after this long")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL")
    if not url:
        raise SystemExit("set DATABASE_URL to a PostgreSQL database of its own (its schema is rebuilt)")

    token, secret = prepare_database(url)
    port = free_port()
    # gunicorn's own log (worker starts, tracebacks) goes to a file, named at the end.
    server_log = pathlib.Path(os.environ["INSTANCE_PATH"]) / "gunicorn.log"
    server = start_gunicorn(port, url, secret, server_log)
    timings: dict[str, list[float]] = defaultdict(list)
    errors: dict[str, int] = defaultdict(int)
    not_modified: dict[str, int] = defaultdict(int)  # 304s: answers, not errors
    lock = threading.Lock()
    try:
        boss = Client(port, token, timings, errors, not_modified, lock)
        tid = boss.expect(201, "POST", "/api/v1/tournaments",
                          {"name": "Load Open", "session_count": 1, "tie_breaks": []})["id"]
        for i in range(args.tables * 4):
            pid = boss.expect(201, "POST", f"/api/v1/tournaments/{tid}/players",
                              {"first_name": f"P{i:04d}", "last_name": "Load", "country": "FI"})["id"]
            boss.expect(200, "POST", f"/api/v1/tournaments/{tid}/players/{pid}/checkin")
        drawn = boss.expect(201, "POST", f"/api/v1/tournaments/{tid}/sessions/1/draw", {"seed": 1})
        boss.expect(200, "POST", f"/api/v1/tournaments/{tid}/sessions/1/start")
        seats = {table["table"]: [seat["player_id"] for seat in table["seats"]] for table in drawn["tables"]}

        answered: dict[int, list[int]] = defaultdict(list)  # table -> hand numbers answered 201
        refused: list[str] = []
        entry_done = threading.Event()
        deadline = time.monotonic() + args.max_seconds

        def about(seconds: float) -> float:
            """0.5x to 1.5x `seconds`, at random: clients do not keep in step."""
            return seconds * random.uniform(0.5, 1.5)

        def enter(table: int) -> None:
            client = Client(port, token, timings, errors, not_modified, lock)
            east, south, *_ = seats[table]
            path = f"/api/v1/tournaments/{tid}/sessions/1/tables/{table}/hands"
            time.sleep(random.uniform(0, args.hand_interval))  # tables do not all start on the same tick
            for number in range(1, args.hands + 1):
                if time.monotonic() > deadline:
                    return
                body = ({"number": number, "result": "win", "winner_id": east, "discarder_id": south,
                         "hand": PURE_STRAIGHT} if number % 2 else {"number": number, "result": "draw"})
                key = str(uuid.uuid4())
                status, answer = client.call("hand entry", "POST", path, body, key)
                if status == 0 or status >= 500:  # retried once, as a scoring tablet would
                    status, answer = client.call("hand entry", "POST", path, body, key)
                if status == 201:
                    answered[table].append(number)
                else:
                    with lock:
                        refused.append(f"table {table} hand {number}: {status} {answer!r:.120}")
                if number < args.hands:
                    time.sleep(about(args.hand_interval))

        def poll(kind: str, path: str) -> None:
            client = Client(port, token, timings, errors, not_modified, lock)
            entry_done.wait(random.uniform(0, args.poll_interval))
            while not entry_done.is_set():
                status, _ = client.call(kind, "GET", path, etag=client.etag)
                entry_done.wait(about(args.poll_interval))  # cut short when the entry ends
                if status not in (200, 304) and status < 500 and status != 0:
                    with lock:
                        errors[kind] += 1  # a 4xx on a page that should answer is an error too

        pollers = [threading.Thread(target=poll, args=("standings", f"/api/v1/tournaments/{tid}/standings"))
                   for _ in range(args.standings_clients)]
        pollers += [threading.Thread(target=poll, args=("seating", f"/t/{tid}/seating/1"))
                    for _ in range(args.seating_clients)]
        tables = [threading.Thread(target=enter, args=(table,)) for table in seats]
        started = time.perf_counter()
        cpu_before, app_before, db_before = machine_cpu(), app_cpu(server.pid), database_cpu()
        memory_before = app_memory(server.pid)
        own_before = time.process_time()
        for thread in pollers + tables:
            thread.start()
        for thread in tables:
            thread.join()
        entry_done.set()
        for thread in pollers:
            thread.join()
        wall = time.perf_counter() - started
        cpu_after = machine_cpu()
        app_used, db_used = app_cpu(server.pid) - app_before, database_cpu() - db_before
        memory_after = app_memory(server.pid)
        own_cpu = time.process_time() - own_before

        # Exactly once: what the API lists per table is what it answered 201 for, each number once.
        lost = doubled = 0
        checker = Client(port, token, timings, errors, not_modified, lock)
        for table in seats:
            listing = checker.expect(200, "GET", f"/api/v1/tournaments/{tid}/sessions/1/tables/{table}/hands")
            stored = [hand["number"] for hand in listing["hands"]]
            doubled += len(stored) - len(set(stored))
            lost += len(set(answered[table]) - set(stored))
            doubled += len(set(stored) - set(answered[table]))  # stored but never answered: a ghost write
    finally:
        server.terminate()
        server.wait(30)

    offered = f"{args.tables / args.hand_interval:.0f} hands/s offered" if args.hand_interval else "flat out"
    print(f"{args.tables} tables x {args.hands} hands, a hand every ~{args.hand_interval:g} s per table "
          f"({offered}); {args.standings_clients} standings + {args.seating_clients} seating pollers every "
          f"~{args.poll_interval:g} s; gunicorn {os.environ.get('GUNICORN_WORKERS', '3')} workers x "
          f"{os.environ.get('GUNICORN_THREADS', '4')} threads; {wall:.1f} s")
    print(f"{'kind':<12} {'requests':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'per s':>7} {'errors':>6} "
          f"{'304s':>6}")
    for kind in ("hand entry", "standings", "seating"):
        values = timings[kind]
        if not values:
            print(f"{kind:<12} {0:>8}")
            continue
        print(f"{kind:<12} {len(values):>8} {statistics.median(values) * 1000:8.1f} "
              f"{percentile(values, 0.95) * 1000:8.1f} {percentile(values, 0.99) * 1000:8.1f} "
              f"{len(values) / wall:7.1f} {errors[kind]:>6} {not_modified[kind]:>6}")
    busy, capacity = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
    print(f"CPU while loaded: machine {busy / capacity:.0%} busy of {os.cpu_count()} cores ({busy:.1f} s); "
          f"gunicorn {app_used:.1f} s, PostgreSQL {db_used:.1f} s, this load generator {own_cpu:.1f} s, other "
          f"processes {busy - app_used - db_used - own_cpu:.1f} s")
    print(f"gunicorn workers' memory: {memory_before:.0f} MB before the load, {memory_after:.0f} MB after")
    total = sum(len(numbers) for numbers in answered.values())
    print(f"hands answered 201: {total} of {args.tables * args.hands}; refused: {len(refused)}; "
          f"lost: {lost}; doubled: {doubled}")
    for line in refused[:5]:
        print("  refused:", line)
    print(f"gunicorn log: {server_log}")
    if lost or doubled or refused or any(errors.values()):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
