"""Property tests: the parser only raises its own error; results do not depend on tile order."""

import random

from fan_cases import FAN_CASES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournament.mcr import MCRError, WinContext, parse_hand, score_hand, winning_tiles
from tournament.mcr.notation import format_tiles
from tournament.mcr.tiles import code

ALPHABET = "0123456789mspzESWNCFP[]{} x\t"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=40))
def test_parser_raises_only_its_own_error(text):
    try:
        p = parse_hand(text)
    except MCRError as e:
        assert e.code and e.message
        assert e.position is None or 1 <= e.position <= len(text)
    else:
        assert len(p.concealed) + 1 + 3 * len(p.melds) == 14


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_scoring_any_text_raises_only_mcr_error(text):
    for call in (score_hand, winning_tiles, parse_hand):
        try:
            call(text)
        except MCRError as e:
            assert isinstance(e.code, str) and str(e)


def _tiles_strategy():
    return st.lists(st.integers(0, 33), min_size=14, max_size=14)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(_tiles_strategy())
def test_random_tiles_score_or_refuse(tiles):
    text = "".join(code(t) for t in tiles)
    try:
        r = score_hand(text)
    except MCRError as e:
        assert e.code in {"not_winning", "too_many_of_tile"}
    else:
        assert r.fan_points == sum(f.points * f.count for f in r.fans)


def _shuffled(hand: str, rnd: random.Random) -> str:
    p = parse_hand(hand)
    melds = list(p.melds)
    rnd.shuffle(melds)
    conc = list(p.concealed)
    rnd.shuffle(conc)
    # write tiles one by one or grouped, honours either way
    body = "".join(code(t) for t in conc) if rnd.random() < 0.5 else format_tiles(conc)
    return "".join(m.notation for m in melds) + " " + body + " " + code(p.win_tile)


def _key(r):
    return (r.fan_points, r.form, sorted((f.name, f.points, f.count) for f in r.fans))


CASES = [(rs, hand, ctx) for rs, _, hand, ctx, _ in FAN_CASES]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CASES), st.randoms(use_true_random=False))
def test_result_does_not_depend_on_tile_order(case, rnd):
    ruleset, hand, ctx = case
    a = score_hand(hand, WinContext(**ctx), ruleset)
    b = score_hand(_shuffled(hand, rnd), WinContext(**ctx), ruleset)
    assert _key(a) == _key(b)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(CASES), st.randoms(use_true_random=False))
def test_winning_tile_is_among_the_waits(case, rnd):
    _, hand, _ = case
    p = parse_hand(hand)
    h13 = "".join(m.notation for m in p.melds) + format_tiles(sorted(p.concealed))
    assert code(p.win_tile) in winning_tiles(h13)
