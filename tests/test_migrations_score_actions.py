"""Migration 2e983ae1222c: the score history's actions, stored as English phrases, become the names of
models.ScoreAction, and back; a value it does not know stops it with nothing changed.

Runs on a scratch database of its own (SQLite file, or a PostgreSQL database next to TEST_DATABASE_URL), as
tests/test_migrations_json_settings.py does.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from tournament import create_app
from tournament.extensions import db
from tournament.messages import ACTION_WORDS
from tournament.models import ScoreAction

pytestmark = pytest.mark.postgres

AFTER = "2e983ae1222c"
MIGRATION = next((Path(__file__).resolve().parents[1] / "migrations/versions").glob(f"*_{AFTER}_*.py"))
# The revision before it, as the migration names it (migrations landing beside it may be chained in between).
BEFORE = re.search(r"^down_revision = '(\w+)'", MIGRATION.read_text(), re.M).group(1)


def _phrases() -> dict[str, str]:
    spec = importlib.util.spec_from_file_location("score_actions_migration", MIGRATION)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PHRASES


def _actions() -> list[str]:
    return list(db.session.execute(text("SELECT action FROM score_changes ORDER BY id")).scalars())


def _session_with_history(phrases) -> None:
    db.session.execute(text(
        "INSERT INTO tournaments (id, name, venue, ruleset, session_count, session_minutes, end_rule, "
        "false_mahjong_under_minimum, false_mahjong_not_winning, created_at, updated_at, version, table_points, "
        "tie_breaks) VALUES (1, 'Open', '', 'ema', 4, 120, 'finish_hand', 10, 20, '2026-05-01 10:00:00', "
        "'2026-05-01 10:00:00', 1, '[4, 2, 1, 0]', '[]')"))
    db.session.execute(text(
        "INSERT INTO tournament_sessions (id, tournament_id, number, status, method, seed, drawn_at, version) "
        "VALUES (1, 1, 1, 'in_play', 'plan', 5, '2026-05-01 10:00:00', 1)"))
    for number, phrase in enumerate(phrases, start=1):
        db.session.execute(text(
            "INSERT INTO score_changes (session_id, table_number, hand_number, action, at) "
            "VALUES (1, 1, :number, :action, '2026-05-01 10:00:00')"), {"number": number, "action": phrase})
    db.session.commit()


def test_the_migration_knows_every_phrase_the_words_say():
    # The migration writes its phrases out; they are the words the history shows, one for each action.
    assert {name: phrase for phrase, name in _phrases().items()} == {
        action.value: str(ACTION_WORDS[action]) for action in ScoreAction}


def test_actions_become_names_and_phrases_again(scratch_url):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": scratch_url})
    phrases = list(_phrases())
    with app.app_context():
        upgrade(revision=BEFORE)
        _session_with_history(phrases)

        upgrade(revision=AFTER)
        assert _actions() == [_phrases()[phrase] for phrase in phrases]
        assert _actions()[0] == ScoreAction.HAND_ENTERED == "hand_entered"

        db.session.remove()
        downgrade(revision=BEFORE)
        assert _actions() == phrases
        db.session.remove()
        db.engine.dispose()


def test_an_action_it_does_not_know_stops_it_with_nothing_changed(scratch_url, capfd):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": scratch_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        _session_with_history(["hand entered", "bench: a hand"])
        db.session.remove()
        with pytest.raises(SystemExit):  # flask db upgrade: the error logged, the command fails
            upgrade(revision=AFTER)
        assert "does not know: 'bench: a hand' (1)" in capfd.readouterr().err  # alembic's logging, to stderr
        db.session.remove()
        assert _actions() == ["hand entered", "bench: a hand"]
        assert db.session.execute(text("SELECT version_num FROM alembic_version")).scalar() == BEFORE
        db.session.remove()
        db.engine.dispose()
