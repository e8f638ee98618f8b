"""Players at the table with their own phones (issue 23), in chromium: four browser contexts, four phones at 390 px,
on a tournament where the players enter the hands. One enters a hand through the player's form and the other
three confirm it on their pages; one disputes and the referee board shows the table first; a phone goes offline,
enters two hands, comes back, and each is stored once; a renewed link stops working. axe on the player's page and
the player's hand form, and no sideways scrolling at 390 px."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import commit_setup, go_offline, log_in
from tests.helpers import PASSWORD, Api, token_for
from tournament.extensions import db
from tournament.models import EntryMode
from tournament.services.people import player_links
from tournament.services.play import confirmations
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PLAIN_WIN = "123456789m123s55p"  # four runs and a pair: 22 points won on a discard (winner +46, discarder -30)


def players_tournament(t, table: int = 1):
    """The tournament switched to players' entry; the table's players (East, South, West, North) and their links."""
    t.entry_mode = EntryMode.PLAYERS
    seats = play.table_players(play.get_session(t, 1), table)
    links = {sp.player_id: "/p/" + player_links.token_of(player_links.link_of(t, sp.player_id)) for sp in seats}
    commit_setup()
    return seats, links


def phone(browser, live_server):
    context = browser.new_context(base_url=live_server, **PHONE)
    context.set_default_timeout(10_000)
    return context, context.new_page()


def axe_problems(page) -> list[str]:
    page.evaluate(AXE)
    result = page.evaluate("async () => await axe.run(document, {rules: {'label-content-name-mismatch': "
                           "{enabled: true}}})")
    return [f"{v['impact']} {v['id']}: {v['help']} e.g. {[n['target'] for n in v['nodes'][:3]]}"
            for v in result["violations"] if v["impact"] in ("critical", "serious")]


def no_sideways_scroll(page) -> None:
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"{page.url}: {width} px wide in a {inner} px window"


def seat(page, role: str, seated) -> object:
    return page.get_by_role("group", name=role).get_by_label(seated.player.full_name)


def enter_win(page, hand: str, winner, discarder) -> None:
    """On the player's hand form: the tiles typed, the winner and the discarder (None: self-drawn), Save."""
    page.get_by_label("Winning hand").fill(hand)
    seat(page, "Winner", winner).check()
    if discarder is None:
        page.get_by_role("group", name="Discarded by").get_by_label("Self-drawn").check()
    else:
        seat(page, "Discarded by", discarder).check()
    page.get_by_role("button", name="Save hand").last.click()


def hands_at(api: Api, t, table: int = 1) -> list[dict]:
    return api.get(f"/tournaments/{t.id}/sessions/1/tables/{table}/hands", expect=200).get_json()["hands"]


def scores(api: Api, t) -> dict[int, int]:
    rows = api.get(f"/tournaments/{t.id}/standings", expect=200).get_json()["rows"]
    return {row["player_id"]: row["score"] for row in rows}


def test_one_enters_a_hand_three_confirm_it_and_it_counts(browser, live_server, client, in_play, organiser):
    t = in_play
    seats, links = players_tournament(t)
    east, south, west, north = seats
    api = Api(client, token_for(organiser))
    phones = [phone(browser, live_server) for _ in seats]
    try:
        page = phones[0][1]
        page.goto(links[east.player_id])
        expect(page.get_by_role("heading", name=east.player.full_name)).to_be_visible()
        assert not axe_problems(page), axe_problems(page)
        no_sideways_scroll(page)
        page.get_by_role("link", name="Enter hand 1").click()
        expect(page.get_by_role("heading", name="Enter a hand")).to_be_visible()
        assert not axe_problems(page), axe_problems(page)
        no_sideways_scroll(page)
        enter_win(page, PLAIN_WIN, east, south)
        expect(page.locator(".flashes")).to_contain_text("Hand 1 saved")
        expect(page.locator("#hand-1")).to_contain_text("You confirmed it.")
        no_sideways_scroll(page)
        assert scores(api, t).get(east.player_id, 0) == 0  # a players' entry counts once all four confirmed it

        for n, (seated, (_, other)) in enumerate(zip((south, west, north), phones[1:], strict=True), start=2):
            other.goto(links[seated.player_id])
            hand = other.locator("#hand-1")
            expect(hand).to_contain_text(f"confirmed by {n - 1} of 4")
            hand.get_by_role("button", name="Confirm hand 1").click()
            expect(other.locator(".flashes")).to_contain_text("You confirmed hand 1.")
            expect(other.locator("#hand-1")).to_contain_text(f"confirmed by {n} of 4")
            no_sideways_scroll(other)
        expect(phones[3][1].locator(".flashes")).to_contain_text("All four have: it counts.")
    finally:
        for context, _ in phones:
            context.close()

    [hand] = hands_at(api, t)
    assert hand["status"] == "confirmed" and sorted(hand["confirmed_by"]) == sorted(sp.player_id for sp in seats)
    counted = scores(api, t)
    assert (counted[east.player_id], counted[south.player_id]) == (46, -30)


def test_a_dispute_puts_the_table_first_on_the_referee_board(browser, live_server, page, in_play, organiser):
    t = in_play
    seats, links = players_tournament(t, table=2)  # table 2: first on the board only because of the dispute
    east, south, west, _ = seats
    phones = [phone(browser, live_server) for _ in range(2)]
    try:
        enterer, disputer = phones[0][1], phones[1][1]
        enterer.goto(links[east.player_id] + "/hands/new")
        enter_win(enterer, PLAIN_WIN, east, south)
        expect(enterer.locator(".flashes")).to_contain_text("Hand 1 saved")

        disputer.goto(links[west.player_id])
        hand = disputer.locator("#hand-1")
        hand.get_by_text("Something is wrong with hand 1").click()
        hand.get_by_label("What is wrong with hand 1?").fill("South did not discard the 5 dots")
        hand.get_by_role("button", name="Dispute hand 1").click()
        expect(disputer.locator(".flashes")).to_contain_text("a referee will come to your table")
        expect(disputer.locator("#hand-1")).to_contain_text("Disputed by")
        no_sideways_scroll(disputer)
    finally:
        for context, _ in phones:
            context.close()

    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1/board")
    first = page.locator("[data-board-rows] > li").first
    expect(first).to_have_attribute("data-table", "2")
    expect(first).to_have_class(re.compile("disputed"))
    expect(first).to_contain_text(f"Disputed by {west.player.full_name}: South did not discard the 5 dots")
    # settled on the card: the hand stands, and the board comes back without the dispute
    first.get_by_role("button", name=re.compile("^Stands as entered")).click()
    expect(page.locator(".flashes")).to_contain_text("Hand 1 stands as entered")
    assert page.url.endswith(f"/manage/tournaments/{t.id}/play/1/board")
    expect(page.locator("[data-board-rows] > li.disputed")).to_have_count(0)


def test_a_phone_offline_keeps_two_hands_and_each_is_stored_once(browser, live_server, client, in_play, organiser):
    t = in_play
    seats, links = players_tournament(t)
    east, south, west, north = seats
    api = Api(client, token_for(organiser))
    context, page = phone(browser, live_server)
    try:
        page.goto(links[east.player_id])
        page.evaluate("navigator.serviceWorker.ready")  # the worker keeps the page and the hand form
        page.get_by_role("link", name="Enter hand 1").click()
        expect(page.get_by_role("heading", name="Enter a hand")).to_be_visible()

        go_offline(context, page)
        page.get_by_label("Winning hand").fill(PLAIN_WIN)
        expect(page.locator(".entry-verdict")).to_contain_text("the engine checks this hand when it is sent")
        enter_win(page, PLAIN_WIN, east, south)
        banner = page.locator(".offline-queue")
        expect(banner).to_contain_text("1 hand waiting to be sent")
        expect(page.get_by_label("Hand", exact=True)).to_have_value("2")  # the form is ready for the next hand
        expect(page.get_by_label("Winning hand")).to_have_value("")
        enter_win(page, PLAIN_WIN, north, None)
        expect(banner).to_contain_text("2 hands waiting to be sent")
        assert not axe_problems(page), axe_problems(page)  # the form offline, with the banner
        no_sideways_scroll(page)
        # The player's page opens offline (the worker's copy) and still says what is waiting.
        page.goto(links[east.player_id])
        expect(page.get_by_role("heading", name=east.player.full_name)).to_be_visible()
        expect(page.locator("[data-offline-copy]")).to_contain_text("the copy of this page kept on this device")
        expect(page.locator(".offline-queue")).to_contain_text("2 hands waiting to be sent")
        db.session.expire_all()
        assert hands_at(api, t) == []  # nothing reached the server

        context.set_offline(False)
        expect(page.locator(".offline-queue")).to_contain_text("Hand 1, Hand 2 were sent and saved", timeout=15_000)
        # Back again and again: every retry the phone might still make finds nothing left to send.
        page.reload()
        page.evaluate("new Promise(resolve => setTimeout(resolve, 500))")
        expect(page.locator("#hand-2")).to_be_visible()
    finally:
        context.close()

    hands = hands_at(api, t)
    assert [(h["number"], h["winner_id"], h["discarder_id"]) for h in hands] == [
        (1, east.player_id, south.player_id), (2, north.player_id, None)]
    assert all(h["confirmed_by"] == [east.player_id] for h in hands)


def test_a_renewed_link_stops_working_and_its_kept_copy_is_dropped(browser, live_server, in_play):
    t = in_play
    seats, links = players_tournament(t)
    east = seats[0]
    context, page = phone(browser, live_server)
    try:
        page.goto(links[east.player_id])
        page.evaluate("navigator.serviceWorker.ready")
        page.reload()  # now answered through the worker, which keeps it
        context.set_offline(True)
        page.reload()
        expect(page.get_by_role("heading", name=east.player.full_name)).to_be_visible()  # the kept copy
        context.set_offline(False)
        # back online, the kept copy takes the server's state at once (issue 32): the page drawn again
        expect(page.locator("[data-offline-copy]")).to_have_count(0, timeout=15_000)
        page.wait_for_load_state("load")

        player_links.renew(t, east.player_id)
        commit_setup()
        answer = page.goto(links[east.player_id])
        assert answer.status == 404
        expect(page.get_by_text(east.player.full_name)).to_have_count(0)
        # Offline the old link shows nothing of the player's either: the worker dropped its copy on the 404.
        context.set_offline(True)
        page.goto(links[east.player_id])
        expect(page.get_by_role("heading", name="No network")).to_be_visible()
        expect(page.get_by_text(east.player.full_name)).to_have_count(0)
    finally:
        context.close()


def test_a_hand_kept_for_a_link_renewed_meanwhile_comes_back_refused(browser, live_server, client, in_play,
                                                                     organiser):
    t = in_play
    seats, links = players_tournament(t)
    east, south = seats[:2]
    context, page = phone(browser, live_server)
    try:
        page.goto(links[east.player_id] + "/hands/new")
        expect(page.get_by_role("heading", name="Enter a hand")).to_be_visible()
        go_offline(context, page)
        enter_win(page, PLAIN_WIN, east, south)
        expect(page.locator(".offline-queue")).to_contain_text("1 hand waiting to be sent")
        player_links.renew(t, east.player_id)  # the desk renewed the link meanwhile
        commit_setup()
        context.set_offline(False)
        refused = page.locator(".offline-queue [data-offline-refused] li")
        expect(refused).to_contain_text("Hand 1 was not saved: Not Found. There is no page at this address.", timeout=15_000)
        expect(refused.get_by_role("button", name="Discard it")).to_be_visible()
        assert not axe_problems(page), axe_problems(page)  # the form with a refused hand's banner
        no_sideways_scroll(page)
    finally:
        context.close()
    assert hands_at(Api(client, token_for(organiser)), t) == []


def _a_hand_for_south_to_confirm(t):
    """Hand 1 entered by East, a win on South's discard, committed for the live server: (East, South, South's link)."""
    seats, links = players_tournament(t)
    east, south = seats[:2]
    confirmations.enter_hand(t, east.player, HandData(number=1, result="win", winner_id=east.player_id,
                                                      discarder_id=south.player_id, hand=PLAIN_WIN))
    commit_setup()
    return east, south, links[south.player_id]


def _confirm_once_back_online(context, page, confirm) -> None:
    context.set_offline(False)
    confirm.click()
    expect(page.locator(".flashes")).to_contain_text("You confirmed hand 1.")


def test_confirming_offline_says_it_was_not_sent_and_works_once_back(browser, live_server, client, in_play,
                                                                     organiser):
    t = in_play
    east, south, south_link = _a_hand_for_south_to_confirm(t)
    context, page = phone(browser, live_server)
    try:
        page.goto(south_link)
        confirm = page.locator("#hand-1").get_by_role("button", name="Confirm hand 1")
        go_offline(context, page)
        confirm.click()
        expect(page.locator(".offline-queue")).to_contain_text("No network: that was not sent.")
        expect(confirm).to_be_visible()  # still on the page, not the browser's error page
        _confirm_once_back_online(context, page, confirm)
    finally:
        context.close()
    [hand] = hands_at(Api(client, token_for(organiser)), t)
    assert sorted(hand["confirmed_by"]) == sorted([east.player_id, south.player_id])


def test_a_confirm_sent_offline_before_the_queue_runs_gets_the_kept_page_back(browser, live_server, client, in_play,
                                                                            organiser):
    # The offline queue is loaded after the page: a confirm tapped offline before it runs (the last CI's failure,
    # which a player could meet too) gets the kept copy of the page back with "not sent", not chromium's error page.
    t = in_play
    east, south, south_link = _a_hand_for_south_to_confirm(t)
    context, page = phone(browser, live_server)
    try:
        page.goto(south_link)
        page.evaluate("navigator.serviceWorker.ready")
        page.reload()  # now answered through the worker, which keeps it
        page.locator("html[data-offline-ready]").wait_for(state="attached")
        # as if the queue had not run yet: its listener never hears the form
        page.evaluate("window.addEventListener('submit', function (e) { e.stopImmediatePropagation(); }, true)")
        context.set_offline(True)
        page.locator("#hand-1").get_by_role("button", name="Confirm hand 1").click()
        expect(page.locator("[data-offline-not-sent]")).to_contain_text("No network: that was not sent.")
        confirm = page.locator("#hand-1").get_by_role("button", name="Confirm hand 1")
        expect(confirm).to_be_visible()
        _confirm_once_back_online(context, page, confirm)
    finally:
        context.close()
    [hand] = hands_at(Api(client, token_for(organiser)), t)
    assert sorted(hand["confirmed_by"]) == sorted([east.player_id, south.player_id])
