"""Migration 7c1f4a9e2b35: in a tournament of the players' entry mode, the hands staff recorded before it (entered,
corrected, stored by a time call) become the referee's word, confirmed (issue 32); a player's entry still
waiting for the table, and every hand of a referee-mode tournament, stay as they were.

Runs on a scratch database of its own (SQLite file, or a PostgreSQL database next to TEST_DATABASE_URL), as
tests/test_migrations_json_settings.py does. The migration changes rows only, so the models are the schema on
both sides of it and the services can write the rows to migrate.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from tests.helpers import VALID_22, add_players, make_tournament, make_user, table_ids
from tournament import create_app
from tournament.extensions import db
from tournament.models import EntryMode, HandStatus, Player, Tournament
from tournament.services.play import confirmations, scoring
from tournament.services.play.scoring import HandData
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle

pytestmark = pytest.mark.postgres

AFTER = "7c1f4a9e2b35"
MIGRATION = next((Path(__file__).resolve().parents[1] / "migrations/versions").glob(f"*_{AFTER}_*.py"))
# The revision before it, as the migration names it (migrations landing beside it may be chained in between).
BEFORE = re.search(r"^down_revision = '(\w+)'", MIGRATION.read_text(), re.M).group(1)


def _win(number: int, ids: list[int]) -> HandData:
    return HandData(number=number, result="win", winner_id=ids[0], discarder_id=ids[1], hand=VALID_22)


def _tournament(owner, name: str, mode: EntryMode) -> int:
    """Table 1 of session 1: hand 1 entered by staff, hand 2 by a player (waiting for the table), hand 3 by a
    player and corrected by staff; the staff hands as the code before the migration left them."""
    t = make_tournament(owner, name)
    add_players(t, 4)
    draw_service.draw_next(t, seed=1)
    lifecycle.start_session(t, 1)
    t.entry_mode = EntryMode.PLAYERS
    ids = table_ids(t, 1, 1)
    scoring.enter_hand(t, 1, 1, _win(1, ids), None)
    confirmations.enter_hand(t, db.session.get(Player, ids[0]), _win(2, ids))
    confirmations.enter_hand(t, db.session.get(Player, ids[0]), _win(3, ids))
    scoring.correct_hand(t, 1, 1, 3, _win(3, ids), None)
    t.entry_mode = mode
    db.session.commit()
    db.session.execute(text("UPDATE hands SET staff_confirmed_at = NULL WHERE entered_by_player_id IS NULL"))
    db.session.commit()
    return t.id


def _statuses(tournament_id: int) -> dict[int, str]:
    db.session.expire_all()
    t = db.session.get(Tournament, tournament_id)
    return {h.number: str(h.status) for h in scoring.table_hands(t, 1, 1)}


def test_staff_hands_of_the_players_mode_become_confirmed(scratch_url):
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": scratch_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        owner = make_user("owner@example.org", "organiser")
        players = _tournament(owner, "Phones Open", EntryMode.PLAYERS)
        referee = _tournament(owner, "Paper Cup", EntryMode.REFEREE)
        before = {1: HandStatus.PENDING, 2: HandStatus.PENDING, 3: HandStatus.PENDING}
        assert _statuses(players) == _statuses(referee) == before
        db.session.remove()

        upgrade(revision=AFTER)
        assert _statuses(players) == {1: HandStatus.CONFIRMED, 2: HandStatus.PENDING, 3: HandStatus.CONFIRMED}
        assert _statuses(referee) == before
        db.session.remove()

        downgrade(revision=BEFORE)  # nothing is taken back: the older code reads them as a referee's "stands"
        assert _statuses(players)[1] == HandStatus.CONFIRMED
        db.session.remove()
        db.engine.dispose()
