"""Real concurrent requests for the race tests: the test app served by a threaded werkzeug server on a
loopback port, browsers with their own cookies (urllib, no redirects followed), and a barrier so that the
requests of one round really leave together.

The races need PostgreSQL: SQLite takes one write lock for the whole database, so two writers can never
overlap there (the second waits or gets "database is locked"), and `SELECT ... FOR UPDATE` does not exist.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.helpers import CSRF_RE, PASSWORD

POSTGRES_ONLY = pytest.mark.skipif(
    not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"),
    reason="race tests need PostgreSQL (TEST_DATABASE_URL): SQLite serialises all writers with one database "
           "lock and has no row locks, so concurrent requests cannot overlap there",
)
ROUNDS = 6


@dataclass
class Answer:
    status: int
    body: str
    headers: dict[str, str]

    @property
    def location(self) -> str:
        return self.headers.get("Location", "")

    def json(self) -> Any:
        return json.loads(self.body)


class _Forms(HTMLParser):
    """The hidden inputs of every form on a page, by the form's action ("" for a form posting to itself)."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, dict[str, str]]] = []
        self._fields: dict[str, str] | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._fields = {}
            self.forms.append(((a.get("action") or "").split("?")[0], self._fields))
        elif tag == "input" and self._fields is not None and a.get("type") == "hidden" and a.get("name"):
            self._fields[a["name"]] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "form":
            self._fields = None


def hidden_fields(html: str, action: str) -> dict[str, str]:
    """The hidden fields of the first form whose action ends with `action` ("": the form posting to itself)."""
    parser = _Forms()
    parser.feed(html)
    for form_action, fields in parser.forms:
        if (form_action == "" if action == "" else form_action.endswith(action)):
            return fields
    raise AssertionError(f"no form posting to …{action!r}")


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One person's browser (or API client) against the live server."""

    def __init__(self, base_url: str, token: str | None = None) -> None:
        self.base_url = base_url
        self.token = token
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirects)

    def request(self, method: str, path: str, data: bytes | None = None,
                headers: dict[str, str] | None = None) -> Answer:
        headers = dict(headers or {})
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        req = urllib.request.Request(self.base_url + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(req, timeout=60) as resp:
                return Answer(resp.status, resp.read().decode("utf-8", "replace"), dict(resp.headers))
        except urllib.error.HTTPError as err:
            return Answer(err.code, err.read().decode("utf-8", "replace"), dict(err.headers))

    def get(self, path: str) -> Answer:
        return self.request("GET", path)

    def form(self, path: str, action: str = "") -> dict[str, str]:
        """The hidden fields (CSRF token, idempotency key, version) a browser would send back from the form
        at `path` posting to an URL ending with `action`."""
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        return hidden_fields(page.body, action)

    def csrf(self, path: str = "/account") -> str:
        return CSRF_RE.search(self.get(path).body).group(1)  # type: ignore[union-attr]

    def post(self, path: str, data: dict[str, Any]) -> Answer:
        body = urllib.parse.urlencode(data).encode()
        return self.request("POST", path, body, {"Content-Type": "application/x-www-form-urlencoded"})

    def api(self, method: str, path: str, body: Any = None, key: str | None = None) -> Answer:
        headers = {"Content-Type": "application/json"}
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        return self.request(method, "/api/v1" + path, data, headers)

    def login(self, email: str, password: str = PASSWORD) -> Browser:
        answer = self.post("/login", {"csrf_token": self.csrf("/login"), "email": email, "password": password})
        assert answer.status == 302, f"login of {email} failed: {answer.status}"
        return self

    def flashes(self) -> str:
        """The text of the page a redirect leads to (where the flash messages are shown)."""
        return self.get("/").body


@contextmanager
def live_server(app: Flask) -> Iterator[str]:
    """The app on a loopback port: a threaded werkzeug server in this process, or with RACE_SERVER=gunicorn
    three gunicorn worker processes (as issue 13's tester served it) on the same database."""
    if os.environ.get("RACE_SERVER") == "gunicorn":
        with _gunicorn(app) as url:
            yield url
        return
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # Polled every 50 ms (werkzeug: 500): shutting down waits for the next poll, half a second per test.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(10)


@contextmanager
def _gunicorn(app: Flask) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {**os.environ, "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
           "SECRET_KEY": app.config["SECRET_KEY"], "INSTANCE_PATH": app.instance_path}
    gunicorn = Path(sys.executable).with_name("gunicorn")
    process = subprocess.Popen([str(gunicorn), "--workers", "3", "--bind", f"127.0.0.1:{port}", "app:app"],
                               cwd=Path(__file__).resolve().parents[2], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                urllib.request.urlopen(url + "/login", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError("gunicorn did not start") from None
                time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        process.wait(15)


def together(*calls: Callable[[], Answer]) -> list[Answer]:
    """Run the calls in threads released at once by a barrier; their answers in call order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Answer | BaseException | None] = [None] * len(calls)

    def run(index: int, call: Callable[[], Answer]) -> None:
        try:
            barrier.wait(10)
            answers[index] = call()
        except BaseException as exc:  # noqa: BLE001 - reported to the test below
            answers[index] = exc

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    for answer in answers:
        if isinstance(answer, BaseException):
            raise answer
    return answers  # type: ignore[return-value]


def statuses(answers: list[Answer]) -> list[int]:
    return sorted(a.status for a in answers)
