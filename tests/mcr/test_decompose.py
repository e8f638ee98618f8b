"""Winning forms and waits."""

import pytest

from tournament.mcr import MCRError, score_hand, winning_tiles
from tournament.mcr import decompose as dc
from tournament.mcr.notation import parse_hand


def counts(text):
    p = parse_hand(text)
    c = [0] * 34
    for t in p.all_concealed():
        c[t] += 1
    return tuple(c)


def test_standard_finds_every_decomposition():
    # 111222333m: three pungs or three identical chows
    ds = dc.standard(counts("111222333m456s99p"))
    readings = {tuple(kind for kind, _ in sets) for _, sets in ds}
    assert readings == {(dc.PUNG, dc.PUNG, dc.PUNG, dc.CHOW), (dc.CHOW, dc.CHOW, dc.CHOW, dc.CHOW)}


def test_standard_pair_choices():
    ds = dc.standard(counts("11123m456s789p555s"))  # 11 + 123m: the only reading
    assert len(ds) == 1
    pair, sets = ds[0]
    assert pair == 0 and len(sets) == 4
    assert dc.standard(counts("13579m13579s1357p")) == ()


def test_seven_pairs_allows_four_of_a_kind():
    assert dc.is_seven_pairs(counts("1111m223344sEEFF"))
    assert not dc.is_seven_pairs(counts("1112m223344sEEFF"))


def test_thirteen_orphans():
    assert dc.is_thirteen_orphans(counts("19m19s19pESWNCFPE"))
    assert not dc.is_thirteen_orphans(counts("19m19s19pESWNCFP9p"[:-2] + "2p"))


def test_honors_knitted_patterns():
    assert dc.honors_knitted_pattern(counts("147m258s369pESWNC")) is not None
    assert dc.honors_knitted_pattern(counts("147m258s3pESWNCFP")) is not None  # greater
    assert dc.honors_knitted_pattern(counts("147m258s368pESWNC")) is None  # 8p not in 3-6-9
    assert len(dc.KNITTED_PATTERNS) == 6
    assert all(len(set(p)) == 9 for p in dc.KNITTED_PATTERNS)


def test_knitted_straight_rest():
    rests = dc.knitted_straight_rests(counts("147m258s369p123pFF"))
    assert len(rests) == 1
    _, rest = rests[0]
    assert sum(rest) == 5 and dc.standard(rest)


@pytest.mark.parametrize(
    "hand, form",
    [
        ("123456789m123s5p5p", "standard"),
        ("1133557799mEEFF", "seven_pairs"),
        ("19m19s19pESWNCFPE", "thirteen_orphans"),
        ("147m258s369pESWNC", "honors_knitted"),
        ("147m258s3pESWNCFP", "honors_knitted"),
        ("147m258s369p123pFF", "knitted_straight"),
        ("[123m]147m258s369pFF", "knitted_straight"),
    ],
)
def test_every_form_is_recognised(hand, form):
    assert score_hand(hand).form == form


def test_not_winning():
    with pytest.raises(MCRError) as ei:
        score_hand("13579m13579s1357p")
    assert ei.value.code == "not_winning"
    # special forms need a concealed hand
    with pytest.raises(MCRError):
        score_hand("[111m]3557799mEEFF")


def test_nine_gates_waits_on_nine_tiles():
    assert winning_tiles("1112345678999m") == tuple(f"{i}m" for i in range(1, 10))


def test_thirteen_orphans_thirteen_sided_wait():
    assert len(winning_tiles("19m19s19pESWNCFP")) == 13


def test_winning_tiles_with_declared_sets():
    assert set(winning_tiles("[123m]456789m11p99s")) == {"1p", "9s"}
    assert winning_tiles("[123m][456m][789m]5p678s") == ("5p",)
    assert winning_tiles("[123m][456m][789m][EEEE]5p") == ("5p",)


def test_winning_tiles_skip_a_tile_held_four_times():
    # 1111m23m: structurally 1m would complete 111 + 11 + 123, but all four 1m are held
    assert winning_tiles("1111m23m456s789s5p") == ("5p",)


def test_knitted_and_honors_waits():
    assert set(winning_tiles("147m258s36pESWNC")) == {"9p", "F", "P"}
    assert winning_tiles("147m258s369p12pFF") == ("3p",)


def test_decomposition_cache_is_used():
    dc.standard.cache_clear()
    c = counts("123456789m123s5p5p")
    dc.standard(c)
    dc.standard(c)
    assert dc.standard.cache_info().hits >= 1
