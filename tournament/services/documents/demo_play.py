"""Play the demo tournament's first sessions, so a newcomer sees score entry, history and standings at once.

Hands are random legal hands built from sets and kept only when the engine scores them a valid win in
their context; everything is entered through the score-entry services, as a referee would.
"""

from __future__ import annotations

import random

from tournament.models import Tournament, User
from tournament.services.play import confirmations, penalties, referee_calls, scoring
from tournament.services.play import session as play
from tournament.services.play.hand_check import Verdict, check_hand
from tournament.services.play.scoring import FalseMahjongData, HandData
from tournament.services.seating import lifecycle

SUITS = "mps"
HONOURS = "ESWNCFP"
UNDER_MINIMUM_CLAIM = "[234m][456p][678s]234p5s5s"  # a legal hand of 6 points: a false mahjong
ATTEMPTS = 400


def _random_sets(rng: random.Random) -> tuple[list[list[str]], list[str]]:
    counts: dict[str, int] = {}

    def take(tiles: list[str]) -> bool:
        if any(counts.get(t, 0) + tiles.count(t) > 4 for t in set(tiles)):
            return False
        for t in tiles:
            counts[t] = counts.get(t, 0) + 1
        return True

    sets: list[list[str]] = []
    while len(sets) < 4:
        if rng.random() < 0.6:
            suit, start = rng.choice(SUITS), rng.randint(1, 7)
            tiles = [f"{start + i}{suit}" for i in range(3)]
        else:
            tile = rng.choice(HONOURS) if rng.random() < 0.3 else f"{rng.randint(1, 9)}{rng.choice(SUITS)}"
            tiles = [tile] * 3
        if take(tiles):
            sets.append(tiles)
    while True:
        tile = rng.choice(HONOURS) if rng.random() < 0.25 else f"{rng.randint(1, 9)}{rng.choice(SUITS)}"
        if take([tile, tile]):
            return sets, [tile, tile]


def _notation(tiles: list[str]) -> str:
    return "".join(tiles)


def random_win(rng: random.Random, *, self_drawn: bool, seat_wind: str, prevalent_wind: str,
               ruleset: str) -> tuple[str, int]:
    """A hand in notation that the engine scores as a valid win in this context, and its flowers."""
    for _ in range(ATTEMPTS):
        sets, pair = _random_sets(rng)
        melded = [s for s in sets if rng.random() < 0.35]
        concealed = [t for s in sets if s not in melded for t in s] + pair
        winning = concealed.pop(rng.randrange(len(concealed)))
        text = "".join(f"[{_notation(s)}]" for s in melded) + _notation(concealed) + winning
        flowers = rng.choice((0, 0, 0, 1, 1, 2, 3))
        check = check_hand(text, self_drawn=self_drawn, seat_wind=seat_wind, prevalent_wind=prevalent_wind,
                           flowers=flowers, ruleset=ruleset)
        if check.verdict == Verdict.VALID and check.fan_points <= 64:
            return text, flowers
    return "123456789m123s5p5p", 0  # a Pure Straight: valid in every context


def play_session(t: Tournament, number: int, rng: random.Random, user: User | None, *, hands: int = 16) -> None:
    """Enter `hands` hands at every table of a session in play: wins (some self-drawn) and draws."""
    session = play.get_session(t, number)
    for table in play.table_numbers(session):
        players = play.table_players(session, table)
        for hand_number in range(1, hands + 1):
            winds = play.hand_winds(hand_number)
            if rng.random() < 0.12:
                scoring.enter_hand(t, number, table, HandData(number=hand_number, result="draw"), user)
                continue
            winner = rng.randrange(4)
            self_drawn = rng.random() < 0.3
            discarder = None if self_drawn else rng.choice([s for s in range(4) if s != winner])
            text, flowers = random_win(rng, self_drawn=self_drawn,
                                       seat_wind=winds.seat_winds[players[winner].start_wind],
                                       prevalent_wind=winds.prevalent, ruleset=t.ruleset)
            scoring.enter_hand(t, number, table, HandData(
                number=hand_number, result="win", winner_id=players[winner].player_id,
                discarder_id=None if discarder is None else players[discarder].player_id,
                hand=text, flowers=flowers), user)


def play_demo(t: Tournament, rng: random.Random, user: User | None) -> None:
    """Session 1 played and closed (with a false mahjong, a penalty, a correction, players' confirmations and a
    dispute ruled on); session 2 half-way."""
    lifecycle.start_session(t, 1)
    play_session(t, 1, rng, user)
    first = play.table_players(play.get_session(t, 1), 1)
    # Hand 16 at table 1 again: a claim under the minimum first, then the real winner.
    old = scoring.get_hand(t, 1, 1, 16)
    winds = play.hand_winds(16)
    text, flowers = random_win(rng, self_drawn=True, seat_wind=winds.seat_winds[first[2].start_wind],
                               prevalent_wind=winds.prevalent, ruleset=t.ruleset)
    scoring.correct_hand(t, 1, 1, 16, HandData(
        number=16, result="win", winner_id=first[2].player_id, hand=text, flowers=flowers,
        false_mahjongs=(FalseMahjongData(player_id=first[1].player_id, hand=UNDER_MINIMUM_CLAIM),)),
        user, expected_version=old.version)
    penalties.give_penalty(t, player_id=first[3].player_id, session_number=1, amount=10,
                           reason="Late for the start of the session", user=user)
    # The players of table 1 confirm hand 1 from their links; one disputes hand 2 and the referee rules it stands.
    for seated in first:
        confirmations.confirm(t, seated.player, 1, 1)
    confirmations.dispute(t, first[0].player, 1, 2, "I think the discard was North's, not South's")
    confirmations.rule_stands(t, 1, 1, 2, user)
    # A call at table 1 during hand 16: exposed tiles, a warning; the call log keeps it with the warning.
    referee_calls.record_call(t, 1, 1, referee_calls.CallData(
        situation="North knocked two tiles of the wall over", hand=16, called_by=first[0].player_id,
        ruling="Tiles put back; a warning", penalty=referee_calls.PenaltyData(first[3].player_id, 0)), user)
    lifecycle.finish_session(t, 1)
    lifecycle.start_session(t, 2)
    play_session(t, 2, rng, user, hands=8)
