"""Live pages in a real browser: the standings follow a hand entered elsewhere, the projector pages through,
the player page draws its chart. Screenshots at phone, laptop and projector sizes go to LIVE_SHOTS if set."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.helpers import rename_player, table_ids, win
from tournament.extensions import db
from tournament.services.play import session as play

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("LIVE_SHOTS")
SIZES = {"phone": (390, 844), "laptop": (1280, 800), "projector": (1920, 1080)}


def shoot(page, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=name.endswith("-full"))


def test_public_standings_update_after_a_hand_entered_elsewhere(page, live_event):
    t = live_event
    page.goto(f"/t/{t.id}/standings")
    rows = page.locator("#live-standings tbody tr")
    expect(rows).to_have_count(20)
    expect(page.locator(".live-status")).to_contain_text("Live")
    last_id = rows.last.get_attribute("id")
    last_player = int(last_id.split("-")[1])
    # The last player wins a big hand at their table in session 2, entered as a referee would.
    session = play.get_session(t, 2)
    table = next(s.table_number for s in session.seats if s.player_id == last_player)
    others = [pid for pid in table_ids(t, 2, table) if pid != last_player]
    win(t, 2, table, 2, last_player, others[0])
    win(t, 2, table, 3, last_player)
    db.session.commit()

    moved = page.locator(f"#{last_id}")
    expect(moved).to_have_class(re.compile(r"live-up"), timeout=8000)
    expect(page.locator(".live-status")).to_contain_text("Updated at")
    new_index = page.locator("#live-standings tbody tr").evaluate_all(
        f"(rows) => rows.findIndex((r) => r.id === '{last_id}')")
    assert new_index < 19  # moved up from the bottom, without a reload
    assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    shoot(page, "standings-laptop")
    # The marks fade: after a few seconds the row is plain again.
    expect(moved).not_to_have_class(re.compile(r"live-mark"), timeout=9000)


def test_standings_hidden_meanwhile_leave_the_open_page(page, live_event):
    t = live_event
    page.goto(f"/t/{t.id}/standings")
    expect(page.locator("#live-standings tbody tr")).to_have_count(20)
    t.standings_hidden = True
    db.session.commit()
    expect(page.locator("#live-standings tbody tr")).to_have_count(0, timeout=8000)
    expect(page.locator("#live-standings")).to_contain_text("not shown any more")
    expect(page.locator(".live-status")).to_contain_text("no longer public")


def test_seating_page_keeps_what_is_typed_while_it_updates(page, live_event):
    t = live_event
    page.goto(f"/t/{t.id}/seating/2")
    search = page.get_by_label("Filter by name")
    search.fill("p003")
    expect(page.locator("#name-list li:visible")).to_have_count(1)
    # A renamed player changes the seating (a hand does not: seating shows no score), so the page fetches
    # itself again.
    rename_player(t, table_ids(t, 2, 2)[0], "Renamed")
    expect(page.locator(".live-status")).to_contain_text("Updated at", timeout=8000)
    expect(search).to_have_value("p003")
    expect(search).to_be_focused()
    expect(page.locator("#name-list li:visible")).to_have_count(1)


def test_projector_pages_through_standings_then_seating(page, live_event):
    t = live_event
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/t/{t.id}/projector?rows=8&seconds=3")
    slide = page.locator("#projector-slide")
    expect(slide).to_have_attribute("data-kind", "standings")
    expect(slide).to_have_attribute("data-page", "1")
    expect(page.locator("#projector-page")).to_have_text("1 / 3")
    expect(slide.locator("tbody tr")).to_have_count(8)
    shoot(page, "projector-standings")
    expect(slide).to_have_attribute("data-page", "2", timeout=6000)  # turned by itself
    expect(slide.locator("tbody tr").first).to_contain_text("9")
    # The session in play's clock shows in the corner once it runs.
    from tournament.services.play import clock

    expect(page.locator("#projector-clock")).to_be_hidden()
    clock.start(t, 2, None)
    db.session.commit()
    expect(page.locator("#projector-clock")).to_have_text(re.compile(r"^Session 2 · (1:59|2:00):\d\d$"), timeout=8000)
    # On to the seating: session 3 is published and next.
    page.keyboard.press(" ")  # pause, then step by hand
    for _ in range(4):
        if slide.get_attribute("data-kind") == "seating":
            break
        page.keyboard.press("ArrowRight")
    expect(slide).to_have_attribute("data-kind", "seating")
    expect(page.locator("#projector-title")).to_contain_text("Session 3: your table")
    expect(slide.locator("li")).to_have_count(20)  # 8 rows x 3 columns hold everyone
    shoot(page, "projector-seating")
    # Nothing overflows the screen: the slide fits in the viewport.
    box = slide.bounding_box()
    assert box["y"] + box["height"] <= 1080


def test_player_page_shows_its_rank_chart(page, live_event):
    t = live_event
    player = table_ids(t, 2, 3)[2]
    page.goto(f"/t/{t.id}/standings")
    page.locator(f"#player-{player} a").click()
    chart = page.get_by_role("img", name="Rank after each session")
    expect(chart).to_be_visible()
    expect(chart.locator("circle")).to_have_count(2)
    expect(chart.locator("line.chart-line")).to_have_count(1)
    expect(page.locator("#session-1")).to_be_visible()
    expect(page.locator("#session-3")).to_contain_text("next")
    shoot(page, "player-laptop")
    # On a phone the page fits its width: nothing scrolls sideways but the tables' own wrappers.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert chart.bounding_box()["width"] <= 390
    shoot(page, "player-phone-full")


def test_screenshots_of_the_other_pages(page, live_event):
    if not SHOTS:
        pytest.skip("set LIVE_SHOTS=<folder> to take screenshots")
    t = live_event
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        for slug, url in (("standings", "standings"), ("statistics", "statistics"), ("seating", "seating/3"),
                          ("session", "standings/sessions/2")):
            page.goto(f"/t/{t.id}/{url}")
            shoot(page, f"{slug}-{name}-full")
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (slug, name)
        page.goto(f"/t/{t.id}/projector")  # rows chosen by the screen's height
        expect(page.locator("#projector-slide")).to_have_attribute("data-kind", "standings")
        shoot(page, f"projector-auto-{name}")
