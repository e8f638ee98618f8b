"""Shared fixtures, flaskr style: `app`, `client`, `runner`, plus accounts and a tournament.

The database is SQLite in a temporary folder, or PostgreSQL when TEST_DATABASE_URL is set.
The schema comes from the Alembic migrations (never create_all), applied once per run; every test
starts from empty tables.
"""

from __future__ import annotations

import os
import tempfile

import pytest

# Keep the tests' instance folder (secret key, SQLite file) out of the working tree.
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-test-instance-"))

from flask import has_app_context  # noqa: E402
from flask.testing import FlaskClient  # noqa: E402
from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import create_engine, text  # noqa: E402

from tests.helpers import (  # noqa: E402, F401 - csrf_token ... stay importable from here
    PASSWORD,
    AuthActions,
    csrf_token,
    login,
    make_tournament,
    make_user,
    post_form,
)
from tournament import create_app  # noqa: E402
from tournament.config import normalise_database_url  # noqa: E402
from tournament.extensions import db  # noqa: E402


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


@pytest.fixture
def auth(client) -> AuthActions:
    return AuthActions(client)


@pytest.fixture
def organiser(app_ctx):
    return make_user("olivia@example.org", "organiser", "Olivia Organiser")


@pytest.fixture
def referee(app_ctx):
    return make_user("rafael@example.org", "referee", "Rafael Referee")


@pytest.fixture
def organiser_client(client, auth, organiser):
    auth.login(organiser)
    return client


@pytest.fixture
def referee_client(client, auth, referee):
    auth.login(referee)
    return client


@pytest.fixture
def tournament(app_ctx, organiser):
    return make_tournament(organiser)


def pytest_sessionstart(session):
    # CI sets REQUIRE_POSTGRES: a run that silently fell back to SQLite must fail, not pass.
    if os.environ.get("REQUIRE_POSTGRES") and not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not a PostgreSQL URL")
