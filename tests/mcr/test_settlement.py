"""Payments and false mahjong."""

import pytest

from tournament.mcr import MCRError, WinContext, classify_claim, settle_false_mahjong, settle_win


def test_self_drawn_each_pays_8_plus_base():
    assert settle_win(2, None, 24) == (-32, -32, 96, -32)


def test_discard_discarder_pays_8_plus_base_others_8():
    assert settle_win(0, 3, 10) == (34, -8, -8, -18)


@pytest.mark.parametrize("winner", range(4))
@pytest.mark.parametrize("discarder", [None, 0, 1, 2, 3])
@pytest.mark.parametrize("base", [0, 8, 88])
def test_payments_sum_to_zero(winner, discarder, base):
    if discarder == winner:
        with pytest.raises(MCRError):
            settle_win(winner, discarder, base)
        return
    pay = settle_win(winner, discarder, base)
    assert sum(pay) == 0
    assert pay[winner] == (3 * (8 + base) if discarder is None else 3 * 8 + base)
    assert all(p < 0 for s, p in enumerate(pay) if s != winner)


def test_bad_seats_and_base():
    for args in ((4, None, 8), (-1, None, 8), (0, 5, 8), (0, None, -1), (True, None, 8), (0, None, 8.5)):
        with pytest.raises(MCRError):
            settle_win(*args)


def test_false_mahjong_amounts():
    assert settle_false_mahjong(1, "under_minimum") == (10, -30, 10, 10)
    assert settle_false_mahjong(3, "not_winning") == (20, 20, 20, -60)
    assert settle_false_mahjong(0, "under_minimum", under_minimum_amount=5) == (-15, 5, 5, 5)
    assert settle_false_mahjong(0, "not_winning", not_winning_amount=30) == (-90, 30, 30, 30)
    with pytest.raises(MCRError):
        settle_false_mahjong(0, "cheating")
    with pytest.raises(MCRError):
        settle_false_mahjong(7, "not_winning")


def test_classify_claim():
    assert classify_claim("123456789m123s5p5p") == "valid"
    assert classify_claim("[123m][567s][345p]78pEE9p", WinContext(self_drawn=True)) == "under_minimum"
    assert classify_claim("13579m13579s1357p") == "not_winning"
    with pytest.raises(MCRError) as ei:
        classify_claim("123x")
    assert ei.value.code == "unknown_character"
    with pytest.raises(MCRError) as ei:
        classify_claim("123456789m123s5p5p", WinContext(seat_wind="X"))
    assert ei.value.code == "bad_context"


def test_classify_then_settle():
    kind = classify_claim("[123m][567s][345p]78pEE9p", WinContext(self_drawn=True))
    assert settle_false_mahjong(2, kind) == (10, 10, -30, 10)
