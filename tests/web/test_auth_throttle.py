"""Brute-force throttle: per account and per client address, in the database (so across workers)."""

from __future__ import annotations

import http.cookiejar
import logging
import re
import threading
import urllib.error
import urllib.parse
import urllib.request
from datetime import timedelta

import pytest
from sqlalchemy import func, select, update
from werkzeug.serving import make_server

from tests.helpers import PASSWORD, csrf_token, make_user
from tournament import create_app
from tournament.extensions import db
from tournament.models.users import LoginAttempt

VICTIM = "victim@example.org"


@pytest.fixture
def victim(app):
    with app.app_context():
        make_user(VICTIM, "organiser")


def _login(client, email: str, password: str, address: str = "203.0.113.7"):
    """A login from `address`; each request gets its own app context, as on a real worker."""
    environ = {"REMOTE_ADDR": address}
    token = csrf_token(client, "/login")
    return client.post("/login", data={"csrf_token": token, "email": email, "password": password},
                       environ_base=environ)


def _attempts(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(LoginAttempt))


def test_fifty_wrong_passwords_then_the_right_one_does_not_log_in(app, victim, caplog, monkeypatch):
    client = app.test_client()
    # The test session ran the migrations in this process: Alembic's logging setup disabled existing loggers.
    monkeypatch.setattr(logging.getLogger("tournament.auth"), "disabled", False)
    caplog.set_level(logging.INFO, logger="tournament.auth")
    statuses = [_login(client, VICTIM, f"guess-{i:04d}").status_code for i in range(50)]
    assert statuses == [401] * 10 + [429] * 40
    response = _login(client, VICTIM, PASSWORD)
    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 15 * 60
    html = response.get_data(as_text=True)
    assert "Too many failed logins for this account. Wait 15 minutes and try again." in html
    assert client.get("/account").status_code == 302  # not logged in
    assert _attempts(app) == 10  # refused attempts are not counted: the lock-out ends with the window
    assert "login throttled for this account: account victim@example.org" in caplog.text
    assert "failed login for victim@example.org from 203.0.113.7" in caplog.text


def test_the_window_slides_and_a_success_forgets_the_failures(app, victim):
    client = app.test_client()
    for i in range(10):
        assert _login(client, VICTIM, f"guess-{i}").status_code == 401
    assert _login(client, VICTIM, PASSWORD).status_code == 429
    # Age the oldest failure past the window: nine remain, one more attempt is allowed.
    with app.app_context():
        oldest = db.session.scalar(select(func.min(LoginAttempt.id)))
        db.session.execute(update(LoginAttempt).where(LoginAttempt.id == oldest)
                           .values(created_at=LoginAttempt.created_at - timedelta(minutes=16)))
        db.session.commit()
    response = _login(client, VICTIM, PASSWORD)
    assert response.status_code == 302
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginAttempt)
                                 .where(LoginAttempt.email == VICTIM)) == 0


def test_one_address_guessing_many_accounts_is_throttled_but_not_other_addresses(app, victim):
    client = app.test_client()
    for i in range(30):  # a password-spraying run: one guess at each of 30 (mostly unknown) accounts
        response = _login(client, f"user{i}@example.org", "Summer2026!", address="198.51.100.9")
        assert response.status_code == 401
    response = _login(client, VICTIM, PASSWORD, address="198.51.100.9")
    assert response.status_code == 429
    assert "from your network address" in response.get_data(as_text=True)
    assert _login(app.test_client(), VICTIM, PASSWORD, address="192.0.2.44").status_code == 302


def test_the_account_limit_holds_whatever_the_address(app, victim):
    for i in range(10):  # a botnet: every guess from another address
        assert _login(app.test_client(), VICTIM, f"guess-{i}", address=f"10.0.0.{i}").status_code == 401
    assert _login(app.test_client(), VICTIM, PASSWORD, address="10.0.1.1").status_code == 429


def test_the_count_is_shared_between_workers(app, database_url, victim):
    """Two app instances on one database stand for two gunicorn workers: failures on one count on both."""
    other_worker = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    for i in range(5):
        assert _login(app.test_client(), VICTIM, f"guess-a{i}").status_code == 401
        assert _login(other_worker.test_client(), VICTIM, f"guess-b{i}").status_code == 401
    assert _login(app.test_client(), VICTIM, PASSWORD).status_code == 429
    assert _login(other_worker.test_client(), VICTIM, PASSWORD).status_code == 429
    with other_worker.app_context():
        db.engine.dispose()


def test_email_case_and_spaces_do_not_reset_the_count(app, victim):
    client = app.test_client()
    for i in range(10):
        email = [VICTIM, VICTIM.upper(), f"  {VICTIM} "][i % 3]
        assert _login(client, email, f"guess-{i}").status_code == 401
    assert _login(client, "Victim@Example.org", PASSWORD).status_code == 429


def test_behind_a_trusted_proxy_the_client_address_is_counted(database_url, victim):
    """With TRUSTED_PROXIES=1 (nginx in front) every client has its own count, not one for the proxy."""
    proxied = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "TRUSTED_PROXIES": 1})

    def via_proxy(email: str, password: str, client_address: str):
        client = proxied.test_client()
        token = csrf_token(client, "/login")
        return client.post("/login", data={"csrf_token": token, "email": email, "password": password},
                           environ_base={"REMOTE_ADDR": "127.0.0.1"},
                           headers={"X-Forwarded-For": client_address})

    for i in range(30):
        assert via_proxy(f"user{i}@example.org", "Summer2026!", "198.51.100.9").status_code == 401
    assert via_proxy(VICTIM, PASSWORD, "198.51.100.9").status_code == 429
    assert via_proxy(VICTIM, PASSWORD, "192.0.2.44").status_code == 302  # another client behind the proxy
    with proxied.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginAttempt)
                                 .where(LoginAttempt.address == "198.51.100.9")) == 30
        db.engine.dispose()


def test_concurrent_guesses_on_several_workers_get_no_more_than_the_limit(app, victim):
    """30 wrong passwords sent at the same moment to a threaded server: exactly 10 are checked, 20 refused."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"
    browsers = []
    for _ in range(30):  # each browser fetches its form (cookie + CSRF token) first
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        html = opener.open(base + "/login").read().decode()
        browsers.append((opener, re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html).group(1)))
    start, statuses = threading.Barrier(len(browsers)), []

    def guess(opener, token, i):
        form = {"csrf_token": token, "email": VICTIM, "password": f"guess-{i}"}
        data = urllib.parse.urlencode(form).encode()
        start.wait()
        try:
            statuses.append(opener.open(base + "/login", data=data).status)
        except urllib.error.HTTPError as answer:
            statuses.append(answer.code)

    threads = [threading.Thread(target=guess, args=(*b, i)) for i, b in enumerate(browsers)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=60)
    finally:
        server.shutdown()
    assert sorted(statuses) == [401] * 10 + [429] * 20
    assert _attempts(app) == 10
