"""Fixtures the service tests share."""

from __future__ import annotations

import pytest

from tournament.extensions import db
from tournament.services import draws as draw_service
from tournament.services import play
from tournament.services import registration as reg
from tournament.services.registration import PlayerData


@pytest.fixture
def seated(tournament):
    """8 players checked in, session 1 drawn and in play; returns (tournament, table 1's ids E,S,W,N)."""
    for i in range(8):
        p = reg.add_player(tournament, PlayerData(first_name=f"Player{i}", last_name=f"Family{chr(65 + i)}",
                                                  country="FI"))
        reg.check_in(p)
    draw_service.draw_next(tournament, seed=5)
    play.start_session(tournament, 1)
    db.session.commit()
    session = play.get_session(tournament, 1)
    return tournament, [sp.player_id for sp in play.table_players(session, 1)]
