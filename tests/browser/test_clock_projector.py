"""The clock in a real browser: the projector counts down, turns to the warning and to "Time", and shows the
server's time whatever the laptop's clock says, re-syncing when the network returns; the staff's buttons
reach the projector and the referee board updates itself."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD
from tournament.extensions import db
from tournament.models import ClockEvent
from tournament.models._common import utcnow
from tournament.services.play import clock, scoring
from tournament.services.play.scoring import HandData

pytestmark = pytest.mark.browser


def seconds_shown(text: str) -> int:
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def test_projector_counts_down_warns_and_shows_time(page, half_hour_session):
    t, organiser = half_hour_session
    # Started 14:57 ago: 15:03 left, three seconds before the warning.
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=15) + timedelta(seconds=3))
    commit_setup()
    page.goto(f"/t/{t.id}/sessions/1/clock?poll=1")
    digits = page.locator("[data-clock-digits]")
    expect(digits).to_have_text(re.compile(r"^15:0[0-3]$"))
    expect(page.locator("body")).not_to_have_class(re.compile("clock-warning"))
    first = seconds_shown(digits.inner_text())
    # It counts down by itself, and turns to the warning at 15:00.
    expect(digits).to_have_text(re.compile(r"^14:5\d$"), timeout=8000)
    assert seconds_shown(digits.inner_text()) < first
    expect(page.locator("body")).to_have_class(re.compile("clock-warning"))
    expect(page.locator("[data-clock-state]")).to_have_text("Last 15 minutes")

    # Move the start back on the server: 4 seconds remain. The page re-syncs, counts to zero, shows Time.
    db.session.execute(update(ClockEvent).values(at=utcnow() - timedelta(minutes=30) + timedelta(seconds=4)))
    db.session.commit()
    expect(digits).to_have_text(re.compile(r"^00:0[0-4]$"), timeout=5000)
    expect(digits).to_have_text("Time", timeout=8000)
    expect(page.locator("body")).to_have_class(re.compile("clock-time"))
    expect(page.locator("body")).not_to_have_class(re.compile("clock-warning"))
    expect(page.locator("[data-clock-state]")).to_have_text("Time")


def test_projector_ignores_a_wrong_laptop_clock_and_resyncs(page, half_hour_session):
    t, organiser = half_hour_session
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=10))  # 20:00 left
    clock.extend(t, 1, 300, organiser, table=2)  # table 2 has its own end, 5 minutes later
    commit_setup()
    # The laptop's clock is two hours fast: the page still shows the server's remaining time.
    page.clock.install(time=time.time() + 2 * 3600)
    page.goto(f"/t/{t.id}/sessions/1/clock?poll=2")
    digits = page.locator("[data-clock-digits]")
    expect(digits).to_have_text(re.compile(r"^(19:5\d|20:00)$"))
    extra = page.locator("[data-clock-extra] li")
    expect(extra).to_have_count(1)
    expect(extra).to_contain_text("Table 2")
    expect(extra.locator(".remaining")).to_have_text(re.compile(r"^(24:5\d|25:00)$"))

    # The network goes away and the laptop's clock jumps 6 minutes: counting locally, it runs ahead.
    page.route("**/clock.json", lambda route: route.abort())
    page.clock.fast_forward("06:00")
    expect(page.locator(".clock-root")).to_have_class(re.compile("clock-offline"), timeout=6000)
    expect(digits).to_have_text(re.compile(r"^1[34]:\d\d$"))
    expect(page.locator("body")).to_have_class(re.compile("clock-warning"))
    # The network returns: the next sync measures the new offset and the right time is back.
    page.unroute("**/clock.json")
    expect(digits).to_have_text(re.compile(r"^19:[45]\d$"), timeout=8000)
    expect(page.locator(".clock-root")).not_to_have_class(re.compile("clock-offline"))
    expect(page.locator("body")).not_to_have_class(re.compile("clock-warning"))


def test_staff_buttons_reach_the_projector_and_the_board_updates_itself(page, half_hour_session):
    t, organiser = half_hour_session
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1/clock")
    page.get_by_role("button", name="Start the clock").click()
    expect(page.get_by_text("The clock is running.")).to_be_visible()
    hall = page.context.new_page()
    hall.goto(f"/t/{t.id}/sessions/1/clock?poll=1")
    expect(hall.locator("[data-clock-state]")).to_have_text("Running")
    expect(hall.locator("[data-clock-digits]")).to_have_text(re.compile(r"^(29:5\d|30:00)$"))
    page.get_by_role("button", name="Pause").click()
    expect(page.get_by_text("The clock is paused.")).to_be_visible()
    expect(hall.locator("[data-clock-state]")).to_have_text("Paused", timeout=5000)

    # The referee board re-sorts itself: time called at table 2 with hands to enter puts it first.
    board = page.context.new_page()
    board.goto(f"/manage/tournaments/{t.id}/play/1/board?poll=1")
    rows = board.locator("[data-board-rows] > li")
    expect(rows.first).to_have_attribute("data-table", "1")
    clock.call_time(t, 1, 2, 3, organiser)
    commit_setup()
    expect(rows.first).to_have_attribute("data-table", "2", timeout=5000)
    expect(rows.first).to_contain_text("time called: 3 hands still to enter")
    for n in (1, 2, 3):
        scoring.enter_hand(t, 1, 2, HandData(number=n, result="draw"), None)
    commit_setup()
    expect(board.locator('[data-board-rows] > li[data-table="2"] [data-board-entered]')).to_have_text("3", timeout=5000)
    expect(board.locator("[data-board-rows] > li.needs-referee")).to_have_count(0)
