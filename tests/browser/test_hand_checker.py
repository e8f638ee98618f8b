"""The public hand checker in chromium: the tile picker builds the hand, the score appears as it is built."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def tile(page, label):
    # A tile button is named by what it shows, then the long form: "1 m (1 characters)".
    return page.locator(".tile-picker").get_by_role("button", name=f"({label})")


def click_tiles(page, *labels):
    for label in labels:
        tile(page, label).click()


def open_checker(page):
    page.goto("/check")
    page.evaluate("window.__noReload = true")  # gone if the page reloads or navigates


def test_build_a_hand_by_clicking_and_see_the_fans_before_any_submit(page):
    open_checker(page)
    hand = page.get_by_label("Hand", exact=True)
    result = page.locator("#hand-result")
    expect(result).to_have_text("Build or type a hand to see its fans.")

    click_tiles(page, *[f"{n} characters" for n in range(1, 10)], "1 bamboo", "2 bamboo", "3 bamboo", "5 dots")
    expect(hand).to_have_value("123456789m123s5p")
    expect(page.locator(".picker-count")).to_have_text("13/14")
    expect(result).to_contain_text("Cannot check: 13 tiles, 14 expected")
    expect(page.locator("#hand-error")).to_have_text("13 tiles, 14 expected")  # next to the field too

    page.get_by_label("Self-drawn").check()
    tile(page, "5 dots").click()
    expect(hand).to_have_value("123456789m123s55p")  # a run of digits shares its suit letter
    expect(page.locator(".picker-count")).to_have_text("14/14")
    # the last tile is the winning tile
    winning = page.locator(".picker-hand .tile-winning")
    expect(winning).to_have_count(1)
    expect(winning.locator(".tile-rank")).to_have_text("5")
    expect(page.locator(".picker-hand")).to_have_attribute("aria-label", re.compile(r"winning tile 5 dots$"))

    expect(result.locator(".verdict")).to_have_text("Mahjong: 24 points")
    expect(result.locator("tbody th")).to_have_text(
        ["Pure Straight", "Fully Concealed Hand", "All Chows", "Mixed Double Chow", "Single Wait"])
    expect(result.get_by_role("img", name="1 2 3 characters").first).to_be_visible()
    expect(result.locator("tfoot td")).to_have_text("24")
    expect(page.locator("#hand-error")).to_have_count(0)  # the stale tile-count message is gone

    # flowers and the prevalent wind change the answer live too
    page.get_by_label("Flowers").select_option("3")
    expect(result.locator(".verdict")).to_have_text("Mahjong: 27 points (24 + 3 flowers)")
    expect(result.locator("tbody th").last).to_have_text("Flower Tiles")
    assert page.evaluate("window.__noReload") is True  # all of it without submitting or reloading

    # the address is the shareable link: opened anew (server-rendered), it shows the same result
    assert "hand=123456789m123s55p" in page.url and "self_drawn=1" in page.url and "flowers=3" in page.url
    shared = page.context.new_page()
    shared.goto(page.url)
    expect(shared.locator("#hand-result .verdict")).to_have_text("Mahjong: 27 points (24 + 3 flowers)")
    expect(shared.get_by_label("Hand", exact=True)).to_have_value("123456789m123s55p")
    expect(shared.get_by_label("Self-drawn")).to_be_checked()
    expect(shared.locator(".picker-count")).to_have_text("14/14")  # the picker reads the shared hand
    shared.close()


def test_sets_by_buttons_and_an_under_minimum_reason(page):
    open_checker(page)
    hand = page.get_by_label("Hand", exact=True)
    chow = page.get_by_role("button", name="Melded chow: then pick its lowest tile")
    chow.click()
    expect(chow).to_have_attribute("aria-pressed", "true")
    expect(tile(page, "East wind")).to_have_attribute("aria-disabled", "true")  # no chow of winds
    tile(page, "1 characters").click()
    expect(hand).to_have_value("[123m]")
    expect(chow).to_have_attribute("aria-pressed", "false")
    click_tiles(page, *[f"{n} characters" for n in range(1, 7)], "1 bamboo", "2 bamboo", "3 bamboo")
    # a pung needs three free copies: 1m is in the chow and once more in the concealed tiles
    pung = page.get_by_role("button", name="Melded pung: then pick its tile")
    pung.click()
    expect(tile(page, "1 characters")).to_have_attribute("aria-disabled", "true")
    expect(tile(page, "9 characters")).to_have_attribute("aria-disabled", "false")
    pung.click()  # pressed again: back to single tiles
    expect(pung).to_have_attribute("aria-pressed", "false")
    # typing goes on where the picker left off
    hand.press("End")
    hand.type("5p5p")
    expect(page.locator(".picker-count")).to_have_text("14/14")
    expect(page.locator(".picker-hand .picker-set")).to_have_count(1)
    expect(page.locator("#hand-result .verdict")).to_have_text(
        "No win: 6 points: under the 8-point minimum, flowers not counted")
    expect(page.locator("#hand-result tbody th").first).to_have_text("All Chows")

    # a concealed kong is written in braces, before the concealed tiles
    page.get_by_role("button", name="Clear the hand").click()
    expect(hand).to_have_value("")
    click_tiles(page, "5 dots")
    page.get_by_role("button", name="Concealed kong: then pick its tile").click()
    tile(page, "East wind").click()
    expect(hand).to_have_value("{EEEE}5p")
    expect(page.locator(".picker-count")).to_have_text("4/14")
    page.get_by_role("button", name="Remove the last tile or set").click()
    page.get_by_role("button", name="Remove the last tile or set").click()
    expect(hand).to_have_value("")


def test_a_fifth_copy_is_refused_and_not_winning_is_explained(page):
    open_checker(page)
    hand = page.get_by_label("Hand", exact=True)
    five = tile(page, "5 dots")
    for _ in range(4):
        five.click()
    expect(five).to_have_attribute("aria-disabled", "true")
    five.click(force=True)  # still clickable (and focusable): it says why nothing happens
    expect(hand).to_have_value("5555p")
    expect(page.locator(".picker-message")).to_have_text("There are only four 5 dots tiles.")

    hand.fill("123m456p789s11223p")
    expect(page.locator("#hand-result .verdict")).to_have_text("No win: not a winning hand")
    expect(five).to_have_attribute("aria-disabled", "false")  # the picker re-read the typed text


def test_keyboard_only(page):
    open_checker(page)
    button = tile(page, "East wind")
    button.focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    expect(page.get_by_label("Hand", exact=True)).to_have_value("EE")


def test_copy_link(page):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto("/check?hand=123456789m123s5p5p&self_drawn=1")
    copy = page.get_by_role("button", name="Copy link")
    expect(copy).to_be_visible()
    copy.click()
    expect(page.locator("[data-hand-score-copy-status]")).to_have_text("Link copied.")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied.endswith("/check?hand=123456789m123s5p5p&self_drawn=1&last_tile=0&wall_last=0&kong=0"
                           "&seat_wind=E&prevalent_wind=E&flowers=0&ruleset=ema")


def test_phone_width_has_no_horizontal_scroll(browser, live_server):
    context = browser.new_context(base_url=live_server, viewport={"width": 390, "height": 844},
                                  device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto("/check?hand=[123m]{EEEE}456789m5p5p&self_drawn=1&flowers=2")
    expect(page.locator("#hand-result tbody th").first).to_have_text("Pure Straight")
    tile(page, "9 bamboo").tap()  # a 15th tile is refused, the picker still fits
    expect(page.locator(".picker-message")).to_have_text("The hand already has 14 tiles.")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    # tiles big enough to tap: at least 32 px wide and 40 px tall
    box = tile(page, "5 dots").bounding_box()
    assert box["width"] >= 32 and box["height"] >= 40
    context.close()
