"""The migrations, applied to an empty database, give exactly the schema the models describe."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from tournament.extensions import db


def test_migrations_match_models(app_ctx):
    with db.engine.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, db.metadata)
    assert diff == []


def test_migrations_created_every_table(app_ctx):
    tables = set(inspect(db.engine).get_table_names())
    assert {t.name for t in db.metadata.sorted_tables} <= tables
    assert "alembic_version" in tables
