"""Issue 8: a winning tile that is the fourth of its kind was waited for (the hand held three), so the
``ema`` held-four rule must not drop it from the waits. Both rulesets (and the reference) agree here.

"Where" says where the other three copies of the winning tile are: in melded sets, in the concealed
tiles, or both. Some rows cannot exist: a Single Wait always has the pair's partner concealed (so never
"melded"), and an exhaustive search of one-suit hands found no concealed-only Single or Closed Wait on
the fourth tile (three concealed copies always leave a second wait), nor did 200,000 generated hands.
"""

import pytest
import reference

from tournament.mcr import WinContext, classify_claim, score_hand
from tournament.mcr.calculator import held_four_before_win
from tournament.mcr.notation import parse_hand

WAIT_FANS = ("Edge Wait", "Closed Wait", "Single Wait")


def _case(hand: str, **ctx) -> dict:
    base = {"self_drawn": False, "last_tile": False, "wall_last": False, "kong": False,
            "seat_wind": "E", "prevalent_wind": "E", "flowers": 0}
    return {"hand": hand, **base, **ctx}


def _waits(hand: str, ruleset: str, **ctx) -> set[str]:
    return {f.name for f in score_hand(hand, WinContext(**ctx), ruleset).fans} & set(WAIT_FANS)


def _ref_waits(hand: str, **ctx) -> set[str]:
    ref = reference.reference_score(_case(hand, **ctx))
    assert ref is not None
    return {name for name, _, _ in ref["fans"]} & set(WAIT_FANS)


# (hand, where the other three copies are, the wait fan, context)
ONE_TILE_WAITS = [
    ("[345p][456p]789sEEE5p5p", "mixed", "Single Wait", {}),
    ("[789s][789s]789m9s789p9s", "mixed", "Single Wait", {"seat_wind": "S", "prevalent_wind": "N"}),
    ("[333s]12s456m789pEE3s", "melded", "Edge Wait", {}),
    ("1223334m334455s3m", "concealed", "Edge Wait", {"prevalent_wind": "W"}),
    ("{5555p}[789s][1111s]7789s7s", "mixed", "Edge Wait", {"prevalent_wind": "S"}),
    ("[222s]13s456m789pEE2s", "melded", "Closed Wait", {}),
    ("1116777889mEEE7m", "concealed", "Edge Wait", {}),
    ("[234p][456p][345m]1233m3m", "mixed", "Edge Wait", {"self_drawn": True, "seat_wind": "N"}),
    ("[456s][567m]4556s456p5s", "mixed", "Closed Wait", {"seat_wind": "W"}),
    ("[123s][123s]11233sCC2s", "mixed", "Closed Wait", {"seat_wind": "N", "prevalent_wind": "W"}),
    ("[333s]12s456m789pEE3s", "melded", "Edge Wait", {"self_drawn": True}),
]


@pytest.mark.parametrize("hand, where, fan, ctx", ONE_TILE_WAITS)
def test_wait_won_on_the_fourth_tile(hand, where, fan, ctx):
    p = parse_hand(hand)
    w = p.win_tile
    full = p.tallies[1]
    assert full[w] == 4 and not held_four_before_win(full, w, w)
    in_concealed = p.concealed.count(w)
    assert where == ("melded" if not in_concealed else "concealed" if in_concealed == 3 else "mixed")
    assert _waits(hand, "ema", **ctx) == {fan}
    assert _waits(hand, "chinese", **ctx) == {fan}
    assert _ref_waits(hand, **ctx) == {fan}


def test_issue_single_wait_is_a_valid_win():
    # 7 points without the Single Wait: the old reading made a valid win a false mahjong
    hand = "[345p][456p]789sEEE5p5p"
    r = score_hand(hand)
    assert r.fan_points == 8 and r.meets_minimum
    assert classify_claim(hand) == "valid"


# two-tile waits where one of the two is the fourth copy of its kind: no wait fan
TWO_TILE_WAITS = [
    ("12223678sWWFFF2s", {}),  # waits on 2s (the fourth) and W
    ("[678m][234m]2225566m6m", {"seat_wind": "S", "prevalent_wind": "N"}),  # 5m and 6m (the fourth)
    ("{6666p}33m45556888s5s", {"seat_wind": "S"}),  # 3m and 5s (the fourth)
]


@pytest.mark.parametrize("hand, ctx", TWO_TILE_WAITS)
def test_two_tile_wait_with_a_fourth_copy_has_no_wait_fan(hand, ctx):
    p = parse_hand(hand)
    assert p.tallies[1][p.win_tile] == 4
    assert _waits(hand, "ema", **ctx) == set()
    assert _waits(hand, "chinese", **ctx) == set()
    assert _ref_waits(hand, **ctx) == set()


def test_two_tile_wait_score():
    # Closed Wait was wrongly scored: 15 before the fix
    assert score_hand("12223678sWWFFF2s").fan_points == 14


def test_a_tile_held_four_before_the_win_is_still_no_wait():
    # the rule itself stays: 1111m345666m + 2m, the 1m (all four held) is not a wait, so 2m is a
    # single tile wait in ema only
    hand = "[777m]1111345666m2m"
    assert _waits(hand, "ema") == {"Closed Wait"}
    assert _waits(hand, "chinese") == set()
    p = parse_hand(hand)
    assert held_four_before_win(p.tallies[1], p.win_tile, 0)
