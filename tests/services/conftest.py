"""Fixtures the service tests share (`in_play`, `seated`, `played` ... are in tests/conftest.py)."""

from __future__ import annotations

import pytest

from tests.helpers import BIG_HAND, UNDER_5, VALID_22, add_players
from tournament.extensions import db
from tournament.services import draws as draw_service
from tournament.services import lifecycle, penalties, play, scoring
from tournament.services.backup import export_tournament
from tournament.services.scoring import FalseMahjongData, HandData


@pytest.fixture
def teams_in_play(tournament):
    """12 players in teams of three, session 1 drawn and in play (three tables)."""
    add_players(tournament, 12, team=lambda i: f"Team {i % 4}")
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    db.session.commit()
    return tournament


@pytest.fixture
def two_sessions_played(tournament):
    """8 players over two sessions: wins on discards and self-drawn, a draw, a false mahjong, penalties.
    Returns (tournament, {label: id}) with the players' ids by seat and the big hand."""
    t = tournament

    def ids(session_number: int, table: int) -> list[int]:
        return [sp.player_id for sp in play.table_players(play.get_session(t, session_number), table)]

    def enter(session_number, table, number, **kwargs):
        return scoring.enter_hand(t, session_number, table, HandData(number=number, **kwargs), None)

    add_players(t, 8)
    draw_service.draw_next(t, seed=5)
    lifecycle.start_session(t, 1)
    e, s, w, n = ids(1, 1)
    enter(1, 1, 1, result="win", winner_id=e, discarder_id=s, hand=VALID_22)
    enter(1, 1, 2, result="win", winner_id=e, hand=VALID_22)  # self-drawn: 24
    enter(1, 1, 3, result="draw", false_mahjongs=(FalseMahjongData(player_id=w, hand=UNDER_5),))
    e2, s2, w2, n2 = ids(1, 2)
    enter(1, 2, 1, result="win", winner_id=n2, discarder_id=s2, hand=VALID_22, flowers=3)
    penalties.give_penalty(t, player_id=s2, session_number=1, amount=10, reason="slow", user=None)
    cancelled = penalties.give_penalty(t, player_id=e2, session_number=1, amount=5, reason="x", user=None)
    penalties.cancel_penalty(t, cancelled.id, "mistake", None)
    lifecycle.finish_session(t, 1, force=True)
    draw_service.draw_next(t, seed=6)
    lifecycle.start_session(t, 2)
    a, b, c, d = ids(2, 2)
    big = enter(2, 2, 1, result="win", winner_id=c, discarder_id=a, hand=BIG_HAND)
    db.session.commit()
    return t, {"e": e, "s": s, "w": w, "s2": s2, "n2": n2, "e2": e2, "c": c, "a": a, "big": big}


@pytest.fixture
def document(demo_tournament):
    """The backup document of `demo_tournament` (the organiser fixture is its owner)."""
    return export_tournament(demo_tournament)
