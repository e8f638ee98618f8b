"""A referee at the table: enters a win with the tile picker and sees the fans before saving, records a false
mahjong, corrects a hand; the table page on a phone."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD
from tournament.services.core.errors import NotFound
from tournament.services.play import scoring

pytestmark = pytest.mark.browser

UNDER_5 = "[234m][456p][678s]22s23s4s"


def choose(page, role, player):
    """Press a seat button: the group is "Winner" or "Discarded by", the button names the player."""
    page.get_by_role("group", name=role).get_by_label(player.player.full_name).check()


def click_tiles(page, labels):
    picker = page.locator(".tile-picker")
    for label in labels:
        picker.get_by_role("button", name=f"({label})").click()  # "1 m (1 characters)"


def test_referee_enters_a_win_with_the_picker_and_sees_the_fans_first(page, referee, table_one):
    t, players, table_url = table_one
    log_in(page, referee.email, PASSWORD)
    page.goto(table_url)
    page.get_by_role("link", name="Enter hand 1", exact=True).first.click()
    choose(page, "Winner", players[2])
    choose(page, "Discarded by", players[0])
    # 123456789m 123s 5p 5p: clicked tile by tile.
    click_tiles(page, [f"{n} characters" for n in range(1, 10)] + ["1 bamboo", "2 bamboo", "3 bamboo",
                                                                    "5 dots", "5 dots"])
    live = page.locator("#live-score")
    expect(live).to_contain_text("Pure Straight")
    expect(live).to_contain_text("22")
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator(".flashes")).to_contain_text("Hand 1 saved")
    expect(page.locator("#hand-1")).to_contain_text("22 points")
    hand = scoring.get_hand(t, 1, 1, 1)
    assert hand.payment_map()[players[0].player_id] == -30


def test_enter_in_the_hand_field_saves_the_win_as_typed(page, referee, table_one):
    # Enter (a phone's Go key) pressed the form's first submit button, the hidden false-mahjong conversion:
    # a 22-point win became a false mahjong and the winner was cleared.
    t, players, table_url = table_one
    log_in(page, referee.email, PASSWORD)
    page.goto(table_url + "/hands/new?hand=1")
    choose(page, "Winner", players[2])
    choose(page, "Discarded by", players[0])
    hand_field = page.get_by_label("Winning hand")
    hand_field.fill("123456789m123s5p5p")
    expect(page.locator("#live-score")).to_contain_text("Pure Straight")
    hand_field.press("Enter")
    expect(page.locator(".flashes")).to_contain_text("Hand 1 saved")
    hand = scoring.get_hand(t, 1, 1, 1)
    assert hand.false_mahjongs == []
    assert hand.winner_id == players[2].player_id
    assert hand.payment_map()[players[0].player_id] == -30


def test_enter_on_a_refused_claim_keeps_it_a_claim(page, referee, table_one):
    # With the refusal's "Record as a false mahjong" button on the page, Enter still only saves as typed: the
    # engine refuses again and nothing is stored; converting takes that button.
    t, players, table_url = table_one
    log_in(page, referee.email, PASSWORD)
    page.goto(table_url + "/hands/new?hand=1")
    choose(page, "Winner", players[1])
    choose(page, "Discarded by", players[0])
    page.get_by_label("Winning hand").fill(UNDER_5)
    page.get_by_role("button", name="Save hand").click()
    expect(page.get_by_role("button", name="Record as a false mahjong")).to_be_visible()
    with page.expect_navigation():
        page.get_by_label("Winning hand").press("Enter")
    expect(page.get_by_role("button", name="Record as a false mahjong")).to_be_visible()
    # Still the claim as typed: the winner kept, the false-mahjong rows empty.
    expect(page.get_by_role("group", name="Winner").get_by_label(players[1].player.full_name)).to_be_checked()
    expect(page.get_by_label("Winning hand")).to_have_value(UNDER_5)
    expect(page.locator(".fm-row").first.get_by_label("Hand claimed by", exact=False)).to_have_value("")
    with pytest.raises(NotFound):
        scoring.get_hand(t, 1, 1, 1)


def test_refused_claim_becomes_a_false_mahjong_then_the_hand_is_corrected(page, referee, table_one):
    t, players, table_url = table_one
    log_in(page, referee.email, PASSWORD)
    page.goto(table_url + "/hands/new?hand=1")
    choose(page, "Winner", players[1])
    choose(page, "Discarded by", players[0])
    page.get_by_label("Winning hand").fill(UNDER_5)
    expect(page.locator("#live-score")).to_contain_text("under the 8-point minimum")
    page.get_by_role("button", name="Record this claim as a false mahjong").click()
    expect(page.locator(".flashes")).to_contain_text("now a false mahjong")
    # The hand went on and ended in a draw.
    page.get_by_label("Draw: wall exhausted").check()
    page.get_by_role("button", name="Save hand").click()
    expect(page.locator("#hand-1")).to_contain_text("false mahjong")
    hand = scoring.get_hand(t, 1, 1, 1)
    assert [(fm.player_id, fm.kind) for fm in hand.false_mahjongs] == [(players[1].player_id, "under_minimum")]
    # Correct it: the kind was really "no winning hand" by the referee's word (tiles cleared).
    page.locator("#hand-1").get_by_role("link", name="Correct").click()
    row = page.locator(".fm-row").nth(1)
    row.get_by_label("Hand claimed by", exact=False).fill("")
    row.get_by_label("False mahjong by", exact=False).select_option("not_winning")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".flashes")).to_contain_text("corrected")
    assert scoring.get_hand(t, 1, 1, 1).payment_map()[players[1].player_id] == -60


def test_table_page_on_a_phone(browser, live_server, referee, table_one):
    t, players, table_url = table_one
    context = browser.new_context(base_url=live_server, viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        log_in(page, referee.email, PASSWORD)
        page.goto(table_url)
        expect(page.locator(".hand-row")).to_have_count(16)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390
        # Every player and their running total are on screen without scrolling sideways.
        for sp in players:
            expect(page.locator(".seat-panel")).to_contain_text(sp.player.full_name)
        button = page.get_by_role("link", name="Enter hand 1", exact=True).first
        box = button.bounding_box()
        assert box and box["height"] >= 36  # big enough for a finger
    finally:
        context.close()
