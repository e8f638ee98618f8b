"""PUBLIC_URL (issue 31): every absolute link (a player's link, an invitation, a password-reset mail, a calendar,
the API docs' examples, the hand checker's share link) is built from it, whatever Host or X-Forwarded-Host a
request names; X-Forwarded-Host is never believed; a bad PUBLIC_URL stops the start with a clear error and a
production start without it logs a warning that names it.

The app here is the one deployed behind nginx (TRUSTED_PROXIES=1, a mail server set), made on the test
database; its clients name the attacker's host on every request (tests/deploy/test_nginx_public_url.py does
the same over real HTTP, through the shipped nginx site)."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from tests.helpers import add_players, login, pdf_text, post_form, token_for
from tournament import create_app
from tournament.config import public_url
from tournament.extensions import db, mail

PUBLIC = "https://mahjong.example.org:8443"
EVIL = "evil.example"
# The two ways a request names a host: the Host header itself, and X-Forwarded-Host (one trusted proxy).
HOST_HEADERS = ["Host", "X-Forwarded-Host"]
LINK_RE = re.compile(r'id="new-link-url"[^>]*value="([^"]+)"')
URL_RE = re.compile(r"https?://\S+")


@contextmanager
def deployed(database_url: str, tmp_path, **settings) -> Iterator[Flask]:
    """The app as behind nginx (one trusted proxy), with a mail server (recorded, never sent) and `settings`."""
    site = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "TRUSTED_PROXIES": 1,
                       "EXPORT_DIR": str(tmp_path / "exports"), "MAIL_SERVER": "mail.example.org", **settings})
    try:
        yield site
    finally:
        with site.app_context():
            db.session.remove()
            db.engine.dispose()


class NamingClient(FlaskClient):
    """A browser whose every request names `names` (Host: evil.example, as a forged request would); its
    cookies are then that host's, so it logs in and posts forms like any browser."""

    names: dict[str, str] = {}

    def open(self, *args, **kwargs):
        if args and isinstance(args[0], str):
            kwargs["headers"] = {**self.names, **dict(kwargs.get("headers") or {})}
        return super().open(*args, **kwargs)


def naming(site: Flask, header: str) -> NamingClient:
    client = NamingClient(site, site.response_class, use_cookies=True)
    client.names = {header: EVIL}
    return client


@pytest.mark.parametrize("header", HOST_HEADERS)
def test_a_players_link_and_calendar_come_from_public_url(database_url, tmp_path, organiser, timetabled, header):
    t, players = timetabled
    token = token_for(organiser)
    with deployed(database_url, tmp_path, PUBLIC_URL=PUBLIC) as site:
        client = naming(site, header)
        answer = client.get(f"/api/v1/tournaments/{t.id}/players/{players[0].id}/link",
                            headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200
        link = answer.get_json()["url"]
        assert link == f"{PUBLIC}/p/{answer.get_json()['token']}"
        calendar = client.get(link.removeprefix(PUBLIC) + "/schedule.ics").get_data(as_text=True)
        assert f"URL:{link}" in calendar.replace("\r\n ", "") and EVIL not in calendar
        public_calendar = client.get(f"/t/{t.id}/schedule.ics").get_data(as_text=True).replace("\r\n ", "")
        assert f"URL:{PUBLIC}/t/{t.id}/schedule" in public_calendar and EVIL not in public_calendar

        assert login(client, organiser.email).status_code == 302
        page = client.get(f"/manage/tournaments/{t.id}/players/{players[0].id}/edit").get_data(as_text=True)
        assert f'href="{link}"' in page and EVIL not in page
        # The printed links (the schedule cards' QR codes come from the same function).
        printed = re.sub(r"\s", "", "".join(pdf_text(
            client.get(f"/manage/tournaments/{t.id}/exports/player-links.pdf").data)))
        assert printed.count(f"{PUBLIC}/p/") == len(players) and link in printed and EVIL not in printed


@pytest.mark.parametrize("header", HOST_HEADERS)
def test_an_invitation_and_its_mail_come_from_public_url(database_url, tmp_path, organiser, tournament, header):
    with deployed(database_url, tmp_path, PUBLIC_URL=PUBLIC) as site, mail.record_messages() as outbox:
        client = naming(site, header)
        assert login(client, organiser.email).status_code == 302
        overview = f"/manage/tournaments/{tournament.id}"
        response = post_form(client, f"{overview}/invitations",
                             {"invite-email": "rita@example.org", "invite-role": "referee"},
                             form_url=overview, buffered=True)
        assert response.status_code == 200
        link = LINK_RE.search(response.get_data(as_text=True)).group(1)
        assert link.startswith(f"{PUBLIC}/invitations/")
        [message] = outbox
        assert URL_RE.findall(message.body) == [link]
        assert message.sender == "no-reply@mahjong.example.org"  # no MAIL_DEFAULT_SENDER: the site's name


@pytest.mark.parametrize("header", HOST_HEADERS)
def test_a_forgot_password_mail_links_to_public_url(database_url, tmp_path, referee, header):
    """The attack of the finding: a reset asked for the victim with the attacker's host mails a valid link."""
    with deployed(database_url, tmp_path, PUBLIC_URL=PUBLIC) as site, mail.record_messages() as outbox:
        client = naming(site, header)
        response = post_form(client, "/forgot-password", {"email": referee.email}, form_url="/login",
                             buffered=True)
        assert response.status_code == 200
        [message] = outbox
        [link] = URL_RE.findall(message.body)
        assert link.startswith(f"{PUBLIC}/reset-password/") and EVIL not in message.body
        assert message.sender == "no-reply@mahjong.example.org"


@pytest.mark.parametrize("header", HOST_HEADERS)
def test_the_api_docs_and_the_checkers_share_link_come_from_public_url(database_url, tmp_path, header):
    with deployed(database_url, tmp_path, PUBLIC_URL=PUBLIC) as site:
        client = naming(site, header)
        docs = client.get("/api/docs").get_data(as_text=True)
        assert f"{PUBLIC}/api/v1/" in docs and EVIL not in docs
        checker = client.get("/check?hand=123m456p789s111z22z").get_data(as_text=True)
        assert f'href="{PUBLIC}/check?' in checker and EVIL not in checker


def test_without_public_url_links_follow_the_host_but_never_x_forwarded_host(database_url, tmp_path, organiser,
                                                                            tournament):
    player = add_players(tournament, 1)[0]
    token = token_for(organiser)
    url = f"/api/v1/tournaments/{tournament.id}/players/{player.id}/link"
    with deployed(database_url, tmp_path) as site:
        client = site.test_client()
        auth = {"Authorization": f"Bearer {token}"}
        forwarded = client.get(url, headers={**auth, "X-Forwarded-Host": EVIL}).get_json()["url"]
        assert forwarded.startswith("http://localhost/p/")
        # The Host nginx passes on (deploy/nginx-site.conf: $http_host, the port kept)
        with_port = client.get(url, headers={**auth, "Host": "192.168.1.10:8080"}).get_json()["url"]
        assert with_port.startswith("http://192.168.1.10:8080/p/")


def test_public_url_changes_links_only_not_which_hosts_are_served(database_url, tmp_path, organiser):
    """Unlike Flask's SERVER_NAME: a health check on 127.0.0.1:8000 and redirects still work."""
    with deployed(database_url, tmp_path, PUBLIC_URL=PUBLIC) as site:
        client = site.test_client()
        assert client.get("/login", base_url="http://127.0.0.1:8000").status_code == 200
        assert client.get("/login", headers={"Host": EVIL}).status_code == 200
        # A page's own links and redirects stay relative: the browser stays on the address it used.
        assert client.get("/manage", base_url="http://127.0.0.1:8000").headers["Location"].startswith("/login")
        with site.app_context():  # a command, outside any request, builds the same links
            assert url_for("public.home") == f"{PUBLIC}/"
            assert url_for("public.home", _external=False) == "/"


# --- the setting itself ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "canonical"), [
    ("https://mahjong.example.org:8443", "https://mahjong.example.org:8443"),
    ("  HTTPS://Mahjong.Example.ORG:8443/  ", "https://mahjong.example.org:8443"),
    ("http://192.168.1.10:8080", "http://192.168.1.10:8080"),
    ("https://tournament.example.org:443", "https://tournament.example.org"),  # as a browser writes it
    ("http://tournament.example.org:80/", "http://tournament.example.org"),
    ("http://[::1]:8080", "http://[::1]:8080"),
    ("", None),
    (None, None),
])
def test_public_url_is_made_canonical(value, canonical):
    assert public_url(value) == canonical


@pytest.mark.parametrize(("value", "says"), [
    ("mahjong.example.org", "must start with http:// or https://"),
    ("ftp://mahjong.example.org", "must start with http:// or https://"),
    ("https://", "must start with http:// or https://"),
    ("https://:8443", "must name a host"),
    ("https://admin@mahjong.example.org", "must name a host (and no user name)"),
    ("https://mahjong.example.org:99999", "port that is not a number"),
    ("https://mahjong.example.org:https", "port that is not a number"),
    ("https://mahjong.example.org/tournament", "without a path, query or #"),
    ("https://mahjong.example.org/?lang=fi", "without a path, query or #"),
    ("https://mahjong.example.org/#top", "without a path, query or #"),
])
def test_a_bad_public_url_is_refused_with_what_is_wrong(value, says):
    with pytest.raises(ValueError, match=re.escape(says)) as refused:
        public_url(value)
    assert str(refused.value).startswith("PUBLIC_URL ") and repr(value) in str(refused.value)


def test_the_app_does_not_start_with_a_bad_public_url(database_url, monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "mahjong.example.org")
    with pytest.raises(ValueError, match="PUBLIC_URL must start with http:// or https://"):
        create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    monkeypatch.setenv("PUBLIC_URL", "https://Mahjong.example.org/")
    assert create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url}).config["PUBLIC_URL"] \
        == "https://mahjong.example.org"


def _warnings(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING and "PUBLIC_URL" in r.getMessage()]


def test_a_production_start_without_public_url_warns(database_url, monkeypatch, caplog):
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    with caplog.at_level(logging.WARNING):
        create_app({"SQLALCHEMY_DATABASE_URI": database_url})
    [warning] = _warnings(caplog)
    assert "PUBLIC_URL is not set" in warning and "PUBLIC_URL=https://" in warning
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        create_app({"SQLALCHEMY_DATABASE_URI": database_url, "PUBLIC_URL": PUBLIC})
        create_app({"SQLALCHEMY_DATABASE_URI": database_url, "TESTING": True})
        create_app({"SQLALCHEMY_DATABASE_URI": database_url, "DEBUG": True})
    assert _warnings(caplog) == []
