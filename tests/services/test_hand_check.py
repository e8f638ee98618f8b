"""The hand check: one verdict and one reason per claimed win, the way score entry and the checker show it."""

from __future__ import annotations

import dataclasses

import pytest

from tournament.services.play.hand_check import Verdict, check_hand, count_tiles

PURE_STRAIGHT = "123456789m123s5p5p"  # 16 + concealed + all chows + mixed double chow + single wait
SIX_POINTS = "[123m]123456m123s5p5p"  # all chows 2, pure double chow, mixed double chow, short straight, single wait
MIXED_KONGS = "[2222m]{8888p}234s678s5s5s"  # ema: Two Melded Kongs 4 + Concealed Kong 2; chinese: one fan of 5


def test_valid_win_lists_every_fan_with_points_count_and_sets():
    check = check_hand(PURE_STRAIGHT, self_drawn=True)
    assert check.verdict == Verdict.VALID and check.is_win and not check.is_false_mahjong
    assert check.reason == ""
    names = [f.name for f in check.fans]
    assert names[0] == "Pure Straight"
    straight = check.fans[0]
    assert (straight.points, straight.count, straight.sets) == (16, 1, ("123m", "456m", "789m"))
    assert check.fan_points == sum(f.points * f.count for f in check.fans) == 24
    assert check.total == 24 and check.flower_points == 0


def test_flowers_add_to_the_total_of_a_valid_win():
    check = check_hand(PURE_STRAIGHT, self_drawn=True, flowers=3)
    assert check.verdict == Verdict.VALID
    assert (check.fan_points, check.flower_points, check.total) == (24, 3, 27)
    flowers = check.to_json()["fans"][-1]
    assert flowers == {"name": "Flower Tiles", "points": 1, "count": 3, "sets": []}


def test_under_minimum_reason_and_fans_kept():
    check = check_hand(SIX_POINTS)
    assert check.verdict == Verdict.UNDER_MINIMUM and check.is_false_mahjong and not check.is_win
    assert check.reason == "6 points: under the 8-point minimum, flowers not counted"
    assert check.fan_points == 6 and check.fans


def test_flowers_are_not_counted_toward_the_minimum():
    # 6 fan points + 8 flowers = 14, still no win
    check = check_hand(SIX_POINTS, flowers=8)
    assert check.verdict == Verdict.UNDER_MINIMUM
    assert (check.fan_points, check.flower_points, check.total) == (6, 8, 14)
    assert check.reason.startswith("6 points: under the 8-point minimum")


def test_seven_point_reason_exactly_as_the_issue_words_it():
    check = check_hand(MIXED_KONGS, ruleset="chinese")
    assert check.reason == "7 points: under the 8-point minimum, flowers not counted"


def test_both_rulesets_decide_differently_on_the_same_hand():
    ema = check_hand(MIXED_KONGS, ruleset="ema")
    chinese = check_hand(MIXED_KONGS, ruleset="chinese")
    assert (ema.verdict, ema.fan_points, ema.ruleset) == (Verdict.VALID, 8, "ema")
    assert {f.name for f in ema.fans} >= {"Two Melded Kongs", "Concealed Kong"}
    assert (chinese.verdict, chinese.fan_points, chinese.ruleset) == (Verdict.UNDER_MINIMUM, 7, "chinese")
    assert "Concealed Kong and Melded Kong" in {f.name for f in chinese.fans}


def test_not_winning():
    check = check_hand("123m456p789s11223p")
    assert check.verdict == Verdict.NOT_WINNING and check.is_false_mahjong
    assert check.reason == "not a winning hand"
    assert check.fans == () and check.total == 0


@pytest.mark.parametrize(
    ("hand", "tiles"),
    [
        ("123456789m123s5p", 13),
        ("123456789m123s5p5p5p", 15),
        ("", 0),
        ("[123m][555p]{EEEE}789sP", 13),  # a declared kong counts 3 toward the 14
        ("[123m][555p]{EEEE}789sPPP", 15),
        ("[1111m][2222m][3333m][4444m]5m", 13),
        ("1234z 567z 123m 456m 7m", 14 + 0),  # spaces ignored, 1z..7z counted; 14 tiles is fine here
    ],
)
def test_tile_count_reason(hand, tiles):
    assert count_tiles(hand) == tiles
    check = check_hand(hand)
    if tiles == 14:
        assert check.code != "wrong_tile_count"
        return
    assert check.verdict == Verdict.INVALID and not check.is_false_mahjong
    assert check.reason == f"{tiles} tiles, 14 expected"
    assert (check.field, check.tiles, check.code) == ("hand", tiles, "wrong_tile_count")


def test_one_tile_is_singular():
    assert check_hand("E").reason == "1 tile, 14 expected"


@pytest.mark.parametrize(
    ("hand", "reason"),
    [
        ("123456789m123s5x5p", "unknown character 'x' (at position 16)"),
        ("123456789m123s5p5", "digit '5' is not followed by a suit letter (m, s, p or z) (at position 17)"),
        ("5555p123456789m5p", "a fifth 5p (there are only four of each tile) (at position 16)"),
        ("[124m]456789m123s5p5p", "[124m] is not a chow, pung or kong (at position 1)"),
        ("123456789m[123s]5p5p", "declared sets must be written before the concealed tiles (at position 11)"),
    ],
)
def test_notation_errors_keep_the_engine_message(hand, reason):
    check = check_hand(hand)
    assert check.verdict == Verdict.INVALID
    assert check.reason == reason
    assert check.field == "hand"


@pytest.mark.parametrize(
    ("flags", "field", "words"),
    [
        ({"kong": True, "self_drawn": True}, "kong", "needs a declared kong"),
        ({"last_tile": True}, "last_tile", "cannot be the last of its kind"),
        ({"seat_wind": "X"}, "seat_wind", "seat_wind must be one of E, S, W, N"),
        ({"prevalent_wind": "e"}, "prevalent_wind", "prevalent_wind must be one of"),
        ({"flowers": 9}, "flowers", "flowers must be a whole number from 0 to 8"),
        ({"ruleset": "foo"}, "ruleset", "unknown ruleset 'foo'"),
    ],
)
def test_context_errors_are_invalid_and_blame_the_flag(flags, field, words):
    check = check_hand(PURE_STRAIGHT, **flags)
    assert check.verdict == Verdict.INVALID
    assert words in check.reason
    assert check.field == field


def test_robbing_a_kong_with_another_copy_in_hand_is_invalid():
    # the winning 5p robbed from a kong, but the hand already holds a 5p
    check = check_hand(PURE_STRAIGHT, kong=True)
    assert (check.verdict, check.field) == (Verdict.INVALID, "kong")
    assert "robbing a kong of 5p is impossible" in check.reason


def test_too_long_or_not_text_never_raises():
    long = check_hand("1" * 201)
    assert (long.verdict, long.field) == (Verdict.INVALID, "hand")
    assert "at most 200 characters" in long.reason
    assert check_hand(None).reason == "0 tiles, 14 expected"  # type: ignore[arg-type]


def test_context_flags_change_the_fans():
    discard = check_hand(PURE_STRAIGHT)
    drawn = check_hand(PURE_STRAIGHT, self_drawn=True)
    assert "Concealed Hand" in {f.name for f in discard.fans}
    assert "Fully Concealed Hand" in {f.name for f in drawn.fans}
    winds = check_hand("[EEE]123456789m5p5p", seat_wind="E", prevalent_wind="E")
    assert {"Seat Wind", "Prevalent Wind"} <= {f.name for f in winds.fans}
    south = check_hand("[EEE]123456789m5p5p", seat_wind="S", prevalent_wind="S")
    assert not {"Seat Wind", "Prevalent Wind"} & {f.name for f in south.fans}


def test_to_json_is_plain_and_complete():
    data = check_hand(SIX_POINTS, flowers=1).to_json()
    assert data["verdict"] == "under_minimum" and data["is_win"] is False
    assert data["fan_points"] == 6 and data["flower_points"] == 1 and data["total"] == 7
    assert data["minimum"] == 8
    assert data["fans"][0].keys() == {"name", "points", "count", "sets"}
    assert all(isinstance(f["sets"], list) for f in data["fans"])
    bad = check_hand("12").to_json()
    assert bad == {
        "verdict": "invalid", "is_win": False, "hand": "12", "ruleset": "ema", "fans": [], "fan_points": 0,
        "flower_points": 0, "total": 0, "minimum": 8,
        "reason": "digit '1' is not followed by a suit letter (m, s, p or z) (at position 1)",
        "code": "digit_without_suit", "field": "hand", "tiles": None,
    }


def test_result_is_frozen():
    check = check_hand(PURE_STRAIGHT)
    with pytest.raises(dataclasses.FrozenInstanceError):
        check.verdict = "valid"  # type: ignore[misc]
