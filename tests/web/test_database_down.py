"""The database unreachable (issue 13, faults): a clear 503 with Retry-After, never a 500 or a traceback."""

from __future__ import annotations

import logging

from sqlalchemy.exc import OperationalError, ProgrammingError

from tournament.extensions import db
from tournament.models import Tournament
from tournament.services import tournaments as tournament_service
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
