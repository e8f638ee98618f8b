"""The projector clock in a real browser: it counts down, turns to the warning and to "Time", and shows the
server's time whatever the laptop's clock says, re-syncing when the network returns."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from tests.browser.conftest import commit_setup
from tests.helpers import add_players
from tournament.extensions import db
from tournament.models import ClockEvent
from tournament.models._common import utcnow
from tournament.services import clock, draws, play

pytestmark = pytest.mark.browser


@pytest.fixture
def half_hour_session(tournament, organiser):
    """Session 1 in play; 30-minute sessions with the warning 15 minutes before the end."""
    tournament.session_minutes = 30
    tournament.warning_minutes = 15
    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    play.start_session(tournament, 1)
    return tournament, organiser


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
