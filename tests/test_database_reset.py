"""The suite's own reset between tests (tests/helpers.empty_tables): on PostgreSQL a transaction left open by
an earlier test (a browser test's server thread still answering as the page closed) must not block or
deadlock the next test's TRUNCATE."""

from __future__ import annotations

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.exc import DBAPIError

from tests.helpers import empty_tables
from tournament.extensions import db

pytestmark = pytest.mark.postgres


def test_a_leftover_open_transaction_is_ended_before_the_tables_are_emptied(app, tournament):
    if db.engine.dialect.name != "postgresql":
        pytest.skip("SQLite deletes row by row under its own file lock")
    db.session.commit()
    leftover_engine = create_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    leftover = leftover_engine.connect()
    try:
        # A read inside a transaction that stays open: it holds its lock on the table until it ends.
        assert leftover.execute(text("SELECT count(*) FROM tournaments")).scalar() == 1
        db.session.execute(text("SET lock_timeout = '10s'"))  # without the fix: a lock timeout, not a hang
        empty_tables()
        assert db.session.execute(text("SELECT count(*) FROM tournaments")).scalar() == 0
        with pytest.raises(DBAPIError):  # the leftover was ended
            leftover.execute(text("SELECT 1"))
    finally:
        leftover.invalidate()
        leftover_engine.dispose()
