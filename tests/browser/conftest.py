"""Browser tests: Debian's chromium driven by Playwright against the app served on a loopback port."""

from __future__ import annotations

import os
import threading
from datetime import timedelta
from typing import NamedTuple

import pytest
from werkzeug.serving import make_server

from tests.helpers import PASSWORD, add_players, table_ids, win

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# A phone's browser context (390 px wide, touch).
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, launched once for the run through Playwright."""
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu", "--no-first-run",
                  "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def live_server(app):
    """The app served on a loopback port by a threaded werkzeug server: its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # Polled every 50 ms (werkzeug: 500): shutting down waits for the next poll, half a second per test.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


@pytest.fixture
def page(browser, live_server):
    """A laptop-sized page (1280 x 900) on the live server, 10 s timeouts."""
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    yield page
    context.close()


def commit_setup() -> None:
    """The live server reads through its own database session: commit what the test set up."""
    from flask import has_app_context

    from tournament.extensions import db

    if has_app_context():
        db.session.commit()


def log_in(page, email: str, password: str) -> None:
    commit_setup()
    page.goto("/login")
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/manage")


def go_offline(context, page) -> None:
    """Cut the network once the page's offline queue is running: it is loaded after the page (after-load.js), and a
    form sent before it runs gets the browser's own error page, which is not what these tests are about."""
    page.locator("html[data-offline-ready]").wait_for(state="attached")
    context.set_offline(True)


def phone_context(browser, live_server, **extra):
    """A phone's browser context on the live server (PHONE, 10 s timeouts) and its page: (context, page)."""
    context = browser.new_context(base_url=live_server, **PHONE, **extra)
    context.set_default_timeout(10_000)
    return context, context.new_page()


# --- tournaments set up for the browser tests ----------------------------------------------------------------


@pytest.fixture
def registered(tournament):
    """Four players registered, none checked in (Aino of Helsinki MC, Mikko, Jonas of SE, Sanna a substitute);
    returns the tournament."""
    from tournament.extensions import db
    from tournament.services.people import registration as reg
    from tournament.services.people.registration import PlayerData

    for first, last, kwargs in [
        ("Aino", "Virtanen", {"club": "Helsinki MC"}),
        ("Mikko", "Korhonen", {}),
        ("Jonas", "Lindqvist", {"country": "SE"}),
        ("Sanna", "Aalto", {"is_substitute": True}),
    ]:
        reg.add_player(tournament, PlayerData(first_name=first, last_name=last, **kwargs))
    db.session.commit()  # the browser reads through the live server's own session
    return tournament


@pytest.fixture
def small_tournament(tournament):
    """A tournament of 3 sessions with 16 players checked in, nothing drawn: (tournament, players)."""
    from tournament.extensions import db

    tournament.session_count = 3
    db.session.commit()
    players = add_players(tournament, 16)
    return tournament, players


@pytest.fixture
def table_one(tournament, referee):
    """Four players at one table, session 1 in play, the referee on the staff: (tournament, table 1's players
    East to North, the table page's url)."""
    from tournament.services.people import registration as reg
    from tournament.services.people.registration import PlayerData
    from tournament.services.people.tournaments import add_staff
    from tournament.services.play import session as play
    from tournament.services.seating import draws as draw_service
    from tournament.services.seating import lifecycle

    for i in range(4):
        reg.check_in(reg.add_player(tournament, PlayerData(first_name=f"Ann{i}", last_name=f"Lee{chr(65 + i)}")))
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    add_staff(tournament, referee.email, "referee")
    players = play.table_players(play.get_session(tournament, 1), 1)
    return tournament, players, f"/manage/tournaments/{tournament.id}/play/1/tables/1"


@pytest.fixture
def phone_table(browser, live_server, tournament, referee):
    """The referee logged in on a phone at table 1 (four players, session 1 in play, a substitute checked in):
    (page, tournament, table 1's players, the substitute, the table page's url)."""
    from tournament.extensions import db
    from tournament.services.people import registration as reg
    from tournament.services.people.registration import PlayerData
    from tournament.services.people.tournaments import add_staff
    from tournament.services.play import session as play
    from tournament.services.seating import draws as draw_service
    from tournament.services.seating import lifecycle

    for i in range(4):
        reg.check_in(reg.add_player(tournament, PlayerData(first_name=f"Ann{i}", last_name=f"Lee{chr(65 + i)}")))
    substitute = reg.check_in(reg.add_player(tournament, PlayerData(first_name="Sami", last_name="Sijainen",
                                                                   is_substitute=True)))
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    add_staff(tournament, referee.email, "referee")
    players = play.table_players(play.get_session(tournament, 1), 1)
    db.session.commit()
    context, page = phone_context(browser, live_server)
    log_in(page, referee.email, PASSWORD)
    yield page, tournament, players, substitute, f"/manage/tournaments/{tournament.id}/play/1/tables/1"
    context.close()


class OfflineQueuePhone(NamedTuple):
    """What `offline_queue_phone` gives, in the order the tests unpack it."""

    t: object
    seats: list
    table_url: str
    context: object
    page: object


@pytest.fixture
def offline_queue_phone(request, browser, live_server, in_play, organiser):
    """The organiser logged in on a phone, about to enter table 1's hands of `in_play`: (tournament, table 1's
    seats East to North, the table page's url, the browser context to take offline, the page). Parametrize it
    indirectly with the context's extra options ({"service_workers": "block"})."""
    from tournament.services.play import session as play

    commit_setup()
    seats = play.table_players(play.get_session(in_play, 1), 1)
    context, page = phone_context(browser, live_server, **getattr(request, "param", {}))
    try:
        log_in(page, organiser.email, PASSWORD)
        yield OfflineQueuePhone(in_play, seats, f"/manage/tournaments/{in_play.id}/play/1/tables/1", context, page)
    finally:
        context.close()


@pytest.fixture
def with_a_hand(in_play, organiser):
    """`in_play` with hand 1 at table 1 entered (a draw); returns the tournament."""
    from tournament.services.play import scoring
    from tournament.services.play.scoring import HandData

    scoring.enter_hand(in_play, 1, 1, HandData(number=1, result="draw"), None)
    commit_setup()
    return in_play


@pytest.fixture
def half_hour_session(tournament, organiser):
    """Session 1 in play; 30-minute sessions with the warning 15 minutes before the end: (tournament,
    organiser)."""
    from tournament.services.seating import draws, lifecycle

    tournament.session_minutes = 30
    tournament.warning_minutes = 15
    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    return tournament, organiser


@pytest.fixture
def two_hour_session(tournament, organiser):
    """Session 1 in play, 2-hour sessions (warning 15 minutes before), its clock started 10 seconds ago
    (1:59:50 left): (tournament, organiser)."""
    from tournament.models._common import utcnow
    from tournament.services.play import clock
    from tournament.services.seating import draws, lifecycle

    tournament.session_minutes = 120
    tournament.warning_minutes = 15
    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    clock.start(tournament, 1, organiser, now=utcnow() - timedelta(seconds=10))  # 1:59:50 left
    commit_setup()
    return tournament, organiser


@pytest.fixture
def live_event(app, tournament):
    """20 players: session 1 played and finished, session 2 in play with a hand per table, session 3 published."""
    from tournament.services.play import session as play
    from tournament.services.seating import draws as draw_service
    from tournament.services.seating import lifecycle

    app.config["LIVE_POLL_SECONDS"] = 1
    add_players(tournament, 20)
    draw_service.draw_next(tournament, seed=7)
    lifecycle.start_session(tournament, 1)
    for table in range(1, 6):
        e, s, w, n = table_ids(tournament, 1, table)
        win(tournament, 1, table, 1, [e, s, w, n][table % 4], [e, s, w, n][(table + 1) % 4])
        win(tournament, 1, table, 2, [e, s, w, n][(table + 2) % 4])
    lifecycle.finish_session(tournament, 1, force=True)
    draw_service.draw_next(tournament, seed=8)
    lifecycle.start_session(tournament, 2)
    for table in range(1, 6):
        e, s, w, n = table_ids(tournament, 2, table)
        win(tournament, 2, table, 1, [e, s, w, n][(table + 3) % 4], [e, s, w, n][table % 4])
    draw_service.draw_next(tournament, seed=9)
    lifecycle.set_status(play.get_session(tournament, 3), "published")
    commit_setup()
    return tournament


@pytest.fixture
def played_table(tournament, organiser):
    """8 players, session 1 in play, three hands (draws) entered at table 1; returns the tournament."""
    from tournament.services.play import scoring
    from tournament.services.play.scoring import HandData
    from tournament.services.seating import draws, lifecycle

    add_players(tournament, 8)
    draws.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    for number in (1, 2, 3):
        scoring.enter_hand(tournament, 1, 1, HandData(number=number, result="draw"), organiser)
    commit_setup()
    return tournament


@pytest.fixture
def demo(demo_tournament, referee):
    """The demo tournament (session 2 half-way, a penalty, the clock) and the pages of it, public and staff:
    (tournament, public urls, the referee's urls)."""
    from tournament.services.play import session as play

    t = demo_tournament
    session2 = play.get_session(t, 2)
    player_id = session2.seats[0].player_id
    staff = f"/manage/tournaments/{t.id}/play"
    public = [
        "/", "/check", "/check?hand=123456789m123s5p5p&self_drawn=1", "/login",
        f"/t/{t.id}", f"/t/{t.id}/players", f"/t/{t.id}/standings", f"/t/{t.id}/standings/sessions/1",
        f"/t/{t.id}/standings/teams", f"/t/{t.id}/seating", f"/t/{t.id}/seating/2",
        f"/t/{t.id}/seating/player/{player_id}", f"/t/{t.id}/players/{player_id}", f"/t/{t.id}/statistics",
        f"/t/{t.id}/projector", f"/t/{t.id}/seating/2/projector", f"/t/{t.id}/sessions/2/clock",
    ]
    referee_pages = [
        f"{staff}/2/tables/1", f"{staff}/2/tables/1/hands/new", f"{staff}/2/clock", f"{staff}/2/board",
        f"{staff}/penalties", f"{staff}/2",
    ]
    commit_setup()
    return t, public, referee_pages


@pytest.fixture
def axe_page(browser, live_server):
    """A laptop-sized page with the page's CSP bypassed, so that axe-core can be injected."""
    context = browser.new_context(base_url=live_server, viewport={"width": 1280, "height": 900}, bypass_csp=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


# --- the offline queue's tests (test_offline_queue*.py) ------------------------------------------------------

PLAIN_WIN = "123456789m123s55p"


def enter_win(page, hand: str, winner, discarder) -> None:
    page.get_by_label("Winning hand").fill(hand)
    page.get_by_role("group", name="Winner").get_by_label(winner.player.full_name).check()
    page.get_by_role("group", name="Discarded by").get_by_label(discarder.player.full_name).check()
    page.get_by_role("button", name="Save hand").last.click()


def kept_keys(page, owner: str) -> list[str]:
    """The idempotency keys of the hands this browser keeps for `owner` (each owner's own database)."""
    return page.evaluate("""owner => new Promise(resolve => {
        indexedDB.open('mcr-offline-' + owner).onsuccess = event => {
            const db = event.target.result;
            if (!db.objectStoreNames.contains('hands')) return resolve([]);
            db.transaction('hands').objectStore('hands').getAll().onsuccess =
                e => resolve(e.target.result.map(row => row.key));
        };
    })""", owner)


# --- the pages a referee and a player carry on a phone (issue 32 item 1) -------------------------------------

# Finnish names, a few as long as people's are: the table cards and the board's cards must wrap them between words.
PHONE_NAMES = [("Aino", "Virtanen"), ("Mikko", "Korhonen"), ("Liisa", "Mäkinen"), ("Juha", "Nieminen"),
               ("Sanna", "Mäkelä"), ("Pekka", "Hämäläinen"), ("Tiina", "Laine"), ("Antti", "Heikkinen"),
               ("Maximiliane-Alexandrina", "Vanderbeek-Oppenheimer"), ("Kaarina", "Koskinen-Järvinen"),
               ("Ville", "Lehtonen"), ("Outi", "Lehtinen"), ("Jussi", "Salminen"), ("Riikka", "Heinonen"),
               ("Timo", "Niemelä"), ("Hannele", "Kärkkäinen-Wolff")]
DISPUTE_REASON = "Etelä ei heittänyt viittä pistettä, vaan kuusi"


class PhoneDay(NamedTuple):
    """What `phone_day` gives: the tournament, the session's staff address, a player's link (East at table 2, whose
    hand 1 West disputed), that player and West."""

    t: object
    staff: str
    link: str
    player: object
    disputer: object


@pytest.fixture
def phone_day(tournament, referee):
    """A Helsinki event in play on the day, on every page a referee or player carries: 16 players with Finnish
    names (some long), a substitute, three sessions planned (starts set), session 1 in play with its clock running
    and extra time for table 2; table 1 with three hands, a penalty, a referee call and a substitution from hand 4;
    table 2 in players' entry with hand 1 entered by East and disputed by West; table 3 with time called during
    hand 2. The referee is on the staff."""
    from datetime import datetime as wall

    from tournament.extensions import db
    from tournament.models import EntryMode
    from tournament.services.people import player_links
    from tournament.services.people import registration as reg
    from tournament.services.people.registration import PlayerData
    from tournament.services.people.tournaments import add_staff
    from tournament.services.play import clock, confirmations, penalties, referee_calls, scoring
    from tournament.services.play import session as play
    from tournament.services.play.scoring import HandData
    from tournament.services.seating import draws as draw_service
    from tournament.services.seating import lifecycle, schedule, substitutions

    t = tournament
    t.session_count = 3
    t.time_zone = "Europe/Helsinki"
    t.entry_mode = EntryMode.PLAYERS
    for first, last in PHONE_NAMES:
        reg.check_in(reg.add_player(t, PlayerData(first_name=first, last_name=last, country="FI",
                                                  team="Helsingin Mahjong-seura")))
    sub = reg.check_in(reg.add_player(t, PlayerData(first_name="Sami", last_name="Sijainen", is_substitute=True)))
    schedule.set_planned_starts(t, {1: wall(2026, 12, 5, 10, 0), 2: wall(2026, 12, 5, 14, 0),
                                    3: wall(2026, 12, 6, 10, 0)})
    draw_service.draw_next(t, seed=3)
    lifecycle.start_session(t, 1)
    add_staff(t, referee.email, "referee")
    clock.start(t, 1, None)
    clock.extend(t, 1, 300, None, table=2)
    e, s, w, n = play.table_players(play.get_session(t, 1), 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=w.player_id, discarder_id=e.player_id,
                                         hand="123456789m123s5p5p"), None)
    scoring.enter_hand(t, 1, 1, HandData(number=2, result="draw"), None)
    scoring.enter_hand(t, 1, 1, HandData(number=3, result="win", winner_id=s.player_id, discarder_id=None,
                                         hand="123456789m123s5p5p"), None)
    penalties.give_penalty(t, player_id=n.player_id, session_number=1, amount=10, reason="Hidas peli", user=None,
                           hand_number=3)
    referee_calls.record_call(t, 1, 1, referee_calls.CallData(situation="Väärä mahjong julistettiin", hand=3,
                                                              called_by=e.player_id, ruling="Käsi jatkuu"), None)
    substitutions.substitute(t, 1, 1, out_player_id=n.player_id, in_player_id=sub.id, from_hand=4, reason="ill", user=None, stays=True)
    e2, s2, w2, _ = play.table_players(play.get_session(t, 1), 2)
    confirmations.enter_hand(t, e2.player, HandData(number=1, result="win", winner_id=e2.player_id,
                                                    discarder_id=s2.player_id, hand="123456789m123s5p5p"))
    confirmations.dispute(t, w2.player, 2, 1, DISPUTE_REASON)
    scoring.enter_hand(t, 1, 3, HandData(number=1, result="draw"), None)
    clock.call_time(t, 1, 3, 2, None)
    link = "/p/" + player_links.token_of(player_links.link_of(t, e2.player_id))
    db.session.commit()
    return PhoneDay(t, f"/manage/tournaments/{t.id}/play/1", link, e2.player, w2.player)
