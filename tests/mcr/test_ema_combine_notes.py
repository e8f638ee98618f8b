"""Seed 003 (the Finnish fan list): per fan, "Ei voi yhdistää" (cannot combine) and "Voi yhdistää"
(can combine). The ``ema`` ruleset must follow them."""

import pytest
from fan_cases import PAIR_CASES

from tournament.mcr import WinContext, score_hand
from tournament.mcr import rulesets as R

# fan -> fans it cannot combine with, as seed 003 lists them (translated to fans.csv names)
CANNOT = {
    "Big Four Winds": ["Big Three Winds", "All Pungs", "Prevalent Wind", "Seat Wind", "Pung of Terminals or Honors"],
    "Big Three Dragons": ["Two Dragon Pungs", "Dragon Pung"],
    "Nine Gates": ["Full Flush", "Concealed Hand", "Pung of Terminals or Honors"],
    "Four Kongs": ["Single Wait"],
    "Seven Shifted Pairs": ["Full Flush", "Concealed Hand", "Single Wait"],
    "Thirteen Orphans": ["All Types", "Concealed Hand", "Single Wait"],
    "All Terminals": ["All Pungs", "Outside Hand", "Pung of Terminals or Honors", "No Honors"],
    "Little Four Winds": ["Big Three Winds", "Pung of Terminals or Honors"],
    "Little Three Dragons": ["Dragon Pung", "Two Dragon Pungs"],
    "All Honors": ["All Pungs", "Outside Hand", "Pung of Terminals or Honors"],
    "Four Concealed Pungs": ["All Pungs", "Concealed Hand"],
    "Pure Terminal Chows": ["Seven Pairs", "Full Flush", "All Chows", "Pure Double Chow", "Two Terminal Chows"],
    "Quadruple Chow": ["Pure Shifted Pungs", "Tile Hog", "Pure Double Chow"],
    "Four Pure Shifted Pungs": ["Pure Triple Chow", "All Pungs"],
    "Four Pure Shifted Chows": ["Short Straight", "Two Terminal Chows"],
    "All Terminals and Honors": ["All Pungs", "Pung of Terminals or Honors"],
    "Seven Pairs": ["Concealed Hand", "Single Wait"],
    "Greater Honors and Knitted Tiles": ["All Types", "Concealed Hand"],
    "All Even Pungs": ["All Pungs", "All Simples"],
    "Full Flush": ["No Honors"],
    "Pure Triple Chow": ["Pure Shifted Pungs", "Pure Double Chow"],
    "Pure Shifted Pungs": ["Pure Triple Chow"],
    "Upper Tiles": ["No Honors"],
    "Middle Tiles": ["No Honors", "All Simples"],
    "Lower Tiles": ["No Honors"],
    "Three-Suited Terminal Chows": ["Pure Double Chow", "Two Terminal Chows", "No Honors", "All Chows"],
    "All Five": ["All Simples"],
    "Lesser Honors and Knitted Tiles": ["All Types", "Concealed Hand"],
    "Upper Four": ["No Honors"],
    "Lower Four": ["No Honors"],
    "Reversible Tiles": ["One Voided Suit"],
    "Last Tile Draw": ["Self-Drawn"],
    "Robbing the Kong": ["Last Tile"],
    "Melded Hand": ["Single Wait"],
    "All Simples": ["No Honors"],
}

# "Voi yhdistää" (can combine), with the condition when there is one
CAN = [
    ("Nine Gates", "Fully Concealed Hand"),
    ("Seven Shifted Pairs", "Fully Concealed Hand"),
    ("Thirteen Orphans", "Fully Concealed Hand"),
    ("All Terminals", "Double Pung"),
    ("All Terminals", "Triple Pung"),
    ("Little Four Winds", "Prevalent Wind"),
    ("Little Four Winds", "Seat Wind"),
    ("Four Concealed Pungs", "Fully Concealed Hand"),
    ("Three Concealed Pungs", "Three Kongs"),
    ("Seven Pairs", "Fully Concealed Hand"),
    ("Greater Honors and Knitted Tiles", "Fully Concealed Hand"),
    ("Lesser Honors and Knitted Tiles", "Fully Concealed Hand"),
]

EMA = R.get("ema")


@pytest.mark.parametrize("fan, others", sorted(CANNOT.items()))
def test_cannot_combine_is_in_the_ema_table(fan, others):
    assert set(others) <= EMA.excludes(fan)


@pytest.mark.parametrize("a, b", CAN)
def test_can_combine_is_not_excluded(a, b):
    assert b not in EMA.excludes(a) and a not in EMA.excludes(b)


@pytest.mark.parametrize("a, b, hand, ctx", PAIR_CASES, ids=lambda v: str(v)[:30])
def test_can_combine_in_a_scored_hand(a, b, hand, ctx):
    got = {f.name for f in score_hand(hand, WinContext(**ctx), "ema").fans}
    assert {a, b} <= got


def test_every_can_note_has_a_hand():
    have = {(a, b) for a, b, *_ in PAIR_CASES}
    assert set(CAN) <= have


def test_fully_concealed_needs_self_drawn():
    got = {f.name for f in score_hand("1133557799mEEFF").fans}
    assert "Fully Concealed Hand" not in got and "Concealed Hand" not in got
    got = {f.name for f in score_hand("1133557799mEEFF", WinContext(self_drawn=True)).fans}
    assert "Fully Concealed Hand" in got and "Self-Drawn" not in got


def test_three_kongs_with_three_concealed_pungs():
    got = {f.name for f in score_hand("{1111m}{9999m}{1111p}456p11s", WinContext(self_drawn=True)).fans}
    assert {"Three Kongs", "Three Concealed Pungs"} <= got
    # GB 17's "if the Kongs are all concealed" lifts Non-Repeat for implied pungs; with a melded kong the
    # three concealed sets are not implied, so Three Concealed Pungs scores too (issue 20, RULINGS.md)
    got = {f.name for f in score_hand("{1111m}{9999m}[1111p]999p11s", WinContext(self_drawn=True)).fans}
    assert {"Three Kongs", "Three Concealed Pungs"} <= got and "Two Concealed Pungs" not in got


def test_out_with_replacement_tile_and_flower_replacement():
    # the note under fan 46: won on a kong's replacement tile -> Out with Replacement Tile, not Self-Drawn
    got = {f.name for f in score_hand("[2222m]345m678s99p123s", WinContext(self_drawn=True, kong=True)).fans}
    assert "Out with Replacement Tile" in got and "Self-Drawn" not in got
