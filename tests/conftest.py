"""Shared fixtures, flaskr style: `app`, `client`, `runner`, plus accounts and a tournament.

The database is SQLite in a temporary folder, or PostgreSQL when TEST_DATABASE_URL is set.
The schema comes from the Alembic migrations (never create_all), applied once per run; every test
starts from empty tables.
"""

from __future__ import annotations

import os
import re
import tempfile

import pytest

# Keep the tests' instance folder (secret key, SQLite file) out of the working tree.
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-test-instance-"))

from flask import has_app_context  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from tournament import create_app  # noqa: E402
from tournament.config import normalise_database_url  # noqa: E402
from tournament.extensions import db  # noqa: E402

PASSWORD = "correct-horse-42"


def _database_url(tmp_dir: str) -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        return normalise_database_url(url)
    return "sqlite:///" + os.path.join(tmp_dir, "test.db")


def _reset_schema(url: str) -> None:
    """Drop everything so the migrations run on a truly empty database."""
    engine = create_engine(url)
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            conn.execute(text("CREATE SCHEMA public"))
    engine.dispose()


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> str:
    url = _database_url(str(tmp_path_factory.mktemp("db")))
    _reset_schema(url)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    return url


def _empty_tables() -> None:
    tables = [t for t in reversed(db.metadata.sorted_tables)]
    if db.engine.dialect.name == "postgresql":
        names = ", ".join(f'"{t.name}"' for t in tables)
        db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
    else:
        for table in tables:
            db.session.execute(table.delete())
    db.session.commit()


class EdgeClient(FlaskClient):
    """The test is the edge of its own unit of work: what it set up through services (flushed, not
    committed) is committed before each request, as a finished request of its own would have been."""

    def open(self, *args, **kwargs):
        if has_app_context() and db.session.registry.has():
            db.session.commit()
        return super().open(*args, **kwargs)


@pytest.fixture
def app(database_url, tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": database_url,
            "EXPORT_DIR": str(tmp_path / "exports"),
        }
    )
    app.test_client_class = EdgeClient
    with app.app_context():
        _empty_tables()
    yield app
    with app.app_context():
        db.session.remove()
        _empty_tables()
        db.engine.dispose()


@pytest.fixture
def app_ctx(app):
    with app.app_context():
        yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


CSRF_RE = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def csrf_token(client, url: str = "/login") -> str:
    """The CSRF token a browser would send, read from a form page."""
    html = client.get(url).get_data(as_text=True)
    match = CSRF_RE.search(html)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def post_form(client, url: str, data: dict, form_url: str | None = None, **kwargs):
    """POST like a browser: with the CSRF token of the form page."""
    token = csrf_token(client, form_url or url)
    return client.post(url, data={"csrf_token": token, **data}, **kwargs)


def make_user(email: str, role: str, name: str = ""):
    from tournament.services.users import create_user

    user = create_user(email, PASSWORD, role, name=name)
    db.session.commit()  # the test is the edge of its unit of work
    return user


def login(client, email: str, password: str = PASSWORD):
    return post_form(client, "/login", {"email": email, "password": password})


@pytest.fixture
def organiser(app_ctx):
    return make_user("olivia@example.org", "organiser", "Olivia Organiser")


@pytest.fixture
def referee(app_ctx):
    return make_user("rafael@example.org", "referee", "Rafael Referee")


@pytest.fixture
def organiser_client(client, organiser):
    response = login(client, organiser.email)
    assert response.status_code == 302
    return client


@pytest.fixture
def referee_client(client, referee):
    response = login(client, referee.email)
    assert response.status_code == 302
    return client


@pytest.fixture
def tournament(app_ctx, organiser):
    from tournament.services.tournaments import TournamentData, create_tournament

    t = create_tournament(organiser, TournamentData(name="Helsinki Open", venue="Helsinki"))
    db.session.commit()
    return t


def pytest_sessionstart(session):
    # CI sets REQUIRE_POSTGRES: a run that silently fell back to SQLite must fail, not pass.
    if os.environ.get("REQUIRE_POSTGRES") and not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not a PostgreSQL URL")
