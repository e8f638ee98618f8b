"""Every fan at least once, every exclusion of the table, and the general principles."""

import csv
from pathlib import Path

import pytest
from fan_cases import EXCLUSION_CASES, FAN_CASES

from tournament.mcr import FAN_BY_NAME, FANS, WinContext, score_hand
from tournament.mcr import rulesets as R
from tournament.mcr.calculator import explain, make_context
from tournament.mcr.notation import parse_hand

CSV = Path(__file__).resolve().parents[2] / "tournament" / "mcr" / "data" / "fans.csv"


def names(hand, ctx=None, ruleset="ema"):
    return {f.name: f.count for f in score_hand(hand, WinContext(**(ctx or {})), ruleset).fans}


def detected(hand, ctx, ruleset):
    p = parse_hand(hand)
    return set(explain(p, make_context(p, **ctx), R.get(ruleset))[3])


# ---------------------------------------------------------------- the table


def test_table_matches_the_shared_csv():
    rows = list(csv.DictReader(CSV.read_text(encoding="utf-8").splitlines()))
    assert len(FANS) == len(rows) == 82
    for f, row in zip(FANS, rows, strict=True):
        assert f.id == int(row["id"]) and f.name == row["name"]
        assert f.points.get("ema") == (int(row["ema_points"]) if row["ema_points"] else None)
        assert f.points.get("chinese") == (int(row["chinese_points"]) if row["chinese_points"] else None)
    assert FAN_BY_NAME["Concealed Kong and Melded Kong"].points_in("ema") is None


def test_exclusions_are_data_naming_real_fans():
    for f in FANS:
        for x in f.excludes:
            assert x in FAN_BY_NAME and x != f.name
    assert "Big Three Winds" in FAN_BY_NAME["Big Four Winds"].excludes


# ---------------------------------------------------------------- every fan

SCORED = [f.name for f in FANS if f.name != "Flower Tiles"]


@pytest.mark.parametrize("ruleset", R.RULESETS)
def test_every_fan_has_a_witness(ruleset):
    have = {fan for rs, fan, *_ in FAN_CASES if rs == ruleset}
    expected = {n for n in SCORED if FAN_BY_NAME[n].points_in(ruleset) is not None}
    assert expected <= have


@pytest.mark.parametrize("ruleset, fan, hand, ctx, fan_points", FAN_CASES, ids=lambda v: str(v)[:40])
def test_fan_scores(ruleset, fan, hand, ctx, fan_points):
    r = score_hand(hand, WinContext(**ctx), ruleset)
    got = {f.name: f for f in r.fans}
    assert fan in got
    assert got[fan].points == FAN_BY_NAME[fan].points[ruleset]
    assert r.fan_points == fan_points == sum(f.points * f.count for f in r.fans)
    assert got[fan].sets or fan in {
        "Concealed Hand", "Fully Concealed Hand", "Chicken Hand",
    }
    # no fan scores next to one it is excluded by
    rs = R.get(ruleset)
    for a in got:
        assert not (rs.excludes(a) & set(got)), (a, rs.excludes(a) & set(got))


def test_flower_tiles_in_the_result():
    r = score_hand("123456789m123s5p5p", WinContext(flowers=3))
    d = r.to_dict()
    assert d["fans"][-1] == {"name": "Flower Tiles", "points": 1, "count": 3}
    assert r.flower_points == 3 and r.total == r.fan_points + 3
    assert all(f.name != "Flower Tiles" for f in r.fans)


# ---------------------------------------------------------------- every exclusion

@pytest.mark.parametrize("ruleset, fan, excluded, hand, ctx", EXCLUSION_CASES, ids=lambda v: str(v)[:40])
def test_exclusion_removes_a_detected_fan(ruleset, fan, excluded, hand, ctx):
    got = names(hand, ctx, ruleset)
    assert fan in got
    assert excluded not in got
    assert excluded in detected(hand, ctx, ruleset)


# Exclusions the detectors can never meet in one reading (the two fans need different pairs, or
# different readings of the same tiles, or the fans are defined to be disjoint). They are kept in the
# table because the rule book lists them; here each is shown not to score together.
STRUCTURAL = [
    ("Big Four Winds", "Little Four Winds", "[EEE][SSS][WWW]NNN11m", {}),
    ("Big Three Dragons", "Little Three Dragons", "[CCC][FFF][PPP]123m11s", {}),
    ("Pure Terminal Chows", "Seven Pairs", "11223355778899m", {}),
    ("Quadruple Chow", "Pure Shifted Pungs", "111122223333m55s", {}),
    ("Four Pure Shifted Pungs", "Pure Triple Chow", "222333444555m11s", {}),
    ("Pure Triple Chow", "Pure Shifted Pungs", "[456m]456456m123s99p", {}),
    ("Pure Shifted Pungs", "Pure Triple Chow", "444555666m123s99p", {}),
    ("Pure Triple Chow", "Pure Double Chow", "[123m]123123m456s99p", {}),
    ("Triple Pung", "Double Pung", "[111m][111p]111s456s99p", {}),
    ("Mixed Triple Chow", "Mixed Double Chow", "[123m]123p123s456s99p", {}),
    ("Three-Suited Terminal Chows", "Pure Double Chow", "123789m123789s55p", {}),
    ("Greater Honors and Knitted Tiles", "Single Wait", "147m258s3pESWNCFP", {}),
    ("Lesser Honors and Knitted Tiles", "Single Wait", "147m258s369pESWNC", {}),
    ("Fully Concealed Hand", "Concealed Hand", "123456789m123s5p5p", {"self_drawn": True}),
]


@pytest.mark.parametrize("ruleset", R.RULESETS)
@pytest.mark.parametrize("fan, excluded, hand, ctx", STRUCTURAL, ids=lambda v: str(v)[:30])
def test_structural_exclusions(ruleset, fan, excluded, hand, ctx):
    assert excluded in R.get(ruleset).excludes(fan)
    got = names(hand, ctx, ruleset)
    assert fan in got
    assert excluded not in got


@pytest.mark.parametrize("ruleset", R.RULESETS)
def test_every_exclusion_of_the_table_is_covered(ruleset):
    rs = R.get(ruleset)
    covered = {(a, b) for r, a, b, *_ in EXCLUSION_CASES if r == ruleset} | {(a, b) for a, b, *_ in STRUCTURAL}
    table = {(f.name, x) for f in FANS for x in rs.excludes(f.name)}
    # fans a ruleset does not have cannot be met
    table = {(a, b) for a, b in table if FAN_BY_NAME[a].points_in(ruleset) and FAN_BY_NAME[b].points_in(ruleset)}
    assert table - covered == set()


# ---------------------------------------------------------------- principles and GB examples

def test_account_once_four_chows():
    # 123m 123m 123p 456p: Pure Double Chow, one Mixed Double Chow, Short Straight (3 = n - 1 fans)
    got = names("[123m]123m123p456p55s")
    assert got["Pure Double Chow"] == 1 and got["Mixed Double Chow"] == 1 and got["Short Straight"] == 1


def test_account_once_fourth_chow_joins_once():
    # Pure Straight + a fourth chow: one more two-chow fan only
    got = names("123456789m123s5p5p")
    assert got["Pure Straight"] == 1 and got["Mixed Double Chow"] == 1
    assert "Short Straight" not in got and "Two Terminal Chows" not in got


def test_high_versus_low_takes_the_best_reading():
    # 111222333m: three pungs (Pure Shifted Pungs 24) vs three chows (Pure Triple Chow 24): both 24,
    # but with a fourth chow 123m the chows make Quadruple Chow
    got = names("111222333m123m5p5p")
    assert "Quadruple Chow" in got


def test_chicken_hand():
    r = score_hand("[123m][567s][345p]78pEE9p", WinContext(seat_wind="S", prevalent_wind="W"), "ema")
    assert [f.name for f in r.fans] == ["Chicken Hand"]
    assert r.fan_points == 8 and r.meets_minimum


def test_under_minimum_is_still_scored():
    r = score_hand("[123m][567s][345p]78pEE9p", WinContext(self_drawn=True, seat_wind="S"))
    assert [f.name for f in r.fans] == ["Self-Drawn"]
    assert r.fan_points == 1 and not r.meets_minimum


def test_pung_of_terminals_not_counted_twice_with_winds():
    got = names("[EEE][SSS]111m456s99p", {"seat_wind": "E", "prevalent_wind": "W"})
    assert got["Seat Wind"] == 1
    assert got["Pung of Terminals or Honors"] == 2  # SSS and 111m, not EEE
    got = names("[EEE][SSS][WWW]111m55p", {"seat_wind": "N", "prevalent_wind": "N"})
    assert got["Big Three Winds"] == 1 and got["Pung of Terminals or Honors"] == 1


def test_discard_completing_a_pung_makes_it_melded():
    # 555p completed by the discarded 5p counts as melded; self-drawn it is concealed
    got = names("111m999s789s22p55p5p")
    assert "Two Concealed Pungs" in got and "Three Concealed Pungs" not in got
    assert "Three Concealed Pungs" in names("111m999s789s22p55p5p", {"self_drawn": True})


def test_discard_readable_into_a_chow_keeps_the_pung_concealed():
    # 3334 5m + discarded 3m: 333m + 345m, the winning 3m can be the chow's, so 333m stays concealed
    assert "Two Concealed Pungs" in names("[789s]111p33345m55p3m")


def test_last_tile_from_own_melded_sets():
    got = names("[333m]24m456789p11s3m")
    assert "Last Tile" in got


def test_sets_of_a_fan():
    r = score_hand("123456789m123s5p5p")
    by = {f.name: f.sets for f in r.fans}
    assert by["Pure Straight"] == ("123m", "456m", "789m")
    assert by["Single Wait"] == ("55p",)
