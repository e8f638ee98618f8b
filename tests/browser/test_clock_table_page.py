"""The table page's clock after time is called there (issue 21 item 3): it says "Time called during hand N", not
"Running", while the other tables' pages keep counting; after End every table's page says so."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD, add_players
from tournament.models._common import utcnow
from tournament.services.play import clock
from tournament.services.seating import draws, lifecycle

pytestmark = pytest.mark.browser


def test_table_page_clock_says_time_called_not_running(page, tournament, organiser):
    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    clock.start(tournament, 1, organiser, now=utcnow() - timedelta(minutes=10))
    clock.call_time(tournament, 1, 1, 3, organiser)
    commit_setup()
    log_in(page, organiser.email, PASSWORD)
    base = f"/manage/tournaments/{tournament.id}/play/1/tables"

    page.goto(f"{base}/2")
    state = page.locator(".table-clock [data-clock-state]")
    expect(state).to_have_text("Running")  # clock.js has synced: the other table still plays
    expect(page.locator(".table-clock [data-clock-digits]")).to_have_text(re.compile(r"^[\d:]+$"))

    page.goto(f"{base}/1")
    expect(state).to_have_text("Time called during hand 3")
    expect(page.locator(".table-clock [data-clock-digits]")).to_have_text("Time")
    page.wait_for_timeout(1200)  # a tick later it has not gone back to counting
    expect(state).to_have_text("Time called during hand 3")

    clock.end(tournament, 1, organiser)  # End: table 2's hand in progress is its first
    commit_setup()
    page.goto(f"{base}/2")
    expect(state).to_have_text("Time called during hand 1")
