"""Revocable logins: logout, password change and "log out everywhere" end sessions and remember cookies
for good (a copied cookie stops working), and remember cookies are rotated, short-lived and SameSite."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import parsedate_to_datetime

from sqlalchemy import func, select, update

from tests.helpers import ORGANISER_EMAIL, PASSWORD, REFEREE_EMAIL, login, post_form
from tournament.config import load_config
from tournament.extensions import db
from tournament.models.users import LoginSession, User

NEW_PASSWORD = "tile-wall-dragon-77"
ORGANISER, REFEREE = ORGANISER_EMAIL, REFEREE_EMAIL  # the accounts of the `accounts` fixture

# These tests hold several browsers at once. Each request gets an app context of its own, as on a real
# worker: a context shared with the test would carry one browser's cached login (and CSRF token) on `g`
# into the next browser's request.


def _in_db(app, statement) -> list:
    with app.app_context():
        result = db.session.execute(statement)
        rows = result.all() if statement.is_select else []
        db.session.commit()
        return rows


def _cookie(client, name: str) -> str:
    cookie = client.get_cookie(name)
    assert cookie is not None, f"no {name} cookie"
    return cookie.value


def _replay(app, name: str, value: str):
    """A fresh browser holding only a copy of one cookie: is it logged in?"""
    other = app.test_client()
    other.set_cookie(name, value)
    return other


def _logged_in(client) -> bool:
    response = client.get("/account")
    return response.status_code == 200


def _set_cookie_header(response, name: str) -> str:
    headers = [h for h in response.headers.getlist("Set-Cookie") if h.startswith(name + "=")]
    assert headers, f"no Set-Cookie for {name}"
    return headers[-1]


def test_a_saved_session_cookie_stops_working_after_logout(app, client, accounts):
    assert login(client, ORGANISER).status_code == 302
    saved = _cookie(client, "session")
    assert _logged_in(_replay(app, "session", saved))
    post_form(client, "/logout", {}, form_url="/account")
    assert not _logged_in(client)
    assert not _logged_in(_replay(app, "session", saved))  # the copy died with the logout


def test_logout_ends_only_this_device(app, accounts):
    laptop, phone = app.test_client(), app.test_client()
    assert login(laptop, ORGANISER).status_code == 302
    assert login(phone, ORGANISER).status_code == 302
    post_form(laptop, "/logout", {}, form_url="/account")
    assert not _logged_in(laptop)
    assert _logged_in(phone)


def test_remember_cookie_is_new_on_every_login_and_dies_with_logout(app, accounts):
    first, second = app.test_client(), app.test_client()
    login_data = {"email": ORGANISER, "password": PASSWORD, "remember": "y"}
    response = post_form(first, "/login", login_data)
    assert response.status_code == 302
    remember_first = _cookie(first, "remember_token")
    assert post_form(second, "/login", login_data).status_code == 302
    remember_second = _cookie(second, "remember_token")
    assert remember_first != remember_second  # rotated: a new token on every login

    # The remember cookie alone logs a fresh browser in (that is its job)...
    assert _logged_in(_replay(app, "remember_token", remember_first))
    post_form(first, "/logout", {}, form_url="/account")
    # ... until its login is ended: then it is worthless, on every worker, while the other login lives.
    assert not _logged_in(_replay(app, "remember_token", remember_first))
    assert _logged_in(_replay(app, "remember_token", remember_second))


def test_remember_cookie_lasts_30_days_and_is_samesite_httponly(app, client, accounts):
    response = post_form(client, "/login", {"email": ORGANISER, "password": PASSWORD, "remember": "y"})
    header = _set_cookie_header(response, "remember_token")
    assert "SameSite=Lax" in header
    assert "HttpOnly" in header
    assert "Secure" not in header  # plain HTTP by default; SECURE_COOKIES switches it on
    expires = parsedate_to_datetime(header.split("Expires=")[1].split(";")[0])
    days = (expires - datetime.now(UTC)).total_seconds() / 86400
    assert 29.9 < days < 30.1
    [row] = _in_db(app, select(LoginSession.remember, LoginSession.created_at, LoginSession.expires_at))
    assert row.remember is True
    assert timedelta(days=29, hours=23) < row.expires_at - row.created_at <= timedelta(days=30)


def test_a_login_without_remember_ends_on_the_server_after_a_day(app, client, accounts):
    assert login(client, ORGANISER).status_code == 302
    assert client.get_cookie("remember_token") is None
    saved = _cookie(client, "session")
    _in_db(app, update(LoginSession).values(expires_at=datetime(2020, 1, 1)))
    assert not _logged_in(_replay(app, "session", saved))  # the cookie is still signed, the login is over


def test_password_change_logs_out_every_other_device_and_keeps_this_one(app, accounts):
    desk, phone = app.test_client(), app.test_client()
    assert login(desk, ORGANISER).status_code == 302
    assert post_form(phone, "/login", {"email": ORGANISER, "password": PASSWORD,
                                       "remember": "y"}).status_code == 302
    phone_session, phone_remember = _cookie(phone, "session"), _cookie(phone, "remember_token")
    desk_before = _cookie(desk, "session")

    change = {"current_password": PASSWORD, "new_password": NEW_PASSWORD, "confirm": NEW_PASSWORD}
    response = post_form(desk, "/account/password", change, form_url="/account")
    assert response.status_code == 302
    assert _logged_in(desk)
    assert not _logged_in(phone)
    assert not _logged_in(_replay(app, "session", phone_session))
    assert not _logged_in(_replay(app, "remember_token", phone_remember))
    assert not _logged_in(_replay(app, "session", desk_before))  # even this device's old cookie
    assert login(app.test_client(), ORGANISER, NEW_PASSWORD).status_code == 302
    assert login(app.test_client(), ORGANISER, PASSWORD).status_code == 401


def test_password_change_keeps_remember_me_with_a_new_cookie(app, accounts):
    phone = app.test_client()
    post_form(phone, "/login", {"email": ORGANISER, "password": PASSWORD, "remember": "y"})
    old_remember = _cookie(phone, "remember_token")
    post_form(phone, "/account/password", {"current_password": PASSWORD, "new_password": NEW_PASSWORD,
                                           "confirm": NEW_PASSWORD}, form_url="/account")
    new_remember = _cookie(phone, "remember_token")
    assert new_remember != old_remember
    assert _logged_in(_replay(app, "remember_token", new_remember))
    assert not _logged_in(_replay(app, "remember_token", old_remember))


def test_password_change_refusals_change_nothing(app, client, accounts):
    assert login(client, ORGANISER).status_code == 302
    cases = [
        ({"current_password": "not-my-password", "new_password": NEW_PASSWORD, "confirm": NEW_PASSWORD},
         "That is not your current password."),
        ({"current_password": PASSWORD, "new_password": "iloveyou", "confirm": "iloveyou"},
         "most common passwords"),
        ({"current_password": PASSWORD, "new_password": ORGANISER, "confirm": ORGANISER},
         "cannot be your email address"),
        ({"current_password": PASSWORD, "new_password": NEW_PASSWORD, "confirm": NEW_PASSWORD + "x"},
         "The two new passwords differ."),
    ]
    for data, message in cases:
        response = post_form(client, "/account/password", data, form_url="/account")
        assert response.status_code == 400
        assert message in response.get_data(as_text=True)
    assert _logged_in(client)
    assert login(app.test_client(), ORGANISER, PASSWORD).status_code == 302


def test_log_out_everywhere_ends_every_login_of_the_account_only(app, accounts):
    desk, phone, colleague = app.test_client(), app.test_client(), app.test_client()
    assert login(desk, ORGANISER).status_code == 302
    assert post_form(phone, "/login", {"email": ORGANISER, "password": PASSWORD,
                                       "remember": "y"}).status_code == 302
    assert login(colleague, REFEREE).status_code == 302
    phone_remember = _cookie(phone, "remember_token")
    assert "logged in on 2 devices" in desk.get("/account").get_data(as_text=True)

    response = post_form(desk, "/account/logout-everywhere", {}, form_url="/account")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/login")
    assert not _logged_in(desk)
    assert not _logged_in(phone)
    assert not _logged_in(_replay(app, "remember_token", phone_remember))
    assert _logged_in(colleague)
    assert _in_db(app, select(func.count()).select_from(LoginSession)) == [(1,)]


def test_disabled_account_is_logged_out_at_once(app, client, accounts):
    assert login(client, ORGANISER).status_code == 302
    _in_db(app, update(User).values(active=False))
    assert not _logged_in(client)


def test_cookies_are_secure_when_the_setting_says_tls(monkeypatch, tmp_path):
    monkeypatch.setenv("SECURE_COOKIES", "1")
    monkeypatch.setenv("REMEMBER_DAYS", "14")
    config = load_config(str(tmp_path), {"SECRET_KEY": "x"})
    assert config["SESSION_COOKIE_SECURE"] is True
    assert config["REMEMBER_COOKIE_SECURE"] is True
    assert config["REMEMBER_COOKIE_DURATION"] == timedelta(days=14)
    monkeypatch.delenv("SECURE_COOKIES")
    assert load_config(str(tmp_path), {"SECRET_KEY": "x"})["SESSION_COOKIE_SECURE"] is False


def test_secure_cookie_attribute_is_sent_under_the_tls_setting(database_url, accounts):
    from tournament import create_app

    tls_app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url,
                          "SESSION_COOKIE_SECURE": True, "REMEMBER_COOKIE_SECURE": True})
    client = tls_app.test_client()
    base = "https://localhost"
    token = _csrf(client, base + "/login")
    response = client.post(base + "/login", data={"csrf_token": token, "email": ORGANISER,
                                                  "password": PASSWORD, "remember": "y"},
                           headers={"Referer": base + "/login"})  # CSRF checks the referrer under HTTPS
    assert response.status_code == 302
    assert "Secure" in _set_cookie_header(response, "remember_token")
    assert "Secure" in _set_cookie_header(response, "session")
    assert "max-age=31536000" in response.headers["Strict-Transport-Security"]


def _csrf(client, url: str) -> str:
    from tests.helpers import CSRF_RE

    match = CSRF_RE.search(client.get(url).get_data(as_text=True))
    assert match
    return match.group(1)


def _login_through(client, base: str, headers: dict, referer: str) -> object:
    """Log in as the organiser with "keep me logged in", every request carrying `headers` (as nginx adds)."""
    page = client.get(base + "/login", headers=headers).get_data(as_text=True)
    from tests.helpers import CSRF_RE

    token = CSRF_RE.search(page).group(1)
    return client.post(base + "/login", data={"csrf_token": token, "email": ORGANISER, "password": PASSWORD,
                                              "remember": "y"}, headers={"Referer": referer + "/login", **headers})


def test_cookies_follow_the_scheme_behind_the_proxy_by_default(monkeypatch, database_url, accounts):
    # Issue 21 item 14: the unit forced Secure while the shipped site listened on port 80, so a volunteer without
    # TLS yet got "400 Form expired" at login (the browser drops a Secure cookie over HTTP).
    from tournament import create_app

    monkeypatch.delenv("SECURE_COOKIES", raising=False)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "TRUSTED_PROXIES": 1})
    assert app.config["SECURE_COOKIES_AUTO"] is True and app.config["SESSION_COOKIE_SECURE"] is False
    plain = _login_through(app.test_client(), "http://localhost", {"X-Forwarded-Proto": "http"}, "http://localhost")
    assert plain.status_code == 302
    for name in ("session", "remember_token"):
        assert "Secure" not in _set_cookie_header(plain, name)
    assert "Strict-Transport-Security" not in plain.headers
    # The same app behind nginx with TLS: nginx says https, and both cookies are Secure.
    tls = _login_through(app.test_client(), "http://localhost", {"X-Forwarded-Proto": "https"},
                         "https://localhost")  # CSRF checks the referrer under HTTPS
    assert tls.status_code == 302
    for name in ("session", "remember_token"):
        assert "; Secure" in _set_cookie_header(tls, name)
    assert "max-age=31536000" in tls.headers["Strict-Transport-Security"]


def test_secure_cookies_setting_values(monkeypatch, tmp_path):
    for value, forced, auto in (("1", True, False), ("0", False, False), ("auto", False, True), ("", False, True)):
        monkeypatch.setenv("SECURE_COOKIES", value)
        config = load_config(str(tmp_path), {"SECRET_KEY": "x"})
        assert (config["SESSION_COOKIE_SECURE"], config["SECURE_COOKIES_AUTO"]) == (forced, auto), value
