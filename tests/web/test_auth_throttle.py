"""Brute-force throttle (issue 22 item 13): slowed down, never locked out. Per account an exponential delay
after 5 free failures, per trusted device (a cookie from an earlier login) its own delay instead, per client
address a limit a venue behind one NAT does not meet. In the database, so across workers."""

from __future__ import annotations

import http.cookiejar
import logging
import re
import threading
import urllib.error
import urllib.parse
import urllib.request

import pytest
from sqlalchemy import func, select
from werkzeug.serving import make_server

from tests.helpers import OTHER_EMAIL as OTHER
from tests.helpers import PASSWORD, ManualClock, csrf_token, post_form
from tests.helpers import THROTTLED_EMAIL as VICTIM
from tournament import create_app
from tournament.extensions import db
from tournament.models.users import LoginAttempt

pytestmark = pytest.mark.postgres

NAT = "198.51.100.9"


def _login(client, email: str, password: str, address: str = "203.0.113.7"):
    """A login from `address`; each request gets its own app context, as on a real worker."""
    environ = {"REMOTE_ADDR": address}
    token = csrf_token(client, "/login")
    return client.post("/login", data={"csrf_token": token, "email": email, "password": password},
                       environ_base=environ)


def _attempts(app, email: str | None = None) -> int:
    with app.app_context():
        query = select(func.count()).select_from(LoginAttempt)
        if email is not None:
            query = query.where(LoginAttempt.email == email)
        return db.session.scalar(query)


def _seed_failures(app, clock: ManualClock, count: int, address: str) -> None:
    """`count` failed logins from `address` just now, each for another account (players mistyping once)."""
    with app.app_context():
        db.session.execute(LoginAttempt.__table__.insert(), [
            {"email": f"player{i}@example.org", "address": address, "created_at": clock.now} for i in range(count)
        ])
        db.session.commit()


def _logged_in(client) -> bool:
    return client.get("/account").status_code == 200


def _logout(client) -> None:
    assert post_form(client, "/logout", {}, form_url="/account").status_code == 302


def test_failures_slow_the_account_down_exponentially_and_the_right_password_gets_in_after(
        app, victim, throttle_clock, caplog, monkeypatch):
    client = app.test_client()
    # The test session ran the migrations in this process: Alembic's logging setup disabled existing loggers.
    monkeypatch.setattr(logging.getLogger("tournament.auth"), "disabled", False)
    caplog.set_level(logging.INFO, logger="tournament.auth")
    first = [_login(client, VICTIM, f"guess-{i}") for i in range(5)]
    assert [r.status_code for r in first] == [401] * 5
    assert ["Retry-After" in r.headers for r in first] == [False] * 4 + [True]  # 5 free failures
    assert first[-1].headers["Retry-After"] == "1"
    assert "Wrong email or password. Wait 1 second before trying again." in first[-1].get_data(as_text=True)
    # Inside the delay even the right password waits (and is not counted): 429 with the seconds left.
    refused = _login(client, VICTIM, PASSWORD)
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "1"
    assert "Too many failed logins for this account. Wait 1 second and try again." in refused.get_data(as_text=True)
    assert not _logged_in(client) and _attempts(app) == 5
    # Each failure after the delay doubles it, up to 15 minutes: a slowdown, never a lock-out.
    delays = []
    for i in range(12):
        throttle_clock.advance(int(refused.headers["Retry-After"]) if i == 0 else delays[-1])
        answer = _login(client, VICTIM, f"more-{i}")
        assert answer.status_code == 401
        delays.append(int(answer.headers["Retry-After"]))
    assert delays == [2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900, 900]
    throttle_clock.advance(899)
    late = _login(client, VICTIM, PASSWORD)
    assert late.status_code == 429 and late.headers["Retry-After"] == "1"
    assert "Wait 1 second" in late.get_data(as_text=True)
    throttle_clock.advance(1)
    assert _login(client, VICTIM, PASSWORD).status_code == 302 and _logged_in(client)
    assert _attempts(app, VICTIM) == 0  # the success forgets the account's failures
    assert "login throttled for this account: victim@example.org" in caplog.text
    assert "failed login for victim@example.org from 203.0.113.7" in caplog.text


def test_a_mistyped_password_or_four_costs_nothing_and_a_success_forgets_them(app, victim, throttle_clock):
    client = app.test_client()
    for i in range(4):
        answer = _login(client, VICTIM, f"typo-{i}")
        assert answer.status_code == 401 and "Retry-After" not in answer.headers
    assert _login(client, VICTIM, PASSWORD).status_code == 302
    assert _attempts(app) == 0


def test_failures_older_than_the_window_no_longer_count(app, victim, throttle_clock):
    client = app.test_client()
    for _ in range(6):
        throttle_clock.advance(60)
        _login(client, VICTIM, "guess")
    assert _login(client, VICTIM, PASSWORD).status_code == 429
    throttle_clock.advance(24 * 3600 - 6 * 60 + 121)  # a day after the first two: four remain, and this fifth
    answer = _login(client, VICTIM, "guess-again")
    assert answer.status_code == 401 and answer.headers["Retry-After"] == "1"
    assert _attempts(app, VICTIM) == 5


def test_a_venue_of_300_players_behind_one_nat_is_not_locked_out(app, victim, throttle_clock):
    """299 players at one venue each mistyped once within 15 minutes: the next one still gets in."""
    _seed_failures(app, throttle_clock, 299, NAT)
    assert _login(app.test_client(), VICTIM, PASSWORD, address=NAT).status_code == 302


def test_one_address_guessing_many_accounts_is_limited_but_not_other_addresses(app, victim, throttle_clock):
    _seed_failures(app, throttle_clock, 299, NAT)
    # The 300th failure from the address in 15 minutes (a password-spraying run): one guess each.
    assert _login(app.test_client(), "user300@example.org", "Summer2026!", address=NAT).status_code == 401
    response = _login(app.test_client(), VICTIM, "Winter2026!", address=NAT)
    assert response.status_code == 429
    assert "from your network address" in response.get_data(as_text=True)
    assert int(response.headers["Retry-After"]) == 15 * 60
    assert _login(app.test_client(), VICTIM, "Spring2026!", address="192.0.2.44").status_code == 401
    throttle_clock.advance(15 * 60 + 1)  # the sliding window moves on
    assert _login(app.test_client(), OTHER, "Autumn2026!", address=NAT).status_code == 401


def test_many_wrong_passwords_from_one_address_stay_throttled(app, victim, throttle_clock):
    """Over the address's limit every wrong password is a 429 with Retry-After, whichever email is typed (an
    unknown one, an account's, a disabled one alike), and each still counts against its account."""
    _seed_failures(app, throttle_clock, 300, NAT)
    for i in range(20):
        email = {1: VICTIM, 2: OTHER}.get(i % 5, f"sprayed{i}@example.org")
        response = _login(app.test_client(), email, f"Guess{i}!", address=NAT)
        assert response.status_code == 429, i
        assert int(response.headers["Retry-After"]) > 0
        assert "Too many failed logins from your network address" in response.get_data(as_text=True)
    assert _attempts(app, VICTIM) == 4 and _attempts(app, OTHER) == 4 and _attempts(app) == 320
    # Past its five free failures the account's own delay comes first, even for the right password.
    assert _login(app.test_client(), VICTIM, "Guess20!", address=NAT).status_code == 429
    refused = _login(app.test_client(), VICTIM, PASSWORD, address=NAT)
    assert refused.status_code == 429 and "for this account" in refused.get_data(as_text=True)


def test_the_right_password_gets_in_from_an_address_over_its_limit(app, victim, throttle_clock):
    """A venue behind one NAT whose address someone used up: the staff's right passwords still log in."""
    _seed_failures(app, throttle_clock, 300, NAT)
    assert _login(app.test_client(), "sprayed@example.org", "Summer2026!", address=NAT).status_code == 429
    client = app.test_client()
    mistyped = _login(client, VICTIM, "typo", address=NAT)
    assert mistyped.status_code == 429 and "Retry-After" in mistyped.headers
    assert _login(client, VICTIM, PASSWORD, address=NAT).status_code == 302 and _logged_in(client)
    assert _login(app.test_client(), OTHER, PASSWORD, address=NAT).status_code == 302
    assert _attempts(app, VICTIM) == 0  # the success forgets the account's failures, the mistype's included


def test_the_account_delay_holds_whatever_the_address(app, victim, throttle_clock):
    for i in range(5):  # a botnet: every guess from another address
        assert _login(app.test_client(), VICTIM, f"guess-{i}", address=f"10.0.0.{i}").status_code == 401
    assert _login(app.test_client(), VICTIM, PASSWORD, address="10.0.1.1").status_code == 429


def test_the_count_is_shared_between_workers(app, database_url, victim, throttle_clock):
    """Two app instances on one database stand for two gunicorn workers: failures on one count on both."""
    other_worker = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    for i in range(5):
        worker = app if i % 2 else other_worker
        assert _login(worker.test_client(), VICTIM, f"guess-{i}").status_code == 401
    assert _login(app.test_client(), VICTIM, PASSWORD).status_code == 429
    assert _login(other_worker.test_client(), VICTIM, PASSWORD).status_code == 429
    with other_worker.app_context():
        db.engine.dispose()


def test_email_case_and_spaces_do_not_reset_the_count(app, victim, throttle_clock):
    client = app.test_client()
    for i in range(5):
        email = [VICTIM, VICTIM.upper(), f"  {VICTIM} "][i % 3]
        assert _login(client, email, f"guess-{i}").status_code == 401
    assert _login(client, "Victim@Example.org", PASSWORD).status_code == 429


def test_behind_a_trusted_proxy_the_client_address_is_counted(database_url, victim, throttle_clock):
    """With TRUSTED_PROXIES=1 (nginx in front) every client has its own count, not one for the proxy."""
    proxied = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "TRUSTED_PROXIES": 1})

    def via_proxy(email: str, password: str, client_address: str):
        client = proxied.test_client()
        token = csrf_token(client, "/login")
        return client.post("/login", data={"csrf_token": token, "email": email, "password": password},
                           environ_base={"REMOTE_ADDR": "127.0.0.1"},
                           headers={"X-Forwarded-For": client_address})

    _seed_failures(proxied, throttle_clock, 299, NAT)
    assert via_proxy("user300@example.org", "Summer2026!", NAT).status_code == 401
    assert via_proxy(VICTIM, "Winter2026!", NAT).status_code == 429
    assert via_proxy(VICTIM, "Spring2026!", "192.0.2.44").status_code == 401  # another client behind the proxy
    with proxied.app_context():
        assert db.session.scalar(select(func.count()).select_from(LoginAttempt)
                                 .where(LoginAttempt.address == NAT)) == 301
        db.engine.dispose()


# --- device cookies: a device that logged in to the account before -------------------------------------


def _attack(app, clock: ManualClock, guesses: int = 8) -> int:
    """Guesses at VICTIM from elsewhere, each as soon as allowed; the delay they leave, in seconds."""
    wait = 0
    for i in range(guesses):
        clock.advance(wait)
        answer = _login(app.test_client(), VICTIM, f"attack-{i}", address="192.0.2.66")
        assert answer.status_code == 401
        wait = int(answer.headers.get("Retry-After", 0))
    return wait


def test_a_device_that_logged_in_before_is_not_held_up_by_guesses_elsewhere(app, victim, throttle_clock):
    phone = app.test_client()
    assert _login(phone, VICTIM, PASSWORD).status_code == 302
    _logout(phone)
    assert _attack(app, throttle_clock) == 8  # the account waits 8 s after each guess now
    assert _login(app.test_client(), VICTIM, PASSWORD).status_code == 429  # a new device waits it out
    assert _login(phone, VICTIM, PASSWORD).status_code == 302 and _logged_in(phone)
    # The guesses from elsewhere still count against the account: the owner's success does not reset them.
    assert _attempts(app, VICTIM) == 8


def test_a_trusted_device_has_a_delay_of_its_own(app, victim, throttle_clock):
    phone = app.test_client()
    assert _login(phone, VICTIM, PASSWORD).status_code == 302
    _logout(phone)
    answers = [_login(phone, VICTIM, f"thief-{i}") for i in range(5)]
    assert [a.status_code for a in answers] == [401] * 5 and answers[-1].headers["Retry-After"] == "1"
    refused = _login(phone, VICTIM, PASSWORD)
    assert refused.status_code == 429
    assert "Too many failed logins from this device" in refused.get_data(as_text=True)
    assert _attempts(app, VICTIM) == 0  # the account is not slowed down by one device's failures
    assert _login(app.test_client(), VICTIM, PASSWORD).status_code == 302


def test_a_trusted_device_is_not_held_up_by_its_venues_address_limit(app, victim, throttle_clock):
    phone = app.test_client()
    assert _login(phone, VICTIM, PASSWORD, address=NAT).status_code == 302
    _logout(phone)
    _seed_failures(app, throttle_clock, 300, NAT)
    assert _login(app.test_client(), VICTIM, "typo", address=NAT).status_code == 429
    mistyped = _login(phone, VICTIM, "typo", address=NAT)  # its mistype is judged by the device's own count
    assert mistyped.status_code == 401
    assert _login(phone, VICTIM, PASSWORD, address=NAT).status_code == 302


def test_guessed_player_links_do_not_use_up_the_logins_limit(app, victim, throttle_clock, seated):
    """300 unknown links from a venue's address: its staff still log in, even after a mistype."""
    client = app.test_client()
    for i in range(300):
        assert client.get(f"/p/{i:043d}", environ_base={"REMOTE_ADDR": NAT}).status_code == 404
    assert client.get(f"/p/{300:043d}", environ_base={"REMOTE_ADDR": NAT}).status_code == 429
    assert _login(client, VICTIM, "typo", address=NAT).status_code == 401
    assert _login(client, VICTIM, PASSWORD, address=NAT).status_code == 302 and _logged_in(client)


def test_a_device_cookie_of_another_account_or_a_forged_one_does_not_help(app, victim, throttle_clock):
    laptop = app.test_client()
    assert _login(laptop, OTHER, PASSWORD).status_code == 302
    _logout(laptop)
    _attack(app, throttle_clock)
    assert _login(laptop, VICTIM, PASSWORD).status_code == 429
    # The cookie is signed: another device id or account list written by hand is ignored.
    forged = app.test_client()
    forged.set_cookie("mcr_device", "eyJkIjoieCIsImEiOltdfQ.forged.signature", path="/login")
    assert _login(forged, VICTIM, PASSWORD).status_code == 429


def test_concurrent_guesses_on_several_workers_get_no_more_than_the_free_ones(app, victim, throttle_clock):
    """30 wrong passwords sent at the same moment to a threaded server: exactly 5 are checked, 25 refused."""
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
    assert sorted(statuses) == [401] * 5 + [429] * 25
    assert _attempts(app) == 5
