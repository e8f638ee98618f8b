"""What a refused body costs a worker: gunicorn (the shipped settings, one worker) on PostgreSQL, sent the
bodies of issue 22's first finding and issue 31's (a players CSV of 200,000 columns through the organiser's
import page, backups of millions of small objects), each answer's status and time, and the worker's peak
resident memory (VmHWM) before and after each. Every body goes to a fresh worker, warmed the same way: its
peak is that body's alone.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench python bench/bodies.py [--mb 256]

The database's schema is dropped and made anew. Bodies are streamed from a generator: the client holds
one chunk at a time.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import pathlib
import re
import signal
import sys
import tempfile
import time
import urllib.parse
import uuid
from collections.abc import Iterator

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from load import _processes, free_port, prepare_database, start_gunicorn  # noqa: E402

from tournament.web.api.backup import MAX_IMPORT_OBJECTS  # noqa: E402

CHUNK = 1024 * 1024
ORGANISER = ("bench-organiser@example.org", "load-bench-organiser-2026")  # load.prepare_database's


def tiny_values(megabytes: int) -> Iterator[bytes]:
    """`[[0],[0],...]` of about `megabytes` MB: the most memory per byte once parsed."""
    piece = b"[0]," * (CHUNK // 4)
    yield b"["
    for _ in range(megabytes - 1):
        yield piece
    yield piece[:-1] + b"]"


def padded_json(megabytes: int) -> Iterator[bytes]:
    yield b'{"pad": "'
    for _ in range(megabytes):
        yield b"x" * CHUNK
    yield b'"}'


def small_objects(count: int) -> Iterator[bytes]:
    """`[{"a":0},{"a":0},...]`: `count` objects of 8 bytes, the most objects per byte a backup's rows could be."""
    per_chunk = CHUNK // 8
    yield b"["
    left = count
    while left > per_chunk:
        yield b'{"a":0},' * per_chunk
        left -= per_chunk
    yield b'{"a":0},' * (left - 1) + b'{"a":0}]'


def worker_pid(master: int) -> int | None:
    return next((pid for pid, _, parent in _processes() if parent == master), None)


def worker_peak_kb(master: int) -> int:
    """The worker's peak resident memory so far (one worker)."""
    pid = worker_pid(master)
    if pid is None:
        raise SystemExit("no gunicorn worker found")
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))


def fresh_worker(master: int, port: int, token: str) -> None:
    """Stop the worker (the master starts another at once) and warm the new one: imports, the pool,
    templates, so that the figures are the body's."""
    old = worker_pid(master)
    if old is not None:
        os.kill(old, signal.SIGTERM)
    deadline = time.monotonic() + 60
    while worker_pid(master) in (None, old):
        if time.monotonic() > deadline:
            raise SystemExit("gunicorn started no new worker")
        time.sleep(0.1)
    for _ in range(3):
        send(port, "GET", "/api/v1/me", iter(()), 0, {"Authorization": f"Bearer {token}"})
        send(port, "GET", "/t/1/standings", iter(()), 0, {})


def new_tournament(port: int, token: str) -> int:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("POST", "/api/v1/tournaments", body=json.dumps({"name": "Bench bodies"}),
                       headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    response = connection.getresponse()
    answer = response.read().decode()
    connection.close()
    if response.status != 201:
        raise SystemExit(f"could not create the tournament: {response.status} {answer}")
    return json.loads(answer)["id"]


class Browser:
    """Cookies and pages, as a browser keeps them (the login sets more than one cookie)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}

    @property
    def cookie(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def open(self, method: str, path: str, form: str | None = None) -> tuple[int, str]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Cookie": self.cookie}
        if form is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=form, headers=headers)
        response = connection.getresponse()
        page = response.read().decode()
        for header in response.msg.get_all("Set-Cookie") or []:
            name, _, value = header.split(";")[0].partition("=")
            self.cookies[name.strip()] = value
        connection.close()
        return response.status, page

    def csrf_token(self, path: str) -> str:
        return re.search(r'name="csrf_token"[^>]*value="([^"]+)"', self.open("GET", path)[1]).group(1)

    def login(self, email: str, password: str) -> None:
        form = urllib.parse.urlencode({"csrf_token": self.csrf_token("/login"), "email": email, "password": password})
        status, _ = self.open("POST", "/login", form)
        if status != 302:
            raise SystemExit(f"login failed with HTTP {status}")


def import_form(browser: Browser, page: str, filename: str, content: bytes) -> tuple[bytes, dict[str, str]]:
    """The players import page's form with `content` as the uploaded file, as a browser sends it: the
    multipart body and its headers (the page's CSRF token and the cookies it goes with)."""
    token = browser.csrf_token(page)
    boundary = f"bench{uuid.uuid4().hex}"
    body = (f'--{boundary}\r\nContent-Disposition: form-data; name="csrf_token"\r\n\r\n{token}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{filename}"\r\n'
            "Content-Type: text/csv\r\n\r\n").encode() + content + f"\r\n--{boundary}--\r\n".encode()
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}", "Cookie": browser.cookie}


def said(answer: str) -> str:
    """What an answer says: a page's refusal (its alert, or the error page's panel) as text, JSON as it is."""
    if answer.lstrip().lower().startswith("<!doctype"):
        found = re.search(r'role="alert"[^>]*>(.*?)</div>|class="panel error-page">(.*?)</section>', answer, re.S)
        if found:
            part = found.group(1) or found.group(2)
            items = re.findall(r"<li>(.*?)</li>", part, re.S)  # the import page's problems, without its preamble
            answer = re.sub(r"<[^>]+>", " ", " ".join(items) if items else part)
    return " ".join(answer.split())


def send(port: int, method: str, path: str, body: Iterator[bytes], length: int,
         headers: dict[str, str]) -> tuple[int, float, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    began = time.perf_counter()
    try:
        connection.putrequest(method, path)
        for name, value in {"Content-Type": "application/json", "Content-Length": str(length), **headers}.items():
            connection.putheader(name, value)
        connection.endheaders()
        try:
            for chunk in body:
                connection.send(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the end of the body: what a refusal may do
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        return response.status, time.perf_counter() - began, said(text)[:120]
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=255,
                        help="size of the large bodies in MB (default 255: within the import's 256 MB limit)")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (its schema is dropped)")
    token, secret = prepare_database(url)
    port = free_port()
    os.environ["GUNICORN_WORKERS"] = "1"
    log = pathlib.Path(tempfile.mkdtemp()) / "gunicorn.log"
    master = start_gunicorn(port, url, secret, log)
    organiser = {"Authorization": f"Bearer {token}"}
    try:
        time.sleep(1)
        tid = new_tournament(port, token)
        # 200,000 columns, 1.5 MB: a quadratic check of repeated columns kept a worker busy for minutes
        wide = (",".join(f"c{i}" for i in range(200_000)) + "\nAino,Virtanen\n").encode()
        browser = Browser(port)
        browser.login(*ORGANISER)
        form, form_headers = import_form(browser, f"/manage/tournaments/{tid}/players/import", "players.csv", wide)
        cases = [
            ("import, no token", "POST", "/api/v1/tournaments/import", lambda: tiny_values(args.mb), {}),
            ("import, unknown token", "POST", "/api/v1/tournaments/import", lambda: tiny_values(args.mb),
             {"Authorization": "Bearer mcr_unknown"}),
            ("import, organiser's token", "POST", "/api/v1/tournaments/import", lambda: tiny_values(args.mb),
             organiser),
            ("GET standings with a 4 MB body", "GET", "/t/1/standings", lambda: padded_json(4), {}),
            ("players CSV, 200,000 columns", "POST", f"/manage/tournaments/{tid}/players/import",
             lambda: iter([form]), form_headers),
            ("import, 5.2 M objects (40 MB)", "POST", "/api/v1/tournaments/import",
             lambda: small_objects(5_200_000), organiser),
            (f"import, {MAX_IMPORT_OBJECTS / 1e6:.1f} M objects (the limit)", "POST", "/api/v1/tournaments/import",
             lambda: small_objects(MAX_IMPORT_OBJECTS), organiser),
        ]
        print(f"gunicorn, 1 worker (a fresh one for each body), {args.mb} MB bodies of [[0],[0],...]")
        print(f"{'case':34} {'status':>6} {'seconds':>8} {'peak MB before':>15} {'after':>7}  answer")
        for name, method, path, body, headers in cases:
            fresh_worker(master.pid, port, token)
            before = worker_peak_kb(master.pid)
            length = sum(len(chunk) for chunk in body())
            status, seconds, text = send(port, method, path, body(), length, headers)
            after = worker_peak_kb(master.pid)
            print(f"{name:34} {status:>6} {seconds:>8.2f} {before / 1024:>15.0f} {after / 1024:>7.0f}  {text}")
    finally:
        master.terminate()
        master.wait(30)


if __name__ == "__main__":
    main()
