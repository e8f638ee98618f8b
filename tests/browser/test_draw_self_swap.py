"""A swap of a player with themselves on the draws page says so where the organiser is looking (issue 21 item
10): the page comes back at its top, so the refusal must be there too, not only next to the field at the
bottom of a long page of tables."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD, add_players
from tournament.services.seating import draws

pytestmark = pytest.mark.browser


def test_self_swap_is_refused_visibly(page, organiser, tournament):
    add_players(tournament, 32)
    session = draws.draw_next(tournament, seed=3)
    first = session.tables()[0][0]
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{tournament.id}/draws/1")
    before = page.locator(".table-card").all_inner_texts()
    page.get_by_label("Player", exact=True).select_option(str(first))
    page.get_by_label("Swap with").select_option(str(first))
    page.get_by_role("button", name="Swap and recheck quality").click()
    refusal = page.get_by_text("Nothing was swapped. Choose two different players.")
    expect(refusal).to_be_visible()
    expect(refusal).to_be_in_viewport()
    assert page.locator(".table-card").all_inner_texts() == before
