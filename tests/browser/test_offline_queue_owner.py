"""The offline queue belongs to who made it (issue 31), in chromium on one phone shared by two accounts: a referee
who logs out with hands not sent is asked to send or discard them, and either way none is left; hands left behind
all the same (the logout page never seen) are neither sent nor shown by the next account's pages, only by their
owner's; the service worker's copies of staff pages go at any logout, "log out everywhere" included; and a player's
link page never sends another player's kept hands."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    PLAIN_WIN,
    commit_setup,
    enter_win,
    go_offline,
    kept_keys,
    log_in,
    phone_context,
)
from tests.browser.test_players_phones import enter_win as enter_players_win
from tests.browser.test_players_phones import hands_at, players_tournament
from tests.helpers import NOT_WINNING, PASSWORD, Api, token_for
from tournament.extensions import db
from tournament.services.people.tournaments import add_staff
from tournament.services.play import scoring
from tournament.services.play import session as play

pytestmark = pytest.mark.browser


def shared_phone(browser, live_server, t, referee):
    """The referee on the tournament's staff too, and a phone's browser context: (table 1's seats, the table page's
    url, context, page)."""
    add_staff(t, referee.email, "referee")
    commit_setup()
    context, page = phone_context(browser, live_server)
    return play.table_players(play.get_session(t, 1), 1), f"/manage/tournaments/{t.id}/play/1/tables/1", context, page


def stored(t) -> list[tuple[int, int, str, int | None]]:
    """Table 1's hands: (number, winner, tiles, the account that entered it)."""
    db.session.expire_all()
    return [(h.number, h.winner_id, h.tiles, h.entered_by_id) for h in scoring.table_hands(t, 1, 1)]


def back_online_elsewhere(context, page):
    """The tab closed with no network and the network back: no table page (which would send what is kept at once)
    open when it returns, not even one kept frozen for the back button. The new tab on the home page."""
    page.close()
    context.set_offline(False)
    page = context.new_page()
    page.goto("/")
    return page


def keep_offline(context, page, url: str, hand: str, winner, discarder):
    """A hand saved on the hand form with no network, kept on the phone, then the network back elsewhere
    (back_online_elsewhere): (the hand form's owner, the new tab)."""
    page.goto(url)
    expect(page.locator(".tile-picker")).to_be_visible()
    owner = page.locator("html").get_attribute("data-offline-owner")
    go_offline(context, page)
    enter_win(page, hand, winner, discarder)
    expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
    return owner, back_online_elsewhere(context, page)


def log_out_with_hands_not_sent(page) -> None:
    page.goto("/manage")
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("heading", name="Log out")).to_be_visible()
    expect(page.locator("[data-offline-logout-status]")).to_have_text("1 hand not sent: send it now, or discard it.")
    expect(page.get_by_role("button", name="Send now")).to_be_visible()
    expect(page.get_by_role("button", name="Discard", exact=True)).to_be_visible()
    expect(page.locator("[data-offline-logout-plain]")).to_be_hidden()  # a choice first


def no_kept_staff_page(context, page, table_url: str, seats) -> None:
    """Offline, the service worker shows none of the table's pages kept for the account logged out."""
    context.set_offline(True)
    for url in (table_url, table_url + "/hands/new?hand=1"):
        page.goto(url)
        expect(page.get_by_role("heading", name="No network")).to_be_visible()
        for seated in seats:
            expect(page.get_by_text(seated.player.full_name)).to_have_count(0)
    context.set_offline(False)


def nothing_kept_shown(page, url: str) -> None:
    """The page of `url` with its offline queue running (it sends what it has at once), and nothing of it shown."""
    page.goto(url)
    page.locator("html[data-offline-ready]").wait_for(state="attached")
    page.wait_for_timeout(1500)
    expect(page.locator(".offline-queue")).to_be_hidden()
    expect(page.get_by_role("link", name="Correct it")).to_have_count(0)


def test_logging_out_with_a_hand_not_sent_offers_to_discard_it_and_the_next_account_gets_nothing(
        browser, live_server, in_play, organiser, referee):
    t = in_play
    seats, table_url, context, page = shared_phone(browser, live_server, t, referee)
    try:
        log_in(page, referee.email, PASSWORD)
        owner, page = keep_offline(context, page, table_url + "/hands/new?hand=1", PLAIN_WIN, seats[2], seats[0])
        log_out_with_hands_not_sent(page)
        page.get_by_role("button", name="Discard", exact=True).click()
        expect(page.get_by_role("link", name="Log in")).to_be_visible()  # logged out
        assert kept_keys(page, owner) == []  # nothing left on the phone
        no_kept_staff_page(context, page, table_url, seats)

        log_in(page, organiser.email, PASSWORD)
        nothing_kept_shown(page, table_url + "/hands/new?hand=1")
        assert stored(t) == []
    finally:
        context.close()


def test_logging_out_with_a_hand_not_sent_sends_it_as_its_owners(browser, live_server, in_play, referee):
    t = in_play
    seats, table_url, context, page = shared_phone(browser, live_server, t, referee)
    try:
        log_in(page, referee.email, PASSWORD)
        owner, page = keep_offline(context, page, table_url + "/hands/new?hand=1", PLAIN_WIN, seats[2], seats[0])
        assert stored(t) == []
        log_out_with_hands_not_sent(page)
        page.get_by_role("button", name="Send now").click()
        expect(page.get_by_role("link", name="Log in")).to_be_visible(timeout=15_000)  # sent, then logged out
        assert stored(t) == [(1, seats[2].player_id, PLAIN_WIN, referee.id)]  # entered by the referee
        assert kept_keys(page, owner) == []
    finally:
        context.close()


def test_hands_left_behind_are_neither_sent_nor_shown_by_the_next_account(browser, live_server, in_play, organiser,
                                                                          referee):
    t = in_play
    seats, table_url, context, page = shared_phone(browser, live_server, t, referee)
    form = table_url + "/hands/new?hand=1"
    try:
        log_in(page, referee.email, PASSWORD)
        # Hand 1 refused once sent (kept with "Correct it"), hand 2 waiting.
        page.goto(form)
        go_offline(context, page)
        enter_win(page, NOT_WINNING, seats[2], seats[0])
        context.set_offline(False)
        expect(page.get_by_role("link", name="Correct it")).to_be_visible(timeout=15_000)
        owner, page = keep_offline(context, page, table_url + "/hands/new?hand=2", PLAIN_WIN, seats[3], seats[1])
        assert len(kept_keys(page, owner)) == 2
        context.clear_cookies()  # the referee's login gone without the logout page (a session ended, cookies cleared)

        log_in(page, organiser.email, PASSWORD)
        nothing_kept_shown(page, form)
        nothing_kept_shown(page, table_url)
        assert stored(t) == []  # the referee's hand 2 is not saved as the organiser's
        assert len(kept_keys(page, owner)) == 2  # still the referee's
        page.get_by_role("button", name="Log out").click()  # the organiser has none: logged out at once
        expect(page.get_by_role("link", name="Log in")).to_be_visible()

        log_in(page, referee.email, PASSWORD)  # their owner's page sends them and shows the refused one
        page.goto(form)
        expect(page.locator(".offline-queue")).to_contain_text("was sent and saved", timeout=15_000)
        expect(page.get_by_role("link", name="Correct it")).to_be_visible()
        assert stored(t) == [(2, seats[3].player_id, PLAIN_WIN, referee.id)]
    finally:
        context.close()


def test_logging_out_everywhere_empties_the_workers_staff_copies(offline_queue_phone):
    t, seats, table_url, context, page = offline_queue_phone
    page.goto(table_url)
    page.evaluate("navigator.serviceWorker.ready")
    page.goto(table_url + "/hands/new?hand=1")  # through the worker now: kept
    page.goto(table_url)
    context.set_offline(True)
    page.reload()
    expect(page.locator("[data-offline-copy]")).to_be_visible()  # kept, shown offline while logged in
    context.set_offline(False)
    page.goto("/account")
    page.get_by_role("button", name="Log out everywhere").click()
    expect(page.get_by_role("link", name="Log in")).to_be_visible()
    no_kept_staff_page(context, page, table_url, seats)


def test_a_players_link_page_never_sends_another_players_kept_hand(browser, live_server, client, in_play,
                                                                   organiser):
    t = in_play
    seats, links = players_tournament(t)
    east, south = seats[:2]
    context, page = phone_context(browser, live_server)
    try:
        page.goto(links[east.player_id] + "/hands/new")
        expect(page.get_by_role("heading", name="Enter a hand")).to_be_visible()
        go_offline(context, page)
        enter_players_win(page, PLAIN_WIN, east, south)
        expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
        page = back_online_elsewhere(context, page)

        nothing_kept_shown(page, links[south.player_id])
        nothing_kept_shown(page, links[south.player_id] + "/hands/new")
        api = Api(client, token_for(organiser))
        assert hands_at(api, t) == []

        page.goto(links[east.player_id])  # East's own page sends it, as East's
        expect(page.locator(".offline-queue")).to_contain_text("Hand 1 was sent and saved", timeout=15_000)
    finally:
        context.close()
    [hand] = hands_at(api, t)
    assert (hand["number"], hand["winner_id"], hand["confirmed_by"]) == (1, east.player_id, [east.player_id])
