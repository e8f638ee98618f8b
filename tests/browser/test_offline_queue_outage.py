"""The referee's hand form while the database is down (issue 31), in chromium at 390 px: the server answers the
sending 503, and the hand typed is kept in the browser (the service worker hands it to the offline queue, its
idempotency key unchanged) and sent once the database is back."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PLAIN_WIN, kept_keys
from tests.helpers import database_down
from tournament.extensions import db
from tournament.services.play import scoring

pytestmark = pytest.mark.browser

def stored(t) -> list[tuple[int, int, str]]:
    db.session.rollback()
    return [(h.number, h.winner_id, h.tiles) for h in scoring.table_hands(t, 1, 1)]


def test_a_hand_answered_503_is_kept_and_sent_once_the_database_is_back(app, offline_queue_phone):
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url + "/hands/new?hand=1")
    # The worker registers after the page's load event: wait for it to take the page (see test_offline_queue.py).
    page.evaluate("() => navigator.serviceWorker.controller !== null || new Promise(done =>"
                  " navigator.serviceWorker.addEventListener('controllerchange', () => done(true)))")
    page.locator("html[data-offline-ready]").wait_for(state="attached")
    key = page.locator("input[name=idempotency_key]").input_value()
    # the account's own database keeps it (the queue is kept per owner, see test_offline_queue_owner.py)
    owner = page.locator("html").get_attribute("data-offline-owner")
    winner, discarder = seats[1].player.full_name, seats[0].player.full_name
    with database_down(app):
        page.get_by_label("Winning hand").fill(PLAIN_WIN)
        page.get_by_role("group", name="Winner").get_by_label(winner).check()
        page.get_by_role("group", name="Discarded by").get_by_label(discarder).check()
        page.get_by_role("button", name="Save hand").last.click()
        expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
        kept = kept_keys(page, owner)
        assert owner and kept == [key]
    assert stored(t) == []
    page.reload()  # the next try (a page load, the online event or the timer)
    expect(page.locator(".offline-queue")).to_contain_text("Hand 1 at table 1 was sent and saved.", timeout=15_000)
    assert stored(t) == [(1, seats[1].player_id, PLAIN_WIN)]
