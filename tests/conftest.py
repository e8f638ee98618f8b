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
from sqlalchemy import create_engine, make_url, text  # noqa: E402

from tests.helpers import (  # noqa: E402, F401 - csrf_token ... stay importable from here
    ORGANISER_EMAIL,
    PASSWORD,
    REFEREE_EMAIL,
    AuthActions,
    RowsTemplate,
    add_players,
    csrf_token,
    demo_played,
    empty_tables,
    login,
    make_tournament,
    make_user,
    played_one_session,
    post_form,
)
from tournament import create_app  # noqa: E402
from tournament.config import normalise_database_url  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.models import Tournament  # noqa: E402
from tournament.services.core import idempotency
from tournament.services.results.standings import cache as standings_cache
from tournament.services.seating import lifecycle
from tournament.web import languages as tournament_languages
from tournament.web.live import cache as live_cache

pytest_plugins = ["pytester"]  # tests/test_markers.py runs a small suite of its own


def _database_url(tmp_dir: str) -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if url:
        url = normalise_database_url(url)
        worker = os.environ.get("PYTEST_XDIST_WORKER")  # gw0, gw1 ... under `pytest -n`
        return _worker_database(url, worker) if worker else url
    return "sqlite:///" + os.path.join(tmp_dir, "test.db")


def _worker_database(url: str, worker: str) -> str:
    """`<database>_<worker>` next to TEST_DATABASE_URL's, created if missing: xdist workers each empty and
    migrate their own database, never one another's. Dropped at the end of the worker's run."""
    base = make_url(url)
    name = f"{base.database}_{worker}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}):
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


def _drop_worker_database(url: str) -> None:
    worker_url = make_url(url)
    admin = create_engine(worker_url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{worker_url.database}" WITH (FORCE)'))
    admin.dispose()


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
    """The test database's URL, migrated once for the run (dropped after when an xdist worker's own)."""
    url = _database_url(str(tmp_path_factory.mktemp("db")))
    _reset_schema(url)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade()
        db.engine.dispose()
    yield url
    if url.startswith("postgresql") and os.environ.get("PYTEST_XDIST_WORKER"):
        _drop_worker_database(url)


class EdgeClient(FlaskClient):
    """The test is the edge of its own unit of work: what it set up through services (flushed, not
    committed) is committed before each request, as a finished request of its own would have been."""

    def open(self, *args, **kwargs):
        if has_app_context() and db.session.registry.has():
            db.session.commit()
        return super().open(*args, **kwargs)


@pytest.fixture(scope="session")
def shared_app(database_url):
    """The app on the test database, built once per worker: building one (its routes, the API's OpenAPI
    document) costs 0.13 s on a quiet machine, 0.9 s on a loaded one, more than most tests themselves. `app`
    resets what a test may change."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url})
    app.test_client_class = EdgeClient
    return app


@pytest.fixture
def app(shared_app, tmp_path):
    """The app on the test database with empty tables, its exports in the test's own folder; the settings a
    test changes are put back and the caches kept per engine are forgotten after it, as if each test had an
    app of its own (a test needing other settings from the start builds one with create_app)."""
    app = shared_app
    settings = dict(app.config)
    app.config["EXPORT_DIR"] = str(tmp_path / "exports")
    os.makedirs(app.config["EXPORT_DIR"], exist_ok=True)
    standings_cache.clear()
    live_cache.clear()
    tournament_languages.clear()
    idempotency._swept_at.clear()
    with app.app_context():
        empty_tables()
    yield app
    with app.app_context():
        db.session.remove()
        # Connections go with the test: settings made on one (a lock timeout) must not reach the next test.
        db.engine.dispose()
    app.config.clear()
    app.config.update(settings)


@pytest.fixture
def app_ctx(app):
    """The app, inside an app context for the whole test."""
    with app.app_context():
        yield app


@pytest.fixture
def client(app):
    """A test client (EdgeClient: what the test set up is committed before each request)."""
    return app.test_client()


@pytest.fixture
def runner(app):
    """The app's CLI runner."""
    return app.test_cli_runner()


@pytest.fixture
def auth(client) -> AuthActions:
    """Logs `client` in and out (`auth.login(user)`, `auth.logout()`)."""
    return AuthActions(client)


@pytest.fixture
def organiser(app_ctx):
    """Olivia Organiser's account (ORGANISER_EMAIL, PASSWORD)."""
    return make_user(ORGANISER_EMAIL, "organiser", "Olivia Organiser")


@pytest.fixture
def referee(app_ctx):
    """Rafael Referee's account (REFEREE_EMAIL, PASSWORD)."""
    return make_user(REFEREE_EMAIL, "referee", "Rafael Referee")


@pytest.fixture
def organiser_client(client, auth, organiser):
    """`client`, logged in as the organiser."""
    auth.login(organiser)
    return client


@pytest.fixture
def referee_client(client, auth, referee):
    """`client`, logged in as the referee."""
    auth.login(referee)
    return client


@pytest.fixture
def tournament(app_ctx, organiser):
    """The organiser's tournament (Helsinki Open, the default settings), no players."""
    return make_tournament(organiser)


# --- tournaments in play (one definition each: a test module never defines or imports a fixture) ----------


@pytest.fixture
def in_play(tournament):
    """8 players checked in, session 1 drawn (seed 5) and in play on two tables; returns the tournament."""
    from tournament.services.seating import draws as draw_service

    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=5)
    lifecycle.start_session(tournament, 1)
    db.session.commit()
    return tournament


@pytest.fixture
def seated(in_play):
    """`in_play` and table 1's player ids, East, South, West, North: (tournament, ids)."""
    from tournament.services.play import session as play

    return in_play, [sp.player_id for sp in play.table_players(play.get_session(in_play, 1), 1)]


@pytest.fixture
def live_tournament(tournament):
    """8 players checked in, session 1 drawn (seed 3) and in play on two tables: the live pages have standings
    and seating to show (the web tests' and the deployed nginx's); returns the tournament."""
    from tournament.services.seating import draws as draw_service

    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    db.session.commit()
    return tournament


@pytest.fixture
def played(tournament):
    """8 players, one session of one played, both tables scored by totals; table 2 has a tie for second."""
    return played_one_session(tournament)


_demo_rows: dict[str, RowsTemplate] = {}  # the demo tournament's rows, by database, built once per worker


@pytest.fixture
def demo_tournament(database_url, organiser, referee):
    """The demo tournament with every kind of row a backup holds (see helpers.demo_played): built by the
    worker's first test that asks, then its rows copied into each later test's empty tables."""
    kept = _demo_rows.get(database_url)
    tid = kept.copy_in() if kept else None
    if tid is not None:
        return db.session.get(Tournament, tid)
    marks = RowsTemplate.marks()
    t = demo_played(organiser, referee)
    _demo_rows[database_url] = RowsTemplate.taken_since(marks, t.id)
    return t


@pytest.fixture
def scratch_url(tmp_path):
    """A database of the test's own: a SQLite file, or a PostgreSQL database next to the shared one (dropped
    after), for tests that migrate down and up or need connections the shared database must not see."""
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        yield "sqlite:///" + str(tmp_path / "scratch.db")
        return
    base = make_url(normalise_database_url(url))
    name = f"{base.database}_scratch_{os.getpid()}"
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}"'))
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


# Under `pytest -n ... --dist loadgroup` (make test) tests go to whichever worker is free, except: those that
# start servers (gunicorn, nginx, chromium, a private PostgreSQL) and time them run one after another on one
# worker; and a module with a module-scoped fixture stays on one worker, so the fixture is built once.
# The servers' tests are slow too: `make test-fast` (-m "not slow") leaves them out.
SERIAL = ("tests/browser/", "tests/deploy/")


@pytest.hookimpl(tryfirst=True)  # before -m deselects: the `slow` added here counts
def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.nodeid.split("::")[0]
        if path.startswith(SERIAL):
            item.add_marker(pytest.mark.slow)
        if any(item.iter_markers("xdist_group")):
            continue
        if path.startswith(SERIAL):
            item.add_marker(pytest.mark.xdist_group("servers"))
        elif any(d.scope in ("module", "class", "package") for defs in item._fixtureinfo.name2fixturedefs.values()
                 for d in defs):
            item.add_marker(pytest.mark.xdist_group(path))


# A skip that says PostgreSQL is missing (or SQLite is in use) is a test for `make test-postgres`, which runs
# only the tests marked `postgres`: without the marker it would run nowhere. Such a test fails until marked.
POSTGRES_SKIP_WORDS = ("PostgreSQL", "TEST_DATABASE_URL", "SQLite")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if (report.skipped and not hasattr(report, "wasxfail") and isinstance(report.longrepr, tuple)
            and any(word in report.longrepr[2] for word in POSTGRES_SKIP_WORDS)
            and item.get_closest_marker("postgres") is None):
        report.outcome = "failed"
        report.longrepr = (f"{item.nodeid} skips for want of PostgreSQL ({report.longrepr[2]}) but is not marked "
                           "postgres: `make test-postgres` would never run it. Mark it @pytest.mark.postgres.")


def pytest_sessionstart(session):
    # CI sets REQUIRE_POSTGRES: a run that silently fell back to SQLite must fail, not pass.
    if os.environ.get("REQUIRE_POSTGRES") and not os.environ.get("TEST_DATABASE_URL", "").startswith("postgres"):
        raise pytest.UsageError("REQUIRE_POSTGRES is set but TEST_DATABASE_URL is not a PostgreSQL URL")
