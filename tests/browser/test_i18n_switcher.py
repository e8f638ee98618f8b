"""The language switcher in chromium: a reader picks Finnish in the footer, the page and the live result of
the hand checker speak Finnish, and the choice holds on the next page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_switch_to_finnish_and_check_a_hand_live(page):
    page.goto("/check")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    switcher = page.get_by_role("navigation", name="Language")
    switcher.get_by_role("link", name="Suomi").click()

    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(page.get_by_role("navigation", name="Kieli").get_by_role("link", name="Suomi")).to_have_attribute(
        "aria-current", "true")
    expect(page.get_by_role("heading", level=1)).to_have_text("Käden tarkistus")
    page.evaluate("window.__noReload = true")

    hand = page.get_by_label("Käsi", exact=True)
    hand.fill("123456789m123s5p")
    result = page.locator("#hand-result")
    expect(result).to_contain_text("Ei voi tarkistaa: 13 tiiltä, odotettiin 14")
    expect(page.locator("#hand-error")).to_have_text("13 tiiltä, odotettiin 14")  # next to the field too
    hand.fill("EEESSSWWWNNN1m1m")
    expect(result.locator(".verdict")).to_have_text("Mahjong: 191 pistettä")
    expect(result.locator("tbody th").first).to_have_text("Neljä isoa tuulta")
    expect(page.locator("#hand-error")).to_have_count(0)
    hand.fill("")
    expect(result).to_have_text("Kokoa tai kirjoita käsi, niin näet sen fanit.")

    # the tile picker speaks Finnish too: its tools, its tiles and what it says
    picker = page.get_by_role("group", name="Tiilivalitsin")
    expect(picker.locator(".picker-hand .empty")).to_have_text("Napsauta tiiliä alla tai kirjoita.")
    picker.get_by_role("button", name="Pöydätty chow: valitse sitten sen pienin tiili").click()
    expect(picker.locator(".picker-message")).to_have_text("Valitse chow’n pienin tiili.")
    picker.get_by_role("button", name="(1 merkit)").click()
    expect(hand).to_have_value("[123m]")
    expect(picker.locator(".picker-hand")).to_have_attribute("aria-label", "Käsi: pöydätty 1 merkit 2 merkit 3 merkit")
    expect(picker.locator(".picker-count")).to_have_attribute("aria-label", "3/14 tiiltä")
    picker.get_by_role("button", name="Tyhjennä").click()
    expect(hand).to_have_value("")
    assert page.evaluate("window.__noReload") is True  # all of it live, no reload

    page.get_by_role("link", name="Kirjaudu sisään").click()  # the cookie remembers the choice
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(page.get_by_label("Sähköposti")).to_be_visible()
