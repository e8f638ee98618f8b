"""One registration per person, held by the database (issue 13, races 2 and 3): the unique player indexes
refuse what the service's duplicate check would, even when that check is passed by (as two concurrent
requests both pass it), and migration ba2f9af2ef97 upgrades a database that already holds duplicates."""

from __future__ import annotations

import pytest
from flask_migrate import downgrade, upgrade
from sqlalchemy import text

from tournament import create_app
from tournament.extensions import db
from tournament.services import ConflictError
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData

pytestmark = pytest.mark.postgres

BEFORE = "465c0281b993"
AFTER = "ba2f9af2ef97"


@pytest.mark.parametrize("twin", [
    PlayerData(first_name="Aino", last_name="Virtanen"),
    PlayerData(first_name="AINO", last_name="virtanen"),
    PlayerData(first_name="  aino ", last_name="Virtanen "),
], ids=["same", "other case", "spaces"])
def test_the_same_name_without_ema_numbers_is_refused_by_the_database(tournament, unchecked, twin):
    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen"))
    db.session.commit()
    with pytest.raises(ConflictError, match="already registered"):
        reg.add_player(tournament, twin)
    db.session.rollback()
    assert len(reg.players_of(tournament)) == 1


def test_an_ema_number_is_registered_once(tournament, unchecked):
    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen", ema_number="04010001"))
    db.session.commit()
    with pytest.raises(ConflictError):
        reg.add_player(tournament, PlayerData(first_name="Eero", last_name="Korhonen", ema_number="04010001"))
    db.session.rollback()
    assert len(reg.players_of(tournament)) == 1


def test_namesakes_with_different_ema_numbers_and_other_tournaments_are_allowed(tournament, organiser, unchecked):
    from tests.helpers import make_tournament

    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen", ema_number="04010001"))
    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen", ema_number="04010002"))
    other = make_tournament(organiser, "Tampere Cup")
    reg.add_player(other, PlayerData(first_name="Aino", last_name="Virtanen", ema_number="04010001"))
    db.session.commit()
    assert len(reg.players_of(tournament)) == 2 and len(reg.players_of(other)) == 1


def test_the_csv_import_sent_twice_stores_nothing_the_second_time(tournament, unchecked, monkeypatch):
    csv = "first_name,last_name,country\nAino,Virtanen,FI\nEero,Korhonen,FI\n"
    assert len(reg.import_csv(tournament, csv)) == 2
    db.session.commit()
    from tournament.services.people.registration import csv_io

    monkeypatch.setattr(csv_io, "duplicate_problems", lambda *args, **kwargs: {})
    with pytest.raises(ConflictError, match="nothing was imported again"):
        reg.import_csv(tournament, csv)
    db.session.rollback()
    assert len(reg.players_of(tournament)) == 2


def _player(pid: int, first: str, last: str, ema: str | None) -> str:
    ema_sql = f"'{ema}'" if ema else "NULL"
    return (f"({pid}, 1, '{first}', '{last}', {ema_sql}, 'FI', '', '', false, 'registered', '', "
            "'2026-05-01 10:00:00', 1)")


def test_the_migration_keeps_every_player_and_separates_existing_copies(scratch_url):  # noqa: F811
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": scratch_url})
    with app.app_context():
        upgrade(revision=BEFORE)
        db.session.execute(text(
            "INSERT INTO tournaments (id, name, venue, ruleset, session_count, session_minutes, end_rule, "
            "false_mahjong_under_minimum, false_mahjong_not_winning, table_points, tie_breaks, draw_separation, "
            "standings_hidden, warning_minutes, created_at, updated_at, version) VALUES (1, 'Open', '', 'ema', 7, "
            "120, 'finish_hand', 10, 20, '[4, 2, 1, 0]', '[]', 'team', false, 15, '2026-05-01 10:00:00', "
            "'2026-05-01 10:00:00', 1)"))
        rows = [_player(1, "Aino", "Virtanen", None), _player(2, "AINO", "VIRTANEN", None),
                _player(3, "Eero", "Korhonen", "04010001"), _player(4, "Ville", "Nieminen", "04010001"),
                _player(5, "Eero", "Korhonen", "04010002")]
        db.session.execute(text(
            "INSERT INTO players (id, tournament_id, first_name, last_name, ema_number, country, club, team, "
            f"is_substitute, status, notes, created_at, version) VALUES {', '.join(rows)}"))
        db.session.commit()

        upgrade(revision=AFTER)
        found = db.session.execute(text(
            "SELECT id, first_name, last_name, ema_number, notes FROM players ORDER BY id")).all()
        assert [tuple(r[:4]) for r in found] == [
            (1, "Aino", "Virtanen", None),
            (2, "AINO", "VIRTANEN (duplicate 2)", None),  # same person in other letters: renamed, kept
            (3, "Eero", "Korhonen", "04010001"),
            (4, "Ville", "Nieminen", None),  # an EMA number already taken: removed, and said so
            (5, "Eero", "Korhonen", "04010002"),  # a namesake with another EMA number: untouched
        ]
        assert "EMA number 04010001" in found[3][4]
        # From now on the database refuses a copy.
        with pytest.raises(Exception, match="(?i)unique"):
            db.session.execute(text("INSERT INTO players (tournament_id, first_name, last_name, country, club, "
                                    "team, is_substitute, status, notes, created_at, version) VALUES (1, 'aino', "
                                    "'virtanen', 'FI', '', '', false, 'registered', '', '2026-05-01', 1)"))
        db.session.rollback()

        db.session.remove()
        downgrade(revision=BEFORE)
        assert db.session.execute(text("SELECT count(*) FROM players")).scalar() == 5
        db.session.remove()
        db.engine.dispose()
