"""Tests of the random hand generator (tests/mcr/handgen.py) against the reference calculator."""

import random
import re
from collections import Counter

import handgen
import pytest
import reference

from tests.helpers import HANDGEN_HANDS

# Canonical notation as handgen writes it: declared sets, then concealed tiles grouped by suit.
_GROUP = r"(?:[1-9]+[msp]|[ESWNCFP])"
NOTATION_RE = re.compile(rf"^(?:\[{_GROUP}+\]|\{{{_GROUP}+\}})*{_GROUP}+$")
ALL_FAN_NAMES = set(reference.ZH_TO_EN.values())


def test_deterministic_from_seed():
    a = handgen.random_hands(300, 7)
    assert a == handgen.random_hands(300, 7)
    assert a != handgen.random_hands(300, 8)
    rng1, rng2 = random.Random(3), random.Random(3)
    assert [handgen.random_hand(rng1) for _ in range(50)] == [handgen.random_hand(rng2) for _ in range(50)]


def test_random_hands_match_random_hand():
    rng = random.Random(11)
    assert handgen.random_hands(40, 11) == [handgen.random_hand(rng) for _ in range(40)]


def test_mapping_is_complete_and_matches_fans_csv():
    import csv
    from pathlib import Path

    with (Path("/work/shared/rules/fans.csv")).open(encoding="utf-8") as f:
        names = {row["name"] for row in csv.DictReader(f)}
    assert len(names) == 82
    assert set(reference.ZH_TO_EN.values()) == names
    assert len(reference.ZH_TO_EN) == 82


def test_keys_types_and_notation(corpus):
    cases, _, _ = corpus
    bad = []
    for case in cases:
        ok = (
            tuple(case) == handgen.CONTEXT_KEYS
            and NOTATION_RE.match(case["hand"]) is not None
            and all(isinstance(case[k], bool) for k in ("self_drawn", "last_tile", "wall_last", "kong"))
            and case["seat_wind"] in "ESWN" and len(case["seat_wind"]) == 1
            and case["prevalent_wind"] in "ESWN" and len(case["prevalent_wind"]) == 1
            and isinstance(case["flowers"], int) and 0 <= case["flowers"] <= 8
        )
        if not ok:
            bad.append(case)
    assert not bad, bad[:5]


def test_tile_counts_legal(corpus):
    cases, _, _ = corpus
    bad = []
    for case in cases:
        declared, concealed = reference.parse_notation(case["hand"])
        tiles = Counter(concealed)
        for _, set_tiles, _ in declared:
            tiles.update(set_tiles)
        n_kongs = sum(1 for kind, _, _ in declared if kind == "kong")
        if max(tiles.values()) > 4 or sum(tiles.values()) != 14 + n_kongs or len(concealed) != 14 - 3 * len(declared):
            bad.append(case["hand"])
        if handgen.case_tiles(case) != Counter({_code_to_text(k): v for k, v in tiles.items()}):
            bad.append(("case_tiles", case["hand"]))
    assert not bad, bad[:5]


def _code_to_text(code: str) -> str:
    if code[0] in "WTB":
        return code[1] + {"W": "m", "T": "s", "B": "p"}[code[0]]
    return {"F1": "E", "F2": "S", "F3": "W", "F4": "N", "J1": "C", "J2": "F", "J3": "P"}[code]


def test_context_consistent(corpus):
    cases, _, _ = corpus
    bad = []
    for case in cases:
        declared, concealed = reference.parse_notation(case["hand"])
        win = concealed[-1]
        in_declared = sum(tiles.count(win) for _, tiles, _ in declared)
        in_concealed = concealed[:-1].count(win)
        has_kong = any(kind == "kong" for kind, _, _ in declared)
        problems = []
        if case["kong"] and case["self_drawn"] and not has_kong:
            problems.append("replacement tile without a kong")
        if case["kong"] and not case["self_drawn"] and in_declared + in_concealed:
            problems.append("robbing a kong of a tile the winner holds")
        if case["kong"] and case["wall_last"]:
            problems.append("kong with last of the wall")
        if case["last_tile"] and in_concealed:
            problems.append("last tile while holding a concealed copy")
        if in_declared == 3 and not case["last_tile"]:
            problems.append("other three copies declared but last_tile false")
        if problems:
            bad.append((case, problems))
    assert not bad, bad[:5]


def test_reference_accepts_every_hand(corpus):
    cases, forms, results = corpus
    rejected = [(f, c) for c, f, r in zip(cases, forms, results, strict=True) if r is None]
    assert not rejected, rejected[:5]


def test_reference_honours_every_flag(corpus):
    """The reference silently corrects inconsistent flags; if it never had to, our context is consistent."""
    cases, _, results = corpus
    bad = []
    for case, res in zip(cases, results, strict=True):
        names = {n for n, _, _ in res["fans"]}
        robbing = case["kong"] and not case["self_drawn"]
        expect = set()
        if case["kong"]:
            expect.add("Out with Replacement Tile" if case["self_drawn"] else "Robbing the Kong")
        if case["wall_last"]:
            expect.add("Last Tile Draw" if case["self_drawn"] else "Last Tile Claim")
        if case["last_tile"] and not robbing:
            expect.add("Last Tile")
        if case["flowers"]:
            expect.add("Flower Tiles")
        if not expect <= names or ("Last Tile" in names and not case["last_tile"]):
            bad.append((case, sorted(names)))
    assert not bad, bad[:5]


def test_every_form_appears(corpus):
    cases, forms, _ = corpus
    counts = Counter(forms)
    missing = [f for f in handgen.FORMS if counts[f] < 50]
    assert not missing, (missing, counts)
    # regular hands mix every kind of declared and concealed set
    kinds = Counter()
    for case, form in zip(cases, forms, strict=True):
        if form != "regular":
            continue
        declared, concealed = reference.parse_notation(case["hand"])
        for kind, _, conc in declared:
            kinds["concealed kong" if conc else f"melded {kind}"] += 1
        n_decl = len(declared)
        kinds[f"{n_decl} declared"] += 1
    expected = ["melded chow", "melded pung", "melded kong", "concealed kong"] + [f"{i} declared" for i in range(5)]
    assert all(kinds[k] >= 100 for k in expected), kinds


def test_every_fan_appears(corpus):
    _, _, results = corpus
    seen = Counter(name for res in results for name, _, _ in res["fans"])
    never = sorted(ALL_FAN_NAMES - set(seen))
    assert not never, f"fans never scored by the reference in {HANDGEN_HANDS} hands: {never}"


def test_every_fan_reasonably_frequent(corpus):
    _, _, results = corpus
    seen = Counter(name for res in results for name, _, _ in res["fans"])
    rare = {name: seen[name] for name in ALL_FAN_NAMES if seen[name] < 40}
    assert not rare, f"fans scored fewer than 40 times in {HANDGEN_HANDS} hands: {rare}"


def test_hands_under_eight_points_are_generated(corpus):
    """Under-8 hands are part of the corpus (the engine must score them the same, meets_minimum false)."""
    _, _, results = corpus
    under = sum(1 for r in results if r["fan_points"] < 8)
    assert 0.01 * HANDGEN_HANDS < under < 0.3 * HANDGEN_HANDS, under


def test_reference_adapter_examples():
    case = {"hand": "[123m][555p]{EEEE}789sPP", "self_drawn": False, "last_tile": False, "wall_last": False,
            "kong": False, "seat_wind": "E", "prevalent_wind": "S", "flowers": 2}
    args = reference.to_reference_args(case)
    assert args["pack"] == (("CHI", "W2", 1), ("PENG", "B5", 1), ("GANG", "F1", 0))
    assert sorted(args["hand"]) == ["J3", "T7", "T8", "T9"]
    assert args["winTile"] == "J3"
    assert (args["seatWind"], args["prevalentWind"], args["flowerCount"]) == (0, 1, 2)
    res = reference.reference_score(case)
    assert ("Seat Wind", 2, 1) in res["fans"] and ("Flower Tiles", 1, 2) in res["fans"]
    assert res["total"] == res["fan_points"] + 2
    z = dict(case, hand="[123m][555p]{1111z}789s77z")
    assert reference.to_reference_args(z) == args
    orphans = dict(case, hand="19m19s19pESWNCFPE", flowers=0, seat_wind="S")
    assert reference.reference_score(orphans)["fans"] == [("Thirteen Orphans", 88, 1)]
    not_win = dict(case, hand="123456789m1357s9p", flowers=0)
    assert reference.reference_score(not_win) is None


@pytest.mark.parametrize("bad", ["[12m]123m456m789mEE", "123456789m123s5p", "[1234m]123456789m5p5p",
                                  "{555p}123456789m55s", "123456789m123s5x5p", "0123m"])
def test_reference_parser_refuses_bad_text(bad):
    with pytest.raises(ValueError):
        reference.parse_notation(bad)


def test_generation_terminates_for_the_seed_that_once_hung():
    # Seed 5 used to loop forever in the Seven Pairs "low_high" pool (fewer than 4 kinds to pair).
    cases = handgen.random_hands(20_000, seed=5)
    assert len(cases) == 20_000
