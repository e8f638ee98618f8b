"""Every page a referee or a player carries fits a 390 px phone (issue 32 item 1), in Finnish and Chinese, and a
laptop (1280 px): the referee board, the staff clock, the table pages, the hand forms (new, a correction, after a
refused save; the player's too), the printing page and a player's page with its schedule. On each: the page does
not scroll sideways (the document's scrollWidth within the window), no element is cut off (a box narrower than its
content, or reaching past the screen's edge), no word is broken inside across two lines (a break falls at a space
or a hyphen; Chinese breaks between any two characters) and the green header spans the screen.

The board on a phone: one card per table, the disputed table first, the hand, who disputed it and why, and
"Stands as entered" / "Correct hand 1" on the card itself, which work from there."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DISPUTE_REASON, commit_setup, log_in, phone_context
from tests.helpers import NOT_WINNING, PASSWORD

pytestmark = pytest.mark.browser
SHOTS = os.environ.get("PHONE_SHOTS")

# What is wrong with the page as drawn: one line per problem (the first few of each kind).
PROBLEMS = """(width) => {
    // width: the screen's (a phone's browser widens its layout to a page wider than the screen)
    const out = [];
    const doc = document.scrollingElement;
    if (doc.scrollWidth > width) out.push('page ' + doc.scrollWidth + ' px wide in ' + width);
    const header = document.querySelector('.site-header').getBoundingClientRect();
    if (Math.abs(header.left) > 0.5 || Math.abs(header.width - width) > 0.5)
        out.push('header ' + Math.round(header.left) + '..' + Math.round(header.right) + ' in ' + width);
    const shown = el => {
        const box = el.getBoundingClientRect();
        if (box.width < 2 || box.height < 2) return null;  // the visually hidden texts, empty boxes
        for (let e = el; e; e = e.parentElement) {
            const style = getComputedStyle(e);
            if (style.display === 'none' || style.visibility === 'hidden') return null;
            if (e.tagName === 'DETAILS' && !e.open && e !== el && !el.closest('summary')) return null;
        }
        return box;
    };
    const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
        (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '') +
        ' "' + (el.textContent || el.value || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"';
    let beyond = 0, clipped = 0;
    for (const el of document.querySelectorAll('body *')) {
        if (['SCRIPT', 'STYLE', 'OPTION', 'BR'].includes(el.tagName)) continue;
        const box = shown(el);
        if (!box) continue;
        if (box.right > width + 0.5 && beyond++ < 4) out.push('beyond the screen: ' + name(el) + ' ' + Math.round(box.right));
        const style = getComputedStyle(el);
        const boxed = style.overflowX !== 'visible' || ['TD', 'TH', 'INPUT', 'SELECT', 'BUTTON'].includes(el.tagName);
        if (boxed && el.tagName !== 'HTML' && el.tagName !== 'BODY' && el.scrollWidth > el.clientWidth + 1 &&
                clipped++ < 4)
            out.push('cut off: ' + name(el) + ' ' + el.scrollWidth + '>' + el.clientWidth);
    }
    // Words broken inside across two lines: a line starting in a word the line above did not end.
    const cjk = /[\\u2e80-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff\\uff00-\\uffef]/;
    const letter = /[\\p{L}\\p{N}]/u;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    let broken = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        if (!parent || ['SCRIPT', 'STYLE', 'OPTION', 'TEXTAREA'].includes(parent.tagName) || !shown(parent)) continue;
        const text = node.data;
        let lastTop = null;
        for (let i = 0; i < text.length; i++) {
            range.setStart(node, i); range.setEnd(node, i + 1);
            const rects = range.getClientRects();
            if (!rects.length) continue;
            const top = rects[0].top;
            if (lastTop !== null && top > lastTop + 2) {
                const before = text[i - 1], here = text[i];
                if (letter.test(before) && letter.test(here) && !cjk.test(before) && !cjk.test(here) && broken++ < 4)
                    out.push('word broken: ' + text.slice(Math.max(0, i - 15), i) + ' | ' + text.slice(i, i + 15));
            }
            lastTop = top;
        }
    }
    return out;
}"""


def problems(page, url: str | None = None) -> list[str]:
    """What is wrong with the page at `url` (None: the page as it is)."""
    if url is not None:
        answer = page.goto(url)
        assert answer.status == 200, (url, answer.status)
        page.wait_for_load_state("load")
    if SHOTS:  # PHONE_SHOTS=folder: a screenshot of each page, to look at
        name = re.sub(r"\W+", "-", page.url.split("/", 3)[-1])[:80]
        page.screenshot(path=f"{SHOTS}/{page.viewport_size['width']}-{page.locator('html').get_attribute('lang')}-"
                             f"{name}.png", full_page=True,
                        clip={"x": 0, "y": 0, "width": page.viewport_size["width"] + 100, "height": 1400})
    return page.evaluate(PROBLEMS, page.viewport_size["width"])


def width(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def staff_pages(day) -> dict[str, str]:
    staff = day.staff
    return {
        "board": f"{staff}/board",
        "clock": f"{staff}/clock",
        "table 1": f"{staff}/tables/1",
        "table 2": f"{staff}/tables/2",
        "hand form": f"{staff}/tables/1/hands/new",
        "correction": f"{staff}/tables/1/hands/1/edit",
        "totals form": f"{staff}/tables/4/totals",
        "printing": f"/manage/tournaments/{day.t.id}/exports",
    }


def refused_save(page, url: str) -> None:
    """The hand form saved with a hand that is no win: the page again, with the refusal."""
    page.goto(url)
    page.locator("input[name=hand]").fill(NOT_WINNING)
    page.locator("input[name=winner_id]").first.check()
    page.locator("input[name=discarder_id]").nth(1).check()
    page.locator("form.hand-form button[type=submit]:not([name])").last.click()
    expect(page.locator(".refusal")).to_be_visible()


def screen_context(browser, live_server, screen: int):
    if screen == 390:
        return phone_context(browser, live_server)
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    return context, context.new_page()


def board_cards(page, day) -> None:
    """The board: a card per table, the disputed table first with the hand, who disputed it and why, and the two
    ways to settle it on the card, inside the screen."""
    page.goto(f"{day.staff}/board")
    cards = page.locator("[data-board-rows] > li")
    expect(cards).to_have_count(4)
    first = cards.first
    expect(first).to_have_attribute("data-table", "2")
    expect(first).to_contain_text(DISPUTE_REASON)
    expect(first).to_contain_text(day.disputer.full_name)
    screen = page.viewport_size["width"]
    for button in (first.locator("form button[type=submit]"), first.locator("a[href*='/hands/1/edit']")):
        expect(button).to_be_visible()
        box = button.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= screen, box


@pytest.mark.parametrize("lang", ["fi", "zh"])
@pytest.mark.parametrize("screen", [390, 1280])
def test_the_pages_of_the_day_fit_the_screen(browser, live_server, phone_day, organiser, lang, screen):
    day = phone_day
    commit_setup()
    found = {}
    context, page = screen_context(browser, live_server, screen)
    try:  # the referee's (an organiser's account: the printing page is theirs)
        log_in(page, organiser.email, PASSWORD)
        page.goto(f"/manage?lang={lang}")
        for label, url in staff_pages(day).items():
            found[label] = (problems(page, url), width(page))
        refused_save(page, staff_pages(day)["hand form"])
        found["hand form, refused"] = (problems(page), width(page))
        board_cards(page, day)
    finally:
        context.close()
    context, page = screen_context(browser, live_server, screen)
    try:  # a player's, with no account
        page.goto(f"{day.link}?lang={lang}")
        for label, url in {"player's page": day.link, "player's hand form": day.link + "/hands/new"}.items():
            found[label] = (problems(page, url), width(page))
        refused_save(page, day.link + "/hands/new")
        found["player's hand form, refused"] = (problems(page), width(page))
    finally:
        context.close()
    print(f"\nwidths at {screen} px in {lang}:", {label: w for label, (_, w) in found.items()})
    bad = {label: lines for label, (lines, _) in found.items() if lines}
    assert not bad, "\n".join(f"{label}: {lines}" for label, lines in bad.items())
