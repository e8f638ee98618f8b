"""Migration 0a68c4ec0823: table points and tie-breaks move from comma text to JSON lists, and back.

Runs on a scratch database of its own (SQLite file, or a PostgreSQL database next to TEST_DATABASE_URL),
so that going down and up again never disturbs the database the other tests share.
"""

from __future__ import annotations

import os

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import JSON, String, column, create_engine, make_url, select, table, text

from tournament import create_app
from tournament.config import normalise_database_url
from tournament.extensions import db

BEFORE = "8bd1d8240093"
AFTER = "0a68c4ec0823"


@pytest.fixture
def scratch_url(tmp_path):
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        yield "sqlite:///" + str(tmp_path / "migration.db")
        return
    base = make_url(normalise_database_url(url))
    name = f"{base.database}_migration_{os.getpid()}"
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


def _settings(kind) -> dict[str, tuple]:
    """{name: (table_points, tie_breaks)} read as columns of type `kind` (JSON after, String before)."""
    t = table("tournaments", column("id"), column("name"), column("table_points", kind), column("tie_breaks", kind))
    rows = db.session.execute(select(t.c.name, t.c.table_points, t.c.tie_breaks).order_by(t.c.id)).all()
    return {name: (points, tie_breaks) for name, points, tie_breaks in rows}


def test_settings_are_converted_up_and_down_with_the_rows_around_them(scratch_url):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": scratch_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        common = ("'', 'ema', 7, 120, 'finish_hand', 10, 20, 'team', '2026-05-01 10:00:00', "
                  "'2026-05-01 10:00:00', 1")
        db.session.execute(text(
            "INSERT INTO tournaments (id, name, table_points, tie_breaks, venue, ruleset, session_count, "
            "session_minutes, end_rule, false_mahjong_under_minimum, false_mahjong_not_winning, draw_separation, "
            f"created_at, updated_at, version) VALUES (1, 'Open', '4,2,1,0', 'firsts,best_session', {common}), "
            f"(2, 'Cup', '8,4,2,0', '', {common})"
        ))
        db.session.execute(text(
            "INSERT INTO players (tournament_id, first_name, last_name, country, club, team, is_substitute, status, "
            "notes, created_at, version) VALUES (1, 'Aino', 'Virtanen', 'FI', '', '', false, 'present', '', "
            "'2026-05-01 10:00:00', 1)"
        ))
        db.session.commit()

        upgrade(revision=AFTER)
        assert _settings(JSON) == {"Open": ([4, 2, 1, 0], ["firsts", "best_session"]), "Cup": ([8, 4, 2, 0], [])}
        # The table was rebuilt on SQLite: its players (ON DELETE CASCADE) must still be there.
        assert db.session.execute(text("SELECT count(*) FROM players WHERE tournament_id = 1")).scalar() == 1

        db.session.remove()
        downgrade(revision=BEFORE)
        assert _settings(String) == {"Open": ("4,2,1,0", "firsts,best_session"), "Cup": ("8,4,2,0", "")}
        assert db.session.execute(text("SELECT count(*) FROM players")).scalar() == 1
        db.session.remove()
        db.engine.dispose()
