"""Issue 25: a player with access needs keeps their table number in every draw, plan and mended plan."""

import pytest

from tests.helpers import add_players
from tournament.extensions import db
from tournament.services import ServiceError
from tournament.services.people import registration
from tournament.services.people.registration import PlayerData
from tournament.services.seating import ahead
from tournament.services.seating import draws as draw_service


def _table_of(session, player_id):
    return next(seat.table_number for seat in session.seats if seat.player_id == player_id)


def test_plan_draw_and_replan_keep_a_fixed_table(tournament):
    tournament.session_count = 4
    players = add_players(tournament, 16, team=lambda i: f"T{i % 4}")
    add_players(tournament, 1, substitute=True, start=100)
    players[6].fixed_table = 3
    players[9].fixed_table = 1
    db.session.commit()
    for session in draw_service.plan_all(tournament, seed=8):
        assert _table_of(session, players[6].id) == 3 and _table_of(session, players[9].id) == 1
    assert draw_service.quality(tournament).excess_repeats == 0
    registration.withdraw(players[0], "ill")
    ahead.mend_ahead(tournament)
    db.session.commit()
    for session in draw_service.drawn_sessions(tournament):
        assert _table_of(session, players[6].id) == 3 and _table_of(session, players[9].id) == 1


def test_session_by_session_keeps_a_fixed_table(tournament):
    tournament.session_count = 3
    players = add_players(tournament, 12)
    players[4].fixed_table = 2
    db.session.commit()
    for seed in (1, 2, 3):
        session = draw_service.draw_next(tournament, seed=seed)
        assert _table_of(session, players[4].id) == 2


def test_a_fixed_table_beyond_the_tables_is_a_clear_refusal(tournament):
    players = add_players(tournament, 8)
    players[0].fixed_table = 5
    db.session.commit()
    with pytest.raises(ServiceError, match="keeps table 5, but there are only 2 tables"):
        draw_service.draw_next(tournament, seed=1)
    assert draw_service.drawn_sessions(tournament) == []


def test_the_fixed_table_is_a_table_number(tournament):
    assert "fixed_table" in registration.validate(PlayerData("A", "B", fixed_table=0))
    assert "fixed_table" not in registration.validate(PlayerData("A", "B", fixed_table=4))
    assert "fixed_table" not in registration.validate(PlayerData("A", "B"))
