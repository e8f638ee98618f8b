"""The database unreachable (issue 13, faults): a clear 503 with Retry-After, never a 500 or a traceback; for
someone logged in too (issue 31), whose 503 page asks the database nothing more."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy.exc import OperationalError, ProgrammingError

from tests.helpers import (
    ORGANISER_EMAIL,
    PASSWORD,
    OtherBrowser,
    csrf_token,
    database_down,
    hand_count,
    hand_form,
    play_url,
)
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.people import tournaments as tournament_service
from tournament.web import unit


def connection_refused(*args, **kwargs):
    # What psycopg raises, wrapped by SQLAlchemy, when PostgreSQL is not listening.
    raise OperationalError("SELECT 1", {}, Exception("connection failed: Connection refused"))


def test_page_answers_503_page_with_retry_after(client, monkeypatch, caplog):
    monkeypatch.setattr(tournament_service, "list_tournaments", connection_refused)
    with caplog.at_level(logging.WARNING):
        response = client.get("/")
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit()
    assert response.mimetype == "text/html"
    page = response.get_data(as_text=True)
    assert "database cannot be reached" in page
    assert "Traceback" not in page
    # One warning line, no traceback in the log.
    warnings = [record for record in caplog.records if "Database unreachable" in record.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING and warnings[0].exc_info is None


def test_api_answers_503_json_with_retry_after(api, monkeypatch):
    monkeypatch.setattr(tournament_service, "list_tournaments", connection_refused)
    response = api.get("/tournaments")
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit()
    assert set(response.get_json()) == {"error"}
    assert "database cannot be reached" in response.get_json()["error"]


def test_a_failing_rollback_does_not_hide_the_503(client, api, monkeypatch):
    monkeypatch.setattr(tournament_service, "list_tournaments", connection_refused)
    monkeypatch.setattr(db.session, "rollback", connection_refused)
    assert client.get("/").status_code == 503
    assert api.get("/tournaments").status_code == 503


def test_commit_on_a_lost_connection_is_503_and_nothing_saved(api, monkeypatch):
    monkeypatch.setattr(unit, "commit", connection_refused)
    response = api.post("/tournaments", {"name": "Lost Open", "session_count": 1})
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit()
    monkeypatch.undo()
    db.session.rollback()
    assert db.session.query(Tournament).filter_by(name="Lost Open").count() == 0


def test_other_database_errors_stay_500(client, monkeypatch):
    def bad_query(*args, **kwargs):
        raise ProgrammingError("SELECT nope", {}, Exception("column nope does not exist"))

    monkeypatch.setattr(tournament_service, "list_tournaments", bad_query)
    response = client.get("/")
    assert response.status_code == 500
    assert "Retry-After" not in response.headers


class _Deadlock(Exception):
    sqlstate = "40P01"  # what psycopg reports for "deadlock detected"


def test_a_deadlock_is_a_409_to_retry_not_a_database_outage(client, api, monkeypatch):
    def deadlock(*args, **kwargs):
        raise OperationalError("UPDATE hands", {}, _Deadlock("deadlock detected"))

    monkeypatch.setattr(tournament_service, "list_tournaments", deadlock)
    response = api.get("/tournaments")
    assert response.status_code == 409
    assert "try again" in response.get_json()["error"]
    assert "Retry-After" not in response.headers

    monkeypatch.undo()
    monkeypatch.setattr(unit, "commit", deadlock)
    response = api.post("/tournaments", {"name": "Deadlocked Open", "session_count": 1})
    assert response.status_code == 409
    monkeypatch.undo()
    db.session.rollback()
    assert db.session.query(Tournament).filter_by(name="Deadlocked Open").count() == 0


# --- the whole database down (tests.helpers.database_down), each request in an app context of its own -------


def _logged_in(app) -> OtherBrowser:
    browser = OtherBrowser(app)
    assert browser.post_form("/login", {"email": ORGANISER_EMAIL, "password": PASSWORD}).status_code == 302
    return browser


def _post(browser: OtherBrowser, url: str, data: dict, token: str):
    with browser.app.app_context():
        return browser.client.post(url, data={"csrf_token": token, **data})


def _token(browser: OtherBrowser, url: str) -> str:
    with browser.app.app_context():
        return csrf_token(browser.client, url)


def _stand_alone_503(response) -> str:
    assert response.status_code == 503
    assert response.headers["Retry-After"].isdigit() and response.headers["Cache-Control"] == "no-store"
    page = response.get_data(as_text=True)
    assert "database cannot be reached" in page and "Traceback" not in page
    assert "Olivia Organiser" not in page and "Log out" not in page  # no user menu: nothing asked of anyone
    return page


def test_a_staff_page_logged_in_is_a_503_that_asks_the_database_nothing_more(app, seated):
    t, _ = seated
    browser = _logged_in(app)
    with database_down(app) as tried:
        response = browser.get(play_url(t) + "/tables/1")
    _stand_alone_503(response)
    assert len(tried) == 1  # the login's user, once: not again for the page, its language or its headers
    with database_down(app):  # an error page of its own (a 404: base.html would ask for the user) too
        _stand_alone_503(browser.get("/no-such-page"))
    assert browser.get(play_url(t) + "/tables/1").status_code == 200  # back by itself


def test_the_hand_form_sent_during_an_outage_is_a_503_and_saved_once_sent_again(app, seated):
    t, ids = seated
    browser = _logged_in(app)
    url = play_url(t) + "/tables/1/hands/new"
    token = _token(browser, url + "?hand=1")
    sent = {**hand_form(ids), "idempotency_key": "kept-by-the-offline-queue"}
    with database_down(app):
        _stand_alone_503(_post(browser, url, sent, token))
    db.session.rollback()
    assert hand_count() == 0
    assert _post(browser, url, sent, token).status_code == 302  # the offline queue sends it again, later
    assert _post(browser, url, sent, token).status_code == 302  # and once more: the same key, stored once
    db.session.rollback()
    assert hand_count() == 1


def test_login_during_an_outage_is_a_503(app, organiser):
    browser = _logged_in(app)
    with database_down(app):
        _stand_alone_503(browser.get("/login"))  # logged in: the page asks who it is
    visitor = OtherBrowser(app)
    token = _token(visitor, "/login")
    with database_down(app):
        for password in (PASSWORD, "wrong-password"):
            _stand_alone_503(_post(visitor, "/login", {"email": ORGANISER_EMAIL, "password": password}, token))
    assert _post(visitor, "/login", {"email": ORGANISER_EMAIL, "password": PASSWORD}, token).status_code == 302


@pytest.mark.parametrize("logged_in", [True, False], ids=["logged-in", "visitor"])
def test_no_page_answers_500_during_an_outage(app, seated, logged_in):
    """Every page, GET or POST: a 503 with Retry-After, or an answer that needed nothing of the database (the
    login form, a redirect to it, the API's 401 without a token, the OpenAPI document)."""
    t, ids = seated
    browser = _logged_in(app) if logged_in else OtherBrowser(app)
    token = _token(browser, "/account" if logged_in else "/login")
    values = {"tournament_id": t.id, "player_id": ids[0], "p": ids[0], "number": 1, "table": 1, "hand_number": 1,
              "link_token": "x" * 43, "action": "start"}
    answers, unavailable = [], 0
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        url = rule.build({arg: values.get(arg, 1) for arg in rule.arguments}, append_unknown=False)[1]
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            with database_down(app), app.app_context():
                response = browser.client.open(url, method=method,
                                               data=None if method == "GET" else {"csrf_token": token})
            if response.status_code == 503:
                unavailable += 1
                if response.headers.get("Retry-After", "").isdigit():
                    continue
            elif response.status_code < 500:
                continue
            answers.append((method, url, response.status_code))
    assert answers == []
    assert unavailable > (120 if logged_in else 30)  # every page that needs the database
