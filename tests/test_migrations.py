"""The migrations, applied to an empty database, give exactly the schema the models describe."""

import logging

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import upgrade
from sqlalchemy import inspect

from tournament import create_app
from tournament.extensions import db

pytestmark = pytest.mark.postgres


def test_migrations_match_models(app_ctx):
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, db.metadata)
    assert diff == []


def test_migrations_created_every_table(app_ctx):
    tables = set(inspect(db.engine).get_table_names())
    assert {t.name for t in db.metadata.sorted_tables} <= tables
    assert "alembic_version" in tables


def test_running_the_migrations_leaves_the_apps_logger_working(app, scratch_url):
    """Alembic's env.py reads its logging settings: loggers that exist already (the app's, once it has
    logged) stay enabled, or the app's errors (a mail server that refuses ...) would go unlogged after it."""
    app.logger.info("the app's logger exists")
    other = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": scratch_url})
    with other.app_context():
        upgrade()
    assert not logging.getLogger(app.logger.name).disabled
