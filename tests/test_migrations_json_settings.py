"""Migration 0a68c4ec0823: table points and tie-breaks move from comma text to JSON lists, and back.

Runs on a scratch database of its own (SQLite file, or a PostgreSQL database next to TEST_DATABASE_URL),
so that going down and up again never disturbs the database the other tests share.
"""

from __future__ import annotations

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import JSON, String, column, select, table, text

from tournament import create_app
from tournament.extensions import db

pytestmark = pytest.mark.postgres

BEFORE = "8bd1d8240093"
AFTER = "0a68c4ec0823"


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
