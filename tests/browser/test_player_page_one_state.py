"""One state on a player's page (issue 32 item 7), in chromium with the network going off and on
(context.set_offline): hands entered offline on the player's phone, the player's page opened offline (the
service worker's kept copy), then the network back. Before, the page then showed "sent and saved", the copy's
"server not answering, old copy" and the English offline line at once, with a stale "Enter hand 2" button,
until reloaded. Now, once the queue is sent, the page takes the server's state once: the hands sent listed, the
next hand to enter, the copy's note gone; and at every step one status line at a time. The same for a hand form left
alone (the referee's: the form for the next hand), and the service worker's page for a hand whose sending failed
on the way speaks the form's language."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PLAIN_WIN, commit_setup, go_offline, phone_context
from tournament.models import EntryMode
from tournament.services.people import player_links
from tournament.services.play import session as play

pytestmark = pytest.mark.browser

# The status lines a player's page can show: the offline queue's banner, the kept copy's note, its own line.
STATUS_LINES = """() => Array.from(document.querySelectorAll(
        '.offline-queue [data-offline-status], [data-offline-copy], #player-page-status'))
    .filter(el => el.offsetParent !== null && el.textContent.trim())
    .map(el => el.textContent.trim())"""


def status_lines(page) -> list[str]:
    return page.evaluate(STATUS_LINES)


def enter_win(page, winner, discarder) -> None:
    page.get_by_label("Winning hand").fill(PLAIN_WIN)
    page.get_by_role("group", name="Winner").get_by_label(winner.player.full_name).check()
    page.get_by_role("group", name="Discarded by").get_by_label(discarder.player.full_name).check()
    page.get_by_role("button", name="Save hand").last.click()


@pytest.fixture
def east_phone(browser, live_server, in_play):
    """Players' entry; East of table 1 on their phone: (page, context, the link, the table's seats)."""
    in_play.entry_mode = EntryMode.PLAYERS
    seats = play.table_players(play.get_session(in_play, 1), 1)
    link = "/p/" + player_links.token_of(player_links.link_of(in_play, seats[0].player_id))
    commit_setup()
    context, page = phone_context(browser, live_server)
    yield page, context, link, seats
    context.close()


def test_after_the_network_returns_the_page_shows_the_servers_state_once(east_phone):
    page, context, link, (east, south, west, north) = east_phone
    page.goto(link)
    page.evaluate("navigator.serviceWorker.ready")  # the worker keeps the page and the hand form
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.get_by_role("heading", name="Enter a hand")).to_be_visible()

    go_offline(context, page)
    enter_win(page, east, south)
    expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
    enter_win(page, north, west)
    expect(page.locator(".offline-queue")).to_contain_text("2 hands waiting to be sent")

    # The player's page offline: the worker's copy, drawn before the hands, with its stale "Enter hand 1".
    page.goto(link)
    expect(page.get_by_role("heading", name=east.player.full_name)).to_be_visible()
    expect(page.locator("[data-offline-copy]")).to_have_count(1)
    expect(page.locator(".offline-queue")).to_contain_text("2 hands waiting to be sent: no network now")
    assert status_lines(page) == [page.locator(".offline-queue [data-offline-status]").inner_text()]

    context.set_offline(False)
    expect(page.locator(".offline-queue")).to_contain_text("Hand 1, Hand 2 were sent and saved", timeout=15_000)
    # The server's state: the copy's note gone, both hands listed, the next hand to enter is 3.
    expect(page.locator("[data-offline-copy]")).to_have_count(0)
    expect(page.locator("#hand-1")).to_be_visible()
    expect(page.locator("#hand-2")).to_be_visible()
    expect(page.get_by_role("link", name="Enter hand 3")).to_be_visible()
    expect(page.get_by_role("link", name="Enter hand 2")).to_have_count(0)
    assert status_lines(page) == ["Hand 1, Hand 2 were sent and saved."]
    # Taken once: the page stays as it is (no reload after reload).
    page.evaluate("window.__still = true")
    page.wait_for_timeout(1500)
    assert page.evaluate("window.__still === true")


def test_a_page_without_a_connection_says_so_once_and_clears_it(east_phone):
    page, context, link, _ = east_phone
    page.goto(link)
    page.locator("html[data-offline-ready]").wait_for(state="attached")
    context.set_offline(True)
    expect(page.locator("#player-page-status")).to_have_text(
        "No connection to the server just now: this page will update when it is back.")
    assert len(status_lines(page)) == 1
    context.set_offline(False)
    expect(page.locator("#player-page-status")).to_be_hidden()
    assert status_lines(page) == []
    expect(page.get_by_role("link", name="Enter hand 1")).to_be_visible()


def test_a_hand_whose_sending_fails_on_the_way_is_kept_in_the_forms_language(east_phone):
    """The phone believes it is online, the network fails as the hand goes: the service worker's page says so in
    the language of the form it came from (its kept copy's words), and the queue's lines on it too."""
    import html
    import json

    page, context, link, (east, south, _, _) = east_phone
    page.goto(link + "/hands/new?lang=fi")
    page.evaluate("() => navigator.serviceWorker.controller !== null || new Promise(done =>"
                  " navigator.serviceWorker.addEventListener('controllerchange', () => done(true)))")
    page.reload()  # answered through the worker: it keeps the form, words and all
    texts = json.loads(html.unescape(page.locator("html").get_attribute("data-offline-texts")))
    go_offline(context, page)
    page.evaluate("Object.defineProperty(navigator, 'onLine', {get: () => true})")  # wifi up, no way through
    page.locator("input[name=hand]").fill(PLAIN_WIN)
    page.locator(f"input[name=winner_id][value='{east.player_id}']").check()
    page.locator(f"input[name=discarder_id][value='{south.player_id}']").check()
    page.locator(".entry-bar button[type=submit]").click()
    expect(page.locator("h1")).to_have_text(texts.get("no_network", "No network"))
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    expect(page.locator(".offline-queue")).to_contain_text("Käsi 1 on tallennettu tälle laitteelle.")
    context.set_offline(False)
    expect(page.locator(".offline-queue")).to_contain_text("lähetettiin ja tallennettiin", timeout=15_000)


def test_the_referees_hand_form_left_alone_comes_back_for_the_next_hand(offline_queue_phone):
    """A referee's form that kept a hand offline and was not touched since: once the hand is sent, the form for the
    next hand to enter as the server has it, with the sent line alone (not ?hand=1's "already entered")."""
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url + "/hands/new?hand=1")
    go_offline(context, page)
    page.get_by_label("Winning hand").fill(PLAIN_WIN)
    page.get_by_role("group", name="Winner").get_by_label(seats[0].player.full_name).check()
    page.get_by_role("group", name="Discarded by").get_by_label(seats[1].player.full_name).check()
    page.get_by_role("button", name="Save hand").last.click()
    expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
    context.set_offline(False)
    expect(page.locator(".offline-queue")).to_contain_text("Hand 1 at table 1 was sent and saved.", timeout=15_000)
    page.wait_for_url(f"**{table_url}/hands/new")
    expect(page.get_by_label("Hand", exact=True)).to_have_value("2")
    expect(page.locator("[data-entry=notice]")).to_have_count(0)
