"""The referee's hand form through a network drop (issue 23), in chromium at 390 px: a hand typed offline is kept in
the browser and sent once when the network returns, also when the answer to the first sending is lost on the way;
a hand the server refuses comes back with the server's message to be corrected or discarded; and the service
worker's copies of staff pages are never shown to someone logged out."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PLAIN_WIN, commit_setup, enter_win, go_offline, kept_keys
from tests.helpers import NOT_WINNING
from tournament.extensions import db
from tournament.services.play import scoring
from tournament.services.play.scoring import HandData

pytestmark = pytest.mark.browser

def stored(t) -> list[tuple[int, int, str]]:
    db.session.expire_all()
    return [(h.number, h.winner_id, h.tiles) for h in scoring.table_hands(t, 1, 1)]


def test_a_hand_typed_offline_is_sent_once_when_the_network_returns(offline_queue_phone):
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url + "/hands/new?hand=1")
    expect(page.locator(".tile-picker")).to_be_visible()
    go_offline(context, page)
    enter_win(page, PLAIN_WIN, seats[2], seats[0])
    banner = page.locator(".offline-queue")
    expect(banner).to_contain_text("Hand 1 at table 1 is kept on this device.")
    expect(banner).to_contain_text("1 hand waiting to be sent: no network now")
    assert stored(t) == []
    context.set_offline(False)
    expect(banner).to_contain_text("Hand 1 at table 1 was sent and saved.", timeout=15_000)
    page.reload()  # a page load tries again: nothing is left to send
    expect(page.locator(".tile-picker")).to_be_visible()
    page.wait_for_timeout(500)
    assert stored(t) == [(1, seats[2].player_id, PLAIN_WIN)]


# Playwright sees the page's own requests only without a service worker in between.
@pytest.mark.parametrize("offline_queue_phone", [{"service_workers": "block"}], indirect=True,
                         ids=["service-workers-blocked"])
def test_a_lost_answer_is_sent_again_with_the_same_key_and_stored_once(offline_queue_phone):
    t, seats, table_url, context, page = offline_queue_phone
    sendings = []

    def lose_the_first_answer(route):
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch(max_redirects=0)  # the server has it ...
        sendings.append((route.request.post_data, answer.status, answer.headers.get("idempotent-replayed")))
        if len(sendings) == 1:
            route.abort("connectionreset")  # ... and the phone never hears back
        else:
            route.fulfill(response=answer)

    page.goto(table_url + "/hands/new?hand=1")
    expect(page.locator(".tile-picker")).to_be_visible()
    go_offline(context, page)
    enter_win(page, PLAIN_WIN, seats[1], seats[3])
    expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
    page.route("**/hands/new*", lose_the_first_answer)
    context.set_offline(False)
    for _ in range(50):  # the online event sends it
        if sendings:
            break
        page.wait_for_timeout(100)
    assert len(sendings) == 1 and sendings[0][1] == 302
    expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
    assert stored(t) == [(1, seats[1].player_id, PLAIN_WIN)]  # stored, the phone does not know it yet

    page.reload()  # the next try (a page load, the online event or the timer)
    expect(page.locator(".offline-queue")).to_contain_text("was sent and saved", timeout=15_000)
    assert len(sendings) == 2
    (first_body, _, _), (second_body, status, replayed) = sendings
    assert status == 302 and replayed == "true"  # the server knew the key: its first answer, nothing stored again
    key = [part for part in first_body.split("&") if part.startswith("idempotency_key=")]
    assert key and key[0] in second_body.split("&")
    assert stored(t) == [(1, seats[1].player_id, PLAIN_WIN)]


def test_a_sending_that_fails_on_the_way_is_kept_with_its_key(offline_queue_phone):
    """The phone believes it is online, the network fails as the hand goes: the service worker hands the form's
    fields, key unchanged (the server may have the hand already), to the queue."""
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url + "/hands/new?hand=1")
    # The worker registers after the page's load event; wait for it to take the page (no polling: the CSP
    # forbids the eval Playwright's wait_for_function uses).
    page.evaluate("() => navigator.serviceWorker.controller !== null || new Promise(done =>"
                  " navigator.serviceWorker.addEventListener('controllerchange', () => done(true)))")
    key = page.locator("input[name=idempotency_key]").input_value()
    owner = page.locator("html").get_attribute("data-offline-owner")  # the worker's page names none: the form does
    go_offline(context, page)
    page.evaluate("Object.defineProperty(navigator, 'onLine', {get: () => true})")  # wifi up, no way through
    enter_win(page, PLAIN_WIN, seats[3], seats[2])
    expect(page.get_by_role("heading", name="No network")).to_be_visible()
    banner = page.locator(".offline-queue")
    expect(banner).to_contain_text("Hand 1 at table 1 is kept on this device.")
    expect(banner).to_contain_text("1 hand waiting to be sent")
    assert kept_keys(page, owner) == [key]
    assert stored(t) == []
    context.set_offline(False)
    expect(banner).to_contain_text("Hand 1 at table 1 was sent and saved.", timeout=15_000)
    assert stored(t) == [(1, seats[3].player_id, PLAIN_WIN)]


def test_a_refused_hand_comes_back_to_be_corrected_or_discarded(offline_queue_phone):
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url + "/hands/new?hand=1")
    expect(page.locator(".tile-picker")).to_be_visible()
    go_offline(context, page)
    enter_win(page, NOT_WINNING, seats[2], seats[0])  # the engine refuses it once it is sent
    enter_win(page, NOT_WINNING, seats[3], seats[1])
    banner = page.locator(".offline-queue")
    expect(banner).to_contain_text("2 hands waiting to be sent")
    context.set_offline(False)
    refused = banner.locator("[data-offline-refused] li")
    expect(refused).to_have_count(2, timeout=15_000)
    expect(banner).to_contain_text("2 hands not saved")
    expect(refused.first).to_contain_text("Hand 1 at table 1 was not saved:")
    expect(refused.first).to_contain_text("Not a valid win")  # the server's own words
    assert stored(t) == []

    refused.nth(1).get_by_role("button", name="Discard it").click()
    expect(refused).to_have_count(1)
    refused.first.get_by_role("link", name="Correct it").click()
    expect(page.get_by_label("Winning hand")).to_have_value(NOT_WINNING)
    expect(page.get_by_label("Hand", exact=True)).to_have_value("1")
    expect(page.get_by_role("group", name="Winner").get_by_label(seats[2].player.full_name)).to_be_checked()
    page.get_by_label("Winning hand").fill(PLAIN_WIN)
    page.get_by_role("button", name="Save hand").last.click()
    expect(page.locator(".flashes")).to_contain_text("Hand 1 saved")
    expect(page.locator(".offline-queue")).to_be_hidden()  # nothing kept any more
    assert stored(t) == [(1, seats[2].player_id, PLAIN_WIN)]


def test_a_hand_entered_meanwhile_by_someone_else_comes_back_as_a_conflict(offline_queue_phone, organiser):
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url + "/hands/new?hand=1")
    expect(page.locator(".tile-picker")).to_be_visible()
    go_offline(context, page)
    enter_win(page, PLAIN_WIN, seats[2], seats[0])
    expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), organiser)  # another referee, online
    commit_setup()
    context.set_offline(False)
    refused = page.locator(".offline-queue [data-offline-refused] li")
    expect(refused).to_have_count(1, timeout=15_000)
    expect(refused).to_contain_text("Hand 1 at table 1 was not saved: Nothing was saved: hand 1 is already entered")
    assert [(h.number, h.result) for h in scoring.table_hands(t, 1, 1)] == [(1, "draw")]


def test_the_worker_never_shows_a_kept_staff_page_to_someone_logged_out(offline_queue_phone):
    t, seats, table_url, context, page = offline_queue_phone
    names = [sp.player.full_name for sp in seats]
    page.goto(table_url)
    page.evaluate("navigator.serviceWorker.ready")
    page.goto(table_url + "/hands/new?hand=1")  # through the worker now: kept
    page.goto(table_url)
    # Logged in, the kept copy does its job offline.
    context.set_offline(True)
    page.goto(table_url + "/hands/new?hand=1")
    expect(page.get_by_role("heading", name="Enter a hand")).to_be_visible()
    expect(page.get_by_text(names[0]).first).to_be_visible()
    expect(page.locator("[data-offline-copy]")).to_contain_text("It may be out of date.")
    context.set_offline(False)

    page.goto(table_url)
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    # the worker active again before the network goes (on a loaded machine it may still be starting up after the
    # logout's navigation; a navigation it does not take would be the browser's own offline error)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    context.set_offline(True)
    for url in (table_url, table_url + "/hands/new?hand=1", table_url + "/hands/new"):
        page.goto(url)
        expect(page.get_by_role("heading", name="No network")).to_be_visible()
        for name in names:
            expect(page.get_by_text(name)).to_have_count(0)
