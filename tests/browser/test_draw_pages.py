import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD

pytestmark = pytest.mark.browser


def test_plan_publish_and_find_your_table(page, organiser, small_tournament):
    t, players = small_tournament
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/draws")
    page.get_by_label("Seed").first.fill("2024")
    page.get_by_role("button", name="Plan all sessions").click()
    expect(page.get_by_text("Planned sessions 1–3 (seed 2024)")).to_be_visible()
    expect(page.get_by_test_id("excess-repeats")).to_have_text("0")
    page.get_by_role("link", name="Session 1").click()
    expect(page.locator(".table-card")).to_have_count(4)
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Session 1 is now published.")).to_be_visible()

    # The public page lists every player; typing a name narrows the list.
    page.goto(f"/t/{t.id}/seating")
    names = page.locator("#name-list li")
    expect(names).to_have_count(16)
    page.get_by_label("Filter by name").fill(players[3].first_name.lower())
    visible = page.locator("#name-list li:visible")
    expect(visible).to_have_count(1)
    expect(visible.first).to_contain_text(players[3].last_name)
    visible.first.get_by_role("link").click()
    expect(page.get_by_role("heading", name=players[3].full_name)).to_be_visible()
    expect(page.locator("tbody tr")).to_have_count(1)


def test_swap_updates_quality_report(page, organiser, small_tournament):
    t, players = small_tournament
    from tournament.services.seating import draws as draw_service

    session = draw_service.draw_next(t, seed=11)
    tables = session.tables()
    a = next(p for p in players if p.id == tables[0][0])
    b = next(p for p in players if p.id == tables[1][1])
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/draws/1")
    page.get_by_label("Player", exact=True).select_option(label=a.sort_name)
    page.get_by_label("Swap with").select_option(label=b.sort_name)
    page.get_by_role("button", name="Swap and recheck quality").click()
    expect(page.get_by_text("Players swapped.")).to_be_visible()
    expect(page.locator("#table-1")).to_contain_text(b.full_name)
    expect(page.locator("#table-2")).to_contain_text(a.full_name)
