"""Every ema/chinese difference listed in rules/README.md (and the ones RULINGS.md adds)."""

import pytest

from tournament.mcr import RULESETS, MCRError, WinContext, classify_claim, score_hand


def fans(hand, ruleset, **ctx):
    return {f.name: (f.points, f.count) for f in score_hand(hand, WinContext(**ctx), ruleset).fans}


def test_rulesets_tuple():
    assert RULESETS == ("ema", "chinese")


def test_default_ruleset_is_ema():
    assert score_hand("123456789m123s5p5p").ruleset == "ema"


def test_unknown_ruleset():
    for call in (lambda: score_hand("123456789m123s5p5p", ruleset="riichi"),
                 lambda: classify_claim("123456789m123s5p5p", ruleset="x")):
        with pytest.raises(MCRError) as ei:
            call()
        assert ei.value.code == "unknown_ruleset"


def test_two_concealed_kongs_points():
    hand = "{1111m}{9999p}456s789s55p"
    assert fans(hand, "ema")["Two Concealed Kongs"] == (8, 1)
    assert fans(hand, "chinese")["Two Concealed Kongs"] == (6, 1)


def test_one_melded_and_one_concealed_kong():
    hand = "{2222m}[8888p]456s789s55p"
    ema = fans(hand, "ema")
    assert ema["Two Melded Kongs"] == (4, 1) and ema["Concealed Kong"] == (2, 1)
    assert "Concealed Kong and Melded Kong" not in ema and "Melded Kong" not in ema
    ch = fans(hand, "chinese")
    assert ch["Concealed Kong and Melded Kong"] == (5, 1)
    assert not {"Two Melded Kongs", "Concealed Kong", "Melded Kong"} & set(ch)


@pytest.mark.parametrize(
    "hand, special",
    [
        ("1133557799mEEFF", "Seven Pairs"),
        ("19m19s19pESWNCFPE", "Thirteen Orphans"),
        ("147m258s369pESWNC", "Lesser Honors and Knitted Tiles"),
        ("147m258s3pESWNCFP", "Greater Honors and Knitted Tiles"),
        ("11123456789999m", "Nine Gates"),
        ("22334455667788s", "Seven Shifted Pairs"),
        ("111m333p555s777s9m9m", "Four Concealed Pungs"),
    ],
)
def test_fully_concealed_with_special_hands(hand, special):
    ema = fans(hand, "ema", self_drawn=True)
    assert special in ema and "Fully Concealed Hand" in ema and "Self-Drawn" not in ema
    ch = fans(hand, "chinese", self_drawn=True)
    assert special in ch and "Fully Concealed Hand" not in ch and "Self-Drawn" in ch


@pytest.mark.parametrize("ruleset", ["ema", "chinese"])
def test_three_kongs_with_concealed_pungs(ruleset):
    # issue 20: a melded kong and three concealed sets score Three Concealed Pungs (16), not Two (2)
    hand = "{1111m}{9999m}[1111p]999p11s"
    got = fans(hand, ruleset, self_drawn=True)
    assert "Three Kongs" in got and "Three Concealed Pungs" in got and "Two Concealed Pungs" not in got
    assert score_hand("[5555s]{EEEE}{9999p}111m1s1s", WinContext(self_drawn=True), ruleset).fan_points == 62


def test_all_terminals_with_double_pung():
    hand = "[111m][999m][111p]999p11s"
    assert fans(hand, "ema")["Double Pung"] == (2, 2)
    assert "Double Pung" not in fans(hand, "chinese")
    assert "All Terminals" in fans(hand, "chinese")


def test_all_green_with_flushes():
    half = "[234s][234s][666s]888sFF"
    assert {"All Green", "Half Flush"} <= set(fans(half, "ema"))
    ch = fans(half, "chinese")
    assert "All Green" in ch and "Half Flush" not in ch
    full = "[234s][234s][666s]888s33s"
    assert {"All Green", "Full Flush"} <= set(fans(full, "ema"))
    # the reference (Chinese practice) keeps Full Flush with All Green: see RULINGS.md
    assert {"All Green", "Full Flush"} <= set(fans(full, "chinese"))


@pytest.mark.parametrize("ruleset", ["ema", "chinese"])
def test_knitted_straight_waits(ruleset):
    # 147m 58s 369p 123s FF waits only on 2s, which can be read as the inside tile of 123s (issue 20)
    hand = "147m58s369p123sFF2s"
    assert fans(hand, ruleset)["Closed Wait"] == (1, 1)
    assert score_hand(hand, ruleset=ruleset).fan_points == 15
    # the knitted straight was complete before the win: both score the edge wait of 12s + 3s
    hand = "147m258s369pFF12s3s"
    assert "Edge Wait" in fans(hand, ruleset)


def test_wait_on_a_tile_held_four_times():
    # 1111m345666m + 2m: structurally 1m also completes the hand, but all four 1m are held
    hand = "[777m]1111345666m2m"
    assert "Closed Wait" in fans(hand, "ema")
    assert "Closed Wait" not in fans(hand, "chinese")


def test_nine_gates_and_terminal_pungs():
    hand = "1112345678999s2s"
    assert "Pung of Terminals or Honors" not in fans(hand, "ema", self_drawn=True)
    assert fans(hand, "chinese", self_drawn=True)["Pung of Terminals or Honors"] == (1, 1)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_same_points_elsewhere(ruleset):
    r = score_hand("123456789m123s5p5p", ruleset=ruleset)
    assert r.fan_points == 22
