"""Many viewers behind nginx's micro-cache (issue 23): ``python bench/viewers.py``.

Options: ``[--viewers 2000] [--poll-interval 10] [--tables 100] [--hand-interval 6] [--cycles 4]
[--json-share 0.1] [--player-share 0] [--no-cache] [--one-gunicorn]``; DATABASE_URL names a PostgreSQL database of its own
(default postgresql://postgres@127.0.0.1:5432/bench_viewers, created if missing; its schema is DROPPED and
rebuilt first).

The stack as deployed on this machine: gunicorn with deploy/gunicorn.conf.py, the live pages' own gunicorn
as deploy/mcr-tournament-live.service runs it (2 workers at nice 10; ``--one-gunicorn``: none, the live pages
go to the main one), PostgreSQL, and nginx with deploy/nginx-site.conf (its own nginx.conf: two workers, 4,096 connections each). Builds a tournament through
the API (4 x tables players, session 1 drawn and started), then, in one run:

- the tables enter hands through nginx and the API all along (one client per table, in a process of its
  own, a hand every ~hand-interval seconds, 0.5x to 1.5x at random, each with its Idempotency-Key);
- after a first round of hands, windows of one poll interval follow: the tables alone, then with the
  viewers, `cycles` times. In a viewers' window each viewer, with its own keep-alive connection, its
  Accept-Language (one of five) and gzip, polls its public page once at its own moment (a random offset,
  the same in every window) with the ETag it last got (If-None-Match), as static/js/live.js does every
  10 s: the standings page, or the live standings JSON (json-share of them: the projector and stream
  overlays), or a player's own page (player-share). Alternating windows share out between both conditions
  whatever else the machine is doing.

The live pages come gzip-compressed from the app, once per page, language and state, and nginx keeps and sends
that copy as it is (no gzip per answer): the 200s' Content-Encoding is printed with the answers.

Prints the viewers' p50/p95/p99, by page and by what nginx answered (HIT, UPDATING, EXPIRED ...), how late
the load generator's own loop woke (included in those figures), the requests that reached gunicorn (its
access log) against those nginx took, hand entry p50/p95/p99 with the viewers and without, as a ratio, and
where the CPU went (others: processes outside the bench). Both load generators share the machine's cores
with the servers. ``--no-cache`` serves the same site with the micro-cache switched off, to compare.
``--viewers 0`` is the bench against itself: both kinds of window without viewers, so its ratio is the spread
of the measurement on this machine (x1.00-1.02 p50, x1.04-1.06 p95 in two quiet runs, December 2026).

``--client wrk`` (the default when Debian's wrk is installed) has the viewers polled by wrk, one process per
page and language (bench/viewers.lua: each connection a viewer with its own moment and the ETag last seen),
from the first window with the viewers to the last, every other interval: a load generator in C takes a
fraction of the CPU the Python one does on the cores it shares with the servers. wrk gives each process's
latency quantiles (0.1% steps), merged here by their request counts; the cache statuses and the late loop
are the Python client's alone. ``--client python``: the asyncio client above (it can poll player pages).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import pathlib
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter, defaultdict
from dataclasses import dataclass, field

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

import aiohttp  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from bench.load import (  # noqa: E402
    PURE_STRAIGHT,
    Client,
    _processes,
    app_cpu,
    free_port,
    machine_cpu,
    percentile,
    prepare_database,
    process_cpu,
)
from tests.deploy.servers import NGINX, render_site  # noqa: E402
from tournament.config import normalise_database_url  # noqa: E402

DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/bench_viewers"
# What phones at an international event send: the app answers each language with its own page (Vary).
LANGUAGES = ["en-GB,en;q=0.9", "en-US,en;q=0.9", "fi-FI,fi;q=0.9,en;q=0.8", "zh-CN,zh;q=0.9,en;q=0.8",
             "sv-SE,sv;q=0.9,en;q=0.8"]
HANDS_PER_TABLE = 16  # a session's hands (rotation.HANDS_PER_SESSION): the entry stops there


# ----------------------------------------------------------------------------- servers


def ensure_database(url: str) -> None:
    target = make_url(normalise_database_url(url))
    admin = create_engine(target.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": target.database}):
            conn.execute(text(f'CREATE DATABASE "{target.database}"'))
    admin.dispose()


def wait_for(port: int, process: subprocess.Popen, what: str) -> None:
    import socket

    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                raise SystemExit(f"{what} did not start") from None
            time.sleep(0.2)


def start_gunicorn(port: int, url: str, secret: str, folder: pathlib.Path, live: bool = False) -> subprocess.Popen:
    """deploy/gunicorn.conf.py as shipped (3 workers x 4 threads unless GUNICORN_* say otherwise), behind
    nginx (TRUSTED_PROXIES=1), its access log in a file: one line per request that reached it. `live`: the
    live pages' own, as deploy/mcr-tournament-live.service runs it (2 workers, nice 10), logging to the
    same file."""
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": secret, "TRUSTED_PROXIES": "1",
           "GUNICORN_ACCESS_LOG": str(folder / "gunicorn-access.log")}
    if live:
        env["GUNICORN_WORKERS"] = unit_setting("GUNICORN_WORKERS")
    process = subprocess.Popen(
        [*(["nice", "-n", unit_setting("Nice")] if live else []),
         str(pathlib.Path(sys.executable).with_name("gunicorn")), "-c", str(ROOT / "deploy" / "gunicorn.conf.py"),
         "--bind", f"127.0.0.1:{port}", "app:app"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=(folder / ("gunicorn-live.log" if live else "gunicorn.log")).open("w"))
    wait_for(port, process, "gunicorn")
    return process


def unit_setting(name: str) -> str:
    """A setting of deploy/mcr-tournament-live.service (`Nice=10`, `Environment=GUNICORN_WORKERS=2`)."""
    unit = (ROOT / "deploy" / "mcr-tournament-live.service").read_text()
    return next(line.rsplit("=", 1)[1].strip() for line in unit.splitlines()
                if line.startswith((f"{name}=", f"Environment={name}=")))


def start_nginx(app_port: int, folder: pathlib.Path, cache: bool, live_port: int | None) -> tuple[int, subprocess.Popen]:
    """The shipped site (tests/deploy/servers.render_site: loopback ports, the cache in `folder`) in an
    nginx.conf like Debian's, with room for 2,000 kept-alive phones (Debian's default is 768 connections
    per worker)."""
    if NGINX is None:
        raise SystemExit("nginx is not installed: apt-get install -y nginx")
    port = free_port()
    prefix = folder / "nginx"
    prefix.mkdir()
    site = render_site(app_port, port, prefix / "cache", live_port)
    if not cache:
        site = site.replace("        proxy_cache mcr_live;\n", "        proxy_cache off;\n")
    (prefix / "site.conf").write_text(site)
    temp_paths = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                           for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    user = "user root;\n" if os.geteuid() == 0 else ""
    (prefix / "nginx.conf").write_text(
        f"{user}daemon off;\nworker_processes 2;\nworker_rlimit_nofile 16384;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        f"http {{\n    include /etc/nginx/mime.types;\n    sendfile on;\n    tcp_nopush on;\n"
        f"    access_log off;\n{temp_paths}\n    include {prefix / 'site.conf'};\n}}\n")
    command = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
    check = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if check.returncode:
        raise SystemExit(check.stderr)
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(port, process, "nginx")
    return port, process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()


def database_cpu(name: str) -> float:
    """CPU seconds of the PostgreSQL backends serving database `name` (the pools keep them open): other
    databases on this server, other people's tests, are left out."""
    total = 0.0
    for pid, command, _ in _processes():
        if command != "postgres":
            continue
        try:
            title = pathlib.Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if f" {name} " in title:
            total += process_cpu(pid)
    return total


def nginx_cpu(master: int) -> float:
    return process_cpu(master) + sum(process_cpu(pid) for pid, _, parent in _processes() if parent == master)


def log_size(path: pathlib.Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def requests_between(path: pathlib.Path, start: int, end: int) -> Counter:
    """The requests gunicorn logged between two sizes of its access log, by kind: the viewers' pages (GET
    /t/...) and the hands (POST /api/...)."""
    with path.open("rb") as log:
        log.seek(start)
        chunk = log.read(end - start).decode(errors="replace")
    kinds: Counter = Counter()
    for line in chunk.splitlines():
        kinds["viewers' pages" if '"GET /t/' in line else "hands" if '"POST /api/' in line else "other"] += 1
    return kinds


# ----------------------------------------------------------------------------- the tables


@dataclass
class Plan:
    """What every client needs to know, in monotonic seconds (CLOCK_MONOTONIC: the same in both processes)."""
    base: str
    token: str
    tid: int
    seats: dict[int, list[int]]
    start: float
    hand_interval: float
    stop: float


def enter_hands(plan: Plan, results, measured) -> None:
    """The tables, in their own process: (started, seconds, status) per hand, sent back through `results`
    once the main process has `measured` its CPU for the last time."""
    entries: list[tuple[float, float, int]] = []

    async def table(number: int, session: aiohttp.ClientSession) -> None:
        east, south, *_ = plan.seats[number]
        path = f"{plan.base}/api/v1/tournaments/{plan.tid}/sessions/1/tables/{number}/hands"
        await asyncio.sleep(max(0.0, plan.start - time.monotonic()) + random.uniform(0, plan.hand_interval))
        for hand in range(1, HANDS_PER_TABLE + 1):
            if time.monotonic() > plan.stop:
                return
            body = ({"number": hand, "result": "win", "winner_id": east, "discarder_id": south,
                     "hand": PURE_STRAIGHT} if hand % 2 else {"number": hand, "result": "draw"})
            headers = {"Authorization": f"Bearer {plan.token}", "Idempotency-Key": str(uuid.uuid4())}
            status = 0
            started = time.monotonic()
            for _ in range(2):  # retried once with the same key, as a scoring tablet would
                try:
                    async with session.post(path, json=body, headers=headers) as answer:
                        await answer.read()
                        status = answer.status
                except (TimeoutError, aiohttp.ClientError):
                    status = 0
                if status and status < 500:
                    break
            entries.append((started, time.monotonic() - started, status))
            await asyncio.sleep(plan.hand_interval * random.uniform(0.5, 1.5))

    async def main() -> None:
        timeout = aiohttp.ClientTimeout(total=30)
        sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1), timeout=timeout)
                    for _ in plan.seats]
        try:
            await asyncio.gather(*(table(n, s) for n, s in zip(plan.seats, sessions, strict=True)))
        finally:
            for s in sessions:
                await s.close()

    asyncio.run(main())
    measured.wait(60)
    results.send((entries, time.process_time()))
    results.close()


# ----------------------------------------------------------------------------- the viewers


@dataclass
class Viewers:
    timings: list[float] = field(default_factory=list)
    statuses: Counter = field(default_factory=Counter)
    by_page: dict[str, list[float]] = field(default_factory=dict)
    by_cache: dict[str, list[float]] = field(default_factory=dict)
    lag: list[float] = field(default_factory=list)  # how late the load generator's own loop woke up
    errors: list[str] = field(default_factory=list)
    encodings: Counter = field(default_factory=Counter)  # the 200s' Content-Encoding (the app's gzip, kept)
    failures: Counter = field(default_factory=Counter)  # wrk's failed requests by kind (connect, read, timeout ...)
    waiting: int = 0  # requests sent in the measured time and not answered yet


async def watch(plan: Plan, pages: list[tuple[str, str]], windows: list[tuple[float, float]], poll: float,
                out: Viewers) -> None:
    """Every viewer polls its page every `poll` seconds from its own moment (a random offset), during the
    `windows` only: a window of one poll interval holds one request of each viewer."""
    first, last = windows[0][0], windows[-1][1]
    timeout = aiohttp.ClientTimeout(total=30)

    def in_window(moment: float) -> bool:
        return any(begin <= moment < end for begin, end in windows)

    async def viewer(kind: str, path: str, language: str, offset: float) -> None:
        connector = aiohttp.TCPConnector(limit=1)
        # gzip asked for, as browsers do, but not unpacked: the load generator spares the CPU it shares.
        async with aiohttp.ClientSession(connector=connector, timeout=timeout, auto_decompress=False,
                                         headers={"Accept-Language": language,
                                                  "Accept-Encoding": "gzip"}) as session:
            etag = None
            moment = first + offset
            while moment < last:
                if not in_window(moment) or moment < time.monotonic():  # paused, or that poll's time is gone
                    moment += poll
                    continue
                await asyncio.sleep(moment - time.monotonic())
                headers = {"If-None-Match": etag} if etag else {}
                sent = time.monotonic()
                out.waiting += 1
                try:
                    async with session.get(plan.base + path, headers=headers) as answer:
                        await answer.read()
                        status = answer.status
                        etag = answer.headers.get("ETag", etag)
                        cache = answer.headers.get("X-Cache-Status", "-")
                        if status == 200:
                            out.encodings[answer.headers.get("Content-Encoding", "none")] += 1
                except (TimeoutError, aiohttp.ClientError) as error:
                    status, cache = 0, "-"
                    if len(out.errors) < 5:
                        out.errors.append(f"{path}: {error!r}")
                elapsed = time.monotonic() - sent
                out.waiting -= 1
                out.timings.append(elapsed)
                out.by_page.setdefault(kind, []).append(elapsed)
                out.by_cache.setdefault(cache, []).append(elapsed)
                out.statuses[status] += 1
                moment += poll

    async def ticker() -> None:
        """A latency measured here includes the time the loop itself was late: this says how late."""
        while time.monotonic() < last:
            before = time.monotonic()
            await asyncio.sleep(0.05)
            if in_window(before):
                out.lag.append(time.monotonic() - before - 0.05)

    rng = random.Random(11)
    await asyncio.gather(ticker(), *(viewer(kind, path, LANGUAGES[i % len(LANGUAGES)], rng.uniform(0, poll))
                                     for i, (kind, path) in enumerate(pages)))


async def watch_with_wrk(plan: Plan, pages: list[tuple[str, str]], windows: list[tuple[float, float]],
                         poll: float, out: Viewers, running: list[int]) -> None:
    """The viewers as wrk processes (see the module's docstring), from the first of the `windows` to the last;
    their pids in `running` while they run (for the CPU marks)."""
    groups: Counter = Counter((kind, path, LANGUAGES[i % len(LANGUAGES)]) for i, (kind, path) in enumerate(pages))
    script = ROOT / "bench" / "viewers.lua"
    await asyncio.sleep(max(0.0, windows[0][0] - time.monotonic()))
    # until just after the last window: the final CPU mark finds every process still running
    seconds = windows[-1][1] - time.monotonic() + 2
    processes = []
    for (kind, path, language), count in sorted(groups.items()):
        process = await asyncio.create_subprocess_exec(
            "wrk", "-t1", f"-c{count}", f"-d{seconds:.0f}s", "--timeout", "30s", "-s", str(script),
            plan.base + path, "--", str(int(poll * 1000)), str(count), language,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        processes.append((kind, process))
        running.append(process.pid)
    for kind, process in processes:
        stdout, stderr = await process.communicate()
        lines = [line for line in stdout.decode().splitlines() if line.startswith("{")]
        if process.returncode or not lines:
            out.errors.append(f"wrk for {kind}: exit {process.returncode}: {stderr.decode()[-300:]}")
            continue
        figures = json.loads(lines[-1])
        requests, quantiles = figures["requests"], figures["quantiles_us"]
        # the process's requests rebuilt from its quantiles: merged with the others' by their counts
        taken = [quantiles[min(len(quantiles) - 1, int((k + 0.5) / requests * len(quantiles)))] / 1e6
                 for k in range(requests)]
        out.timings.extend(taken)
        out.by_page.setdefault(kind, []).extend(taken)
        for status, count in figures["statuses"].items():
            out.statuses[int(status)] += count
        if figures["errors"]:
            out.statuses[0] += figures["errors"]
            out.failures.update({name: count for name, count in figures["error_kinds"].items() if count})
    running.clear()


# ----------------------------------------------------------------------------- the run


def ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:8.1f}" if values else "       -"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--viewers", type=int, default=2000)
    parser.add_argument("--poll-interval", type=float, default=10.0)
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--hand-interval", type=float, default=6.0,
                        help="seconds a table waits after an answer before its next hand (0.5x to 1.5x)")
    parser.add_argument("--cycles", type=int, default=4,
                        help="windows of one poll interval, tables alone then with the viewers, this many times")
    parser.add_argument("--json-share", type=float, default=0.1,
                        help="share of the viewers polling the live standings JSON (the projector's)")
    parser.add_argument("--player-share", type=float, default=0.0,
                        help="share of the viewers polling their own player page (400 different pages)")
    parser.add_argument("--no-cache", action="store_true", help="the same site with the micro-cache off")
    parser.add_argument("--one-gunicorn", action="store_true",
                        help="no gunicorn of the live pages' own: the main one serves them too (to compare)")
    parser.add_argument("--client", choices=("wrk", "python"), default="wrk" if shutil.which("wrk") else "python",
                        help="the viewers' load generator (default: wrk when installed, `apt-get install wrk`)")
    args = parser.parse_args()
    if args.client == "wrk" and args.player_share:
        parser.error("--client wrk polls one page per process: use --client python for player pages")
    url = os.environ.get("DATABASE_URL", DEFAULT_DATABASE)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.viewers + 1000)), hard))

    ensure_database(url)
    database = make_url(normalise_database_url(url)).database
    token, secret = prepare_database(url)
    folder = pathlib.Path(os.environ["INSTANCE_PATH"])
    app_port = free_port()
    server = start_gunicorn(app_port, url, secret, folder)
    live_port = None if args.one_gunicorn else free_port()
    live = None if live_port is None else start_gunicorn(live_port, url, secret, folder, live=True)
    nginx = None
    try:
        port, nginx = start_nginx(app_port, folder, cache=not args.no_cache, live_port=live_port)
        base = f"http://127.0.0.1:{port}"
        boss = Client(app_port, token, defaultdict(list), defaultdict(int), defaultdict(int), threading.Lock())
        tid = boss.expect(201, "POST", "/api/v1/tournaments",
                          {"name": "Viewers Open", "session_count": 1, "tie_breaks": []})["id"]
        players = []
        for i in range(args.tables * 4):
            pid = boss.expect(201, "POST", f"/api/v1/tournaments/{tid}/players",
                              {"first_name": f"P{i:04d}", "last_name": "Viewer", "country": "FI"})["id"]
            boss.expect(200, "POST", f"/api/v1/tournaments/{tid}/players/{pid}/checkin")
            players.append(pid)
        drawn = boss.expect(201, "POST", f"/api/v1/tournaments/{tid}/sessions/1/draw", {"seed": 1})
        boss.expect(200, "POST", f"/api/v1/tournaments/{tid}/sessions/1/start")
        seats = {t["table"]: [s["player_id"] for s in t["seats"]] for t in drawn["tables"]}

        rng = random.Random(7)
        pages = []
        for _ in range(args.viewers):
            draw = rng.random()
            if draw < args.player_share:
                pages.append(("player page", f"/t/{tid}/players/{rng.choice(players)}"))
            elif draw < args.player_share + args.json_share:
                pages.append(("standings.json", f"/t/{tid}/live/standings.json"))
            else:
                pages.append(("standings page", f"/t/{tid}/standings"))

        # The timeline: after a first round of hands, windows of one poll interval, the tables alone and
        # with the viewers in turn, so that whatever else the machine does weighs on both alike.
        poll = args.poll_interval
        start = time.monotonic() + 2
        first = start + args.hand_interval
        windows = [(first + k * poll, first + (k + 1) * poll) for k in range(2 * args.cycles)]
        alone, watched = windows[0::2], windows[1::2]
        if start + HANDS_PER_TABLE * args.hand_interval < windows[-1][1]:
            print(f"note: {HANDS_PER_TABLE} hands at ~{args.hand_interval:g} s end before the last window does; "
                  "fewer hands are measured in it")
        plan = Plan(base=base, token=token, tid=tid, seats=seats, start=start, hand_interval=args.hand_interval,
                    stop=windows[-1][1])

        receiver, sender = multiprocessing.Pipe(duplex=False)
        measured = multiprocessing.get_context("fork").Event()
        tables = multiprocessing.get_context("fork").Process(target=enter_hands, args=(plan, sender, measured))
        tables.start()
        access_log = folder / "gunicorn-access.log"
        marks: list[tuple] = []  # at the start of each window, and at the end of the last

        def mark() -> None:
            viewers_cpu = (sum(process_cpu(pid) for pid in wrk_running) if args.client == "wrk"
                           else time.process_time())
            gunicorn_cpu = app_cpu(server.pid) + (app_cpu(live.pid) if live else 0.0)
            marks.append((machine_cpu(), gunicorn_cpu, database_cpu(database), nginx_cpu(nginx.pid),
                          viewers_cpu, process_cpu(tables.pid), log_size(access_log)))

        viewers = Viewers()
        wrk_running: list[int] = []

        async def timeline() -> None:
            if args.client == "wrk":
                watching = asyncio.ensure_future(watch_with_wrk(plan, pages, watched, poll, viewers, wrk_running))
            else:
                watching = asyncio.ensure_future(watch(plan, pages, watched, poll, viewers))
            for begin, _ in windows:
                await asyncio.sleep(max(0.0, begin - time.monotonic()))
                mark()
            await asyncio.sleep(max(0.0, windows[-1][1] - time.monotonic()))
            mark()
            if args.client == "wrk":  # they stop on their own, 2 s on
                await watching
                return
            # Whatever the viewers still wait for (without the cache, up to 30 s) is dropped, and counted.
            await asyncio.sleep(1)
            watching.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watching

        asyncio.run(timeline())
        measured.set()
        entries, tables_cpu = receiver.recv()
        tables.join()
    finally:
        if nginx is not None:
            stop(nginx)
        if live is not None:
            stop(live)
        stop(server)

    # ------------------------------------------------------------------------- the figures
    workers = os.environ.get("GUNICORN_WORKERS", "3")
    threads = os.environ.get("GUNICORN_THREADS", "4")
    share = f"{args.json_share:.0%} standings.json" + (f", {args.player_share:.0%} player pages"
                                                        if args.player_share else "")
    seconds = args.cycles * poll  # of each condition
    print(f"{args.viewers} viewers polling every {poll:g} s ({share}, the rest the standings page), "
          f"{args.tables} tables entering a hand every ~{args.hand_interval:g} s each "
          f"({args.tables / args.hand_interval:.1f} hands/s); micro-cache {'OFF' if args.no_cache else 'on'}; "
          f"gunicorn {workers} x {threads}"
          + ("" if args.one_gunicorn else f" + live pages' {unit_setting('GUNICORN_WORKERS')} x {threads} at nice "
             f"{unit_setting('Nice')}") + f"; {os.cpu_count()} cores; {args.cycles} x ({poll:g} s tables alone, "
          f"{poll:g} s with the viewers); viewers' client: {args.client}")
    print()
    values = viewers.timings
    print(f"viewers: {len(values)} requests in {seconds:g} s, {len(values) / seconds:.0f}/s; p50 "
          f"{ms(values, 0.5).strip()} ms, p95 {ms(values, 0.95).strip()} ms, p99 {ms(values, 0.99).strip()} ms")
    for kind, kind_values in sorted(viewers.by_page.items()):
        print(f"  {kind:<16} {len(kind_values):>6} requests  p50 {ms(kind_values, 0.5)}  p95 {ms(kind_values, 0.95)}"
              f"  p99 {ms(kind_values, 0.99)} ms")
    for name, cache_values in sorted(viewers.by_cache.items(), key=lambda item: -len(item[1])):
        print(f"  nginx {name:<10} {len(cache_values):>6} requests  p50 {ms(cache_values, 0.5)}  p95 "
              f"{ms(cache_values, 0.95)}  p99 {ms(cache_values, 0.99)} ms")
    print(f"  the load generator's loop woke late by p50 {ms(viewers.lag, 0.5).strip()} ms, p95 "
          f"{ms(viewers.lag, 0.95).strip()} ms, p99 {ms(viewers.lag, 0.99).strip()} ms (included in the figures above)")
    print("  answers: " + ", ".join(f"{status or 'failed'} x{count}" for status, count in sorted(viewers.statuses.items()))
          + "; the 200s' Content-Encoding: "
          + (", ".join(f"{name} x{count}" for name, count in viewers.encodings.most_common()) or "-"))
    if viewers.failures:
        print("  failed: " + ", ".join(f"{name} x{count}" for name, count in viewers.failures.most_common()))
    if viewers.waiting:
        print(f"  {viewers.waiting} requests still unanswered when the viewers left (not in the figures)")
    for error in viewers.errors:
        print("  error:", error)

    def totals(which: list[tuple[float, float]]) -> tuple[list[float], Counter]:
        """CPU seconds (machine busy, machine capacity, gunicorn, PostgreSQL, nginx, viewers' client, tables'
        client) and the requests gunicorn logged, summed over the windows."""
        cpu = [0.0] * 7
        reached: Counter = Counter()
        for window in which:
            k = windows.index(window)
            before, after = marks[k], marks[k + 1]
            cpu[0] += after[0][0] - before[0][0]
            cpu[1] += after[0][1] - before[0][1]
            for i in range(1, 6):
                cpu[i + 1] += after[i] - before[i]
            reached += requests_between(access_log, before[6], after[6])
        return cpu, reached

    watched_cpu, reached = totals(watched)
    upstream = reached["viewers' pages"]
    print(f"  requests that reached gunicorn: {upstream} from viewers ({upstream / seconds:.1f}/s); nginx took "
          f"{len(values)}" + ("" if args.no_cache else f": {1 - upstream / max(1, len(values)):.1%} answered by "
                               "nginx alone"))
    print()
    print(f"{'hand entry':<14} {'hands':>6} {'per s':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'failed':>6}  "
          f"CPU s: machine busy, gunicorn, PostgreSQL, nginx, viewers' client, tables' client, others")
    figures = {}
    for name, which in (("alone", alone), ("with viewers", watched)):
        chosen = [e for e in entries if any(begin <= e[0] < end for begin, end in which)]
        taken = [seconds_taken for _, seconds_taken, _ in chosen]
        failed = sum(1 for _, _, status in chosen if status != 201)
        figures[name] = taken
        cpu, _ = totals(which)
        others = cpu[0] - sum(cpu[2:])
        print(f"{name:<14} {len(taken):>6} {len(taken) / seconds:6.1f} {ms(taken, 0.5)} {ms(taken, 0.95)} "
              f"{ms(taken, 0.99)} {failed:>6}  {cpu[0] / max(cpu[1], 1e-9):.0%} of {cpu[1]:.0f}, "
              + ", ".join(f"{value:.1f}" for value in cpu[2:]) + f", {others:.1f}")
        if others > 0.2 * cpu[1]:
            print(f"{'':<14} warning: other processes took {others / max(cpu[1], 1e-9):.0%} of the machine in these "
                  "windows: the figures are this machine's, not the stack's alone")
    alone_taken, watched_taken = figures["alone"], figures["with viewers"]
    if alone_taken and watched_taken:
        print(f"hand entry with the viewers / without: p50 x"
              f"{statistics.median(watched_taken) / statistics.median(alone_taken):.2f}, p95 x"
              f"{percentile(watched_taken, 0.95) / percentile(alone_taken, 0.95):.2f}")
    print(f"the tables' own client used {tables_cpu:.1f} s of CPU in all; gunicorn log: {folder / 'gunicorn.log'}")
    failed_hands = [e for e in entries if e[2] != 201]
    if failed_hands or viewers.statuses.get(0) or any(s >= 500 for s in viewers.statuses):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
