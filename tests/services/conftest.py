"""Fixtures the service tests share (`in_play`, `seated`, `played` ... are in tests/conftest.py)."""

from __future__ import annotations

from datetime import date

import pytest
import werkzeug.security

from tests.helpers import (
    BIG_HAND,
    FORMULAS,
    UNDER_5,
    VALID_22,
    add_players,
    played_one_session,
    table_ids,
    win,
)
from tournament.extensions import db
from tournament.models import Player
from tournament.services.documents.backup import export_tournament
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.people.registration import players as player_module
from tournament.services.play import penalties, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import FalseMahjongData, HandData
from tournament.services.results import standings
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


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


@pytest.fixture
def session_two_started(tournament):
    """8 players, session 1 played (two wins at each table) and finished, then session 2 drawn and started.

    Returns (tournament, the standings as they stood after session 1, before session 2 began)."""
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=5)
    lifecycle.start_session(tournament, 1)
    for table in (1, 2):
        e, s, w, n = table_ids(tournament, 1, table)
        win(tournament, 1, table, 1, e, s)
        win(tournament, 1, table, 2, w)  # self-drawn
    penalties.give_penalty(tournament, player_id=table_ids(tournament, 1, 2)[3], session_number=1, amount=10,
                           reason="slow play", user=None)
    lifecycle.finish_session(tournament, 1, force=True)
    db.session.commit()
    after_one = standings.standings(tournament)
    draw_service.draw_next(tournament, seed=6)
    lifecycle.start_session(tournament, 2)
    db.session.commit()
    return tournament, after_one


@pytest.fixture
def eight(tournament):
    """8 present players (returned) of a tournament of 3 sessions tie-broken by firsts, then best session."""
    tournament.session_count = 3
    tournament.tie_breaks = "firsts,best_session"
    db.session.commit()
    return add_players(tournament, 8)


@pytest.fixture
def field(tournament):
    """Six players by key (aino, mikko, jose, lars, sub, sub2): four checked in, then mikko withdrawn."""

    def add(first, last, **kwargs):
        return reg.add_player(tournament, PlayerData(first_name=first, last_name=last, **kwargs))

    players = {
        "aino": add("Aino", "Virtanen", country="FI", team="Team FI", club="Helsinki MC"),
        "mikko": add("Mikko", "Korhonen", country="FI", team="Team FI"),
        "jose": add("José", "García", country="ES", ema_number="12345678"),
        "lars": add("Lars", "Berg", country="SE"),
        "sub": add("Sanna", "Aalto", is_substitute=True),
        "sub2": add("Noah", "Zimmer", is_substitute=True),
    }
    for key in ("aino", "mikko", "jose", "sub"):
        reg.check_in(players[key])
    reg.withdraw(players["mikko"])
    return players


@pytest.fixture
def formula_players(tournament):
    """8 players named like formulas, one session played by totals (negative scores), closed."""
    return played_one_session(tournament, lambda i: PlayerData(
        first_name=FORMULAS[i % len(FORMULAS)], last_name=f"@Last{i}" if i % 2 else f"Plain{i}", country="FI",
        ema_number=f"0400{i:04d}", club="@Home club" if i == 0 else "", notes="-5 for lateness" if i == 0 else ""))


@pytest.fixture
def pack(tournament):
    """`played` (8 ranked players, one session) with dates and a venue, a no-show (registered, never at a
    table), a disqualified player and one player with no EMA number: (tournament, disqualified, no number)."""
    tournament.start_date, tournament.end_date = date(2026, 6, 5), date(2026, 6, 7)
    tournament.venue = "Helsinki"
    played_one_session(tournament)
    reg.add_player(tournament, reg.PlayerData(first_name="Nora", last_name="Noshow", country="FI",
                                              ema_number="04009999"))
    ranked = standings.standings(tournament).rows
    disqualified = db.session.get(Player, ranked[0].player_id)
    reg.disqualify(disqualified, "cheating")
    no_number = db.session.get(Player, ranked[3].player_id)
    no_number.ema_number = None
    db.session.commit()
    return tournament, disqualified, no_number


@pytest.fixture
def unchecked(monkeypatch):
    """The service without its Python duplicate check: what a request sees when another one is saving the same
    player at the same moment (both checks ran before either insert)."""
    monkeypatch.setattr(player_module, "duplicate_problems", lambda *args, **kwargs: {})


@pytest.fixture
def updates(monkeypatch):
    """Counts the standings brought up to date (rather than read afresh): {"updated": n}."""
    calls = {"updated": 0}
    real = standings.facts.updated

    def counting(last, marker):
        result = real(last, marker)
        calls["updated"] += result is not None
        return result

    monkeypatch.setattr(standings.facts, "updated", counting)
    return calls


@pytest.fixture
def hash_calls(monkeypatch):
    """Every password hash computed, as its method: the work a login does, counted, not timed."""
    calls = []
    real = werkzeug.security._hash_internal

    def counting(method, salt, password):
        calls.append(method)
        return real(method, salt, password)

    monkeypatch.setattr(werkzeug.security, "_hash_internal", counting)
    return calls
