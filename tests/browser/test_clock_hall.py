"""The hall's one clock address for the weekend (/t/<id>/clock, issue 32 item 6), in chromium: the projector is
pointed once; it shows session 1's clock, and when session 1 is finished (its clock stops), the next session and
its start; when session 2 is started it shows session 2's clock, counting, with no one touching the projector."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import commit_setup
from tournament.models._common import utcnow
from tournament.services.play import clock
from tournament.services.seating import draws, lifecycle, schedule

pytestmark = pytest.mark.browser


def test_the_hall_clock_follows_the_sessions(page, half_hour_session):
    t, organiser = half_hour_session
    t.session_count = 2
    schedule.set_planned_starts(t, {2: datetime(2030, 5, 4, 14, 30)})
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=10))  # 20:00 left
    commit_setup()
    page.goto(f"/t/{t.id}/clock?poll=1")
    digits = page.locator("[data-clock-digits]")
    expect(digits).to_have_text(re.compile(r"^(19:5\d|20:00)$"))
    expect(page.locator("h1")).to_contain_text("Session 1")

    # Session 1 finished: its clock stops, the hall shows when session 2 starts.
    lifecycle.finish_session(t, 1, force=True)
    commit_setup()
    expect(page.get_by_test_id("next-session")).to_have_text("Session 2", timeout=8000)
    expect(page.get_by_test_id("next-start")).to_contain_text("14:30")
    expect(digits).to_have_count(0)

    # Session 2 drawn and started, its clock too: the same page shows it, counting down.
    draws.draw_next(t, seed=2)
    lifecycle.start_session(t, 2)
    clock.start(t, 2, organiser, now=utcnow() - timedelta(seconds=5))
    commit_setup()
    expect(page.locator("h1")).to_contain_text("Session 2", timeout=8000)
    expect(digits).to_have_text(re.compile(r"^29:[45]\d$"))
    first = digits.inner_text()
    expect(digits).not_to_have_text(first, timeout=4000)  # counting
    assert page.url.endswith(f"/t/{t.id}/clock?poll=1")
