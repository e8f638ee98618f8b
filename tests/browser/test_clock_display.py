"""The hall's clock as people see it (issue 21, items 2 and 3): the projector's digits fit the screen with an
hour or more left, a dark theme for the projector that the screen remembers, and the staff clock page showing
the projector's time when extra time was given to every table."""

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

# The text's own box, not the paragraph's (a block as wide as its parent whatever the digits do).
TEXT_BOX = """el => { const r = document.createRange(); r.selectNodeContents(el); const b = r.getBoundingClientRect();
  return {left: b.left, right: b.right, top: b.top, bottom: b.bottom, width: innerWidth, height: innerHeight}; }"""


def seconds_shown(text: str) -> int:
    parts = [int(p) for p in text.split(":")]
    return sum(p * 60 ** i for i, p in enumerate(reversed(parts)))


@pytest.mark.parametrize("width,height", [(1920, 1080), (1280, 800), (1024, 768), (800, 600)])
def test_projector_digits_fit_the_screen_with_hours_left(browser, live_server, two_hour_session, width, height):
    t, _ = two_hour_session
    context = browser.new_context(base_url=live_server, viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"/t/{t.id}/sessions/1/clock?poll=2")
        digits = page.locator("[data-clock-digits]")
        expect(digits).to_have_text(re.compile(r"^1:59:[45]\d$"))
        box = digits.evaluate(TEXT_BOX)
        assert box["left"] >= 0 and box["right"] <= box["width"], box
        assert box["top"] >= 0 and box["bottom"] <= box["height"], box
        # Still a hall-sized figure: at least a third of the screen's width.
        assert box["right"] - box["left"] >= width / 3, box
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
    finally:
        context.close()


def test_minutes_only_fill_more_of_the_screen_and_fit(browser, live_server, tournament, organiser):
    tournament.session_minutes = 60
    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    clock.start(tournament, 1, organiser, now=utcnow() - timedelta(seconds=2))  # 59:58 left
    commit_setup()
    context = browser.new_context(base_url=live_server, viewport={"width": 800, "height": 600})
    page = context.new_page()
    try:
        page.goto(f"/t/{tournament.id}/sessions/1/clock")
        digits = page.locator("[data-clock-digits]")
        expect(digits).to_have_text(re.compile(r"^59:5\d$"))
        box = digits.evaluate(TEXT_BOX)
        assert box["left"] >= 0 and box["right"] <= box["width"], box
    finally:
        context.close()


def test_dark_projector_theme_is_remembered_and_toggled(page, two_hour_session):
    t, _ = two_hour_session
    page.goto(f"/t/{t.id}/sessions/1/clock?theme=dark")
    body = page.locator("body")
    expect(body).to_have_class(re.compile(r"\btheme-dark\b"))
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
    digits_colour = page.locator("[data-clock-digits]").evaluate("el => getComputedStyle(el).color")
    assert digits_colour != "rgb(29, 37, 33)"  # not the light theme's ink on black
    # The screen remembers it without the parameter.
    page.goto(f"/t/{t.id}/sessions/1/clock")
    expect(body).to_have_class(re.compile(r"\btheme-dark\b"))
    toggle = page.get_by_role("button", name="Dark screen")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(body).not_to_have_class(re.compile(r"\btheme-dark\b"))
    page.reload()
    expect(body).not_to_have_class(re.compile(r"\btheme-dark\b"))


def test_staff_clock_shows_the_projectors_time_with_extra_time_for_all(page, tournament, organiser):
    tournament.session_minutes = 30
    tournament.warning_minutes = 5
    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    clock.start(tournament, 1, organiser, now=utcnow() - timedelta(minutes=10))  # 20:00 left
    clock.extend(tournament, 1, 300, organiser)  # 5 minutes for every table: 25:00
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/t/{tournament.id}/sessions/1/clock?poll=1")
    hall = seconds_shown(page.locator("[data-clock-digits]").inner_text())
    assert 24 * 60 + 50 <= hall <= 25 * 60, hall
    staff = page.context.new_page()
    response = staff.goto(f"/manage/tournaments/{tournament.id}/play/1/clock?poll=1")
    # As drawn by the server, and as counted by clock.js after its first sync.
    served = re.search(r"data-clock-digits[^>]*>([\d:]+)<", response.text()).group(1)
    assert abs(seconds_shown(served) - hall) <= 3, (served, hall)
    digits = staff.locator("[data-clock-digits]")
    staff.wait_for_timeout(1500)
    assert abs(seconds_shown(digits.inner_text()) - hall) <= 4, (digits.inner_text(), hall)
    # The table rows say the same.
    both = staff.evaluate("""[document.querySelector('[data-clock-digits]').textContent,
                              document.querySelector('[data-table-remaining="1"]').textContent]""")
    assert abs(seconds_shown(both[0]) - seconds_shown(both[1])) <= 1, both
    # And the referee board.
    staff.goto(f"/manage/tournaments/{tournament.id}/play/1/board?poll=1")
    staff.wait_for_timeout(1500)
    # Against the projector as it reads now (both count down): a loaded machine's navigation takes seconds.
    board = seconds_shown(staff.locator("[data-clock-digits]").inner_text())
    projector = seconds_shown(page.locator("[data-clock-digits]").inner_text())
    assert abs(board - projector) <= 3, (board, projector)
