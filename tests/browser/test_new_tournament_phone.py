"""The new-tournament form and the hand checker on a 390 px phone (issue 32 item 11): no control cut off in any
language (every choice of every select fits it; the long ones are radio buttons that wrap), the time zone from the
browser when the organiser has no earlier tournament, the language from the account, the rules help a page the
app serves; the checker's tile rows inside the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in, phone_context
from tests.helpers import PASSWORD
from tournament.extensions import db

pytestmark = pytest.mark.browser

CUT = """() => {
  // Controls past the screen's edge, and selects with a choice wider than the select (a copy of the select holding
  // only that choice, sized to its content, measures what it needs).
  const out = [];
  for (const el of document.querySelectorAll('main select, main input, main button, main textarea, main label')) {
    if (el.type === 'hidden' || !el.offsetParent) continue;
    const box = el.getBoundingClientRect();
    if (box.right > window.innerWidth + 0.5) out.push('beyond: ' + (el.name || el.textContent.trim()) + ' ' + Math.round(box.right));
    if (el.tagName !== 'SELECT') continue;
    for (const option of el.options) {
      const copy = el.cloneNode(false);
      copy.style.width = 'max-content'; copy.style.maxWidth = 'none'; copy.style.position = 'absolute';
      copy.appendChild(option.cloneNode(true));
      el.parentNode.appendChild(copy);
      const need = copy.getBoundingClientRect().width;
      copy.remove();
      if (need > box.width + 0.5) out.push('cut: ' + el.name + ': ' + option.textContent + ' ' + Math.round(need) + '>' + Math.round(box.width));
    }
  }
  return out;
}"""


@pytest.mark.parametrize("lang", ["fi", "sv", "es", "zh"])
def test_the_new_tournament_form_fits_a_phone(browser, live_server, organiser, lang):
    organiser.language = lang
    db.session.commit()
    context, page = phone_context(browser, live_server, timezone_id="Europe/Helsinki")
    try:
        log_in(page, organiser.email, PASSWORD)
        page.goto("/manage/tournaments/new")
        page.wait_for_load_state("load")
        width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        assert page.evaluate(CUT) == []
        # the account's language, the browser's zone (no earlier tournament to take it from)
        assert page.locator("select[name=language]").input_value() == lang
        assert page.locator("select[name=time_zone]").input_value() == "Europe/Helsinki"
        # the rules help: a page the app serves
        page.locator("#penalties_affect_table_points-hint a").click()
        expect(page.get_by_role("heading", name="Penalties and table points (a setting)")).to_be_visible()
        assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    finally:
        context.close()


def test_a_second_tournament_starts_in_the_zone_of_the_first(browser, live_server, organiser, tournament):
    tournament.time_zone = "America/Argentina/ComodRivadavia"  # the longest name: it fits, too
    db.session.commit()
    context, page = phone_context(browser, live_server, timezone_id="Asia/Tokyo")
    try:
        log_in(page, organiser.email, PASSWORD)
        page.goto("/manage/tournaments/new")
        page.wait_for_load_state("load")
        assert page.locator("select[name=time_zone]").input_value() == "America/Argentina/ComodRivadavia"
        assert page.evaluate(CUT) == []
    finally:
        context.close()


@pytest.mark.parametrize("hand", ["19m19p19s1234567z1m", "[EEE]123456789m5p5p", "[1111m][2222p][3333s]{4444s}5p5p"])
def test_the_checker_s_tiles_fit_a_phone(browser, live_server, hand):
    context, page = phone_context(browser, live_server)
    try:
        page.goto(f"/check?lang=fi&hand={hand}&self_drawn=1")
        page.wait_for_load_state("networkidle")
        width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], width
        boxes = page.evaluate("""Array.from(document.querySelectorAll('.table-wrap, .picker-hand, .tile-set'))
            .filter(e => e.offsetParent).map(e => [e.className, e.scrollWidth, e.clientWidth,
                                                   Math.round(e.getBoundingClientRect().right)])""")
        assert boxes and all(inner <= box + 1 and right <= 390 for _, inner, box, right in boxes), boxes
    finally:
        context.close()
