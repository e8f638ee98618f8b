"""A Finnish organiser's day in chromium (issue 24): the account set to Finnish, a tournament in Helsinki's time
zone with a planned start, eight players imported and checked in at the desk, session 1 drawn, published and
started, a win entered through the tile picker at table 1 and a drawn hand at table 2, the session closed, the
standings read and their PDF fetched.

Every control is found by its Finnish name, which proves it is translated; the times are Helsinki's, in Finnish
formats; a tie's table points have a decimal comma. Each page's visible text is searched for the staff's common
English words: what is found is collected page by page and failed on at the end, so that one run lists every gap
(the day goes on past one)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import commit_setup, go_offline, log_in
from tests.helpers import NOT_WINNING, PASSWORD, VALID_22, english_lines, english_pattern
from tournament import timezones
from tournament.extensions import db
from tournament.models import Player, Tournament
from tournament.services.play import session as play
from tournament.services.seating import schedule

pytestmark = pytest.mark.browser

ZONE = "Europe/Helsinki"
TOURNAMENT = "Helsingin jouluturnaus"
NAMES = [("Aino", "Virtanen"), ("Mikko", "Korhonen"), ("Liisa", "Mäkinen"), ("Juha", "Nieminen"),
         ("Sanna", "Mäkelä"), ("Pekka", "Hämäläinen"), ("Tiina", "Laine"), ("Antti", "Heikkinen")]
SUBSTITUTE = ("Sami", "Sijainen")
# The day's common English words (tests/helpers.DAY_ENGLISH) a Finnish page must not show.
ENGLISH_RE = english_pattern("fi")
# People's and the tournament's own names are theirs, in no language; the time zones' are IANA's identifiers.
OWN_NAMES = sorted({TOURNAMENT, *(f"{first} {last}" for first, last in [*NAMES, SUBSTITUTE]),
                    *(n for pair in [*NAMES, SUBSTITUTE] for n in pair),
                    *(zone.replace("_", " ") for zone in timezones.zone_choices())}, key=len, reverse=True)


@dataclass
class Day:
    """The organiser's browser page, the tournament once created, and the English found so far (page: lines)."""

    page: Page
    t: Tournament | None = None
    gaps: dict[str, list[str]] = field(default_factory=dict)

    def check(self, where: str = "") -> None:
        """The page is in Finnish: <html lang="fi">, and the lines of its visible text with English staff words
        are noted under its path (or `where`)."""
        self.page.wait_for_load_state("load")  # the page's deferred scripts have written their words
        expect(self.page.locator("html")).to_have_attribute("lang", "fi")
        if lines := english_lines(self.page.locator("body").inner_text(), ENGLISH_RE, OWN_NAMES):
            self.gaps[where or re.sub(r"^https?://[^/]+", "", self.page.url)] = lines

    def nav(self, name: str) -> None:
        """Follow the tournament's navigation link `name`."""
        self.page.get_by_role("navigation", name="Turnaus").get_by_role("link", name=name, exact=True).click()
        self.check()


def table_names(t: Tournament, table: int) -> list[str]:
    """The full names at `table` of session 1, East to North, as the live server stored them."""
    db.session.expire_all()
    return [sp.player.full_name for sp in play.table_players(play.get_session(t, 1), table)]


def choose_finnish(day: Day, email: str) -> None:
    """Logged in (in English), the organiser picks Finnish on the account page: every page follows, no ?lang."""
    page = day.page
    log_in(page, email, PASSWORD)
    page.goto("/account")
    page.get_by_label("Language of the pages").select_option("fi")
    page.get_by_role("button", name="Save language").click()
    expect(page.locator(".flashes")).to_contain_text("Kieli tallennettu.")
    day.check()


def create_tournament(day: Day) -> None:
    """A tournament of two sessions in Helsinki's zone; session 1 planned at 10.00 Helsinki time, which is 08:00 UTC
    in December (UTC+2)."""
    page = day.page
    page.goto("/manage")
    expect(page.get_by_role("heading", name="Omat tapahtumat")).to_be_visible()
    day.check()
    page.get_by_role("link", name="Uusi turnaus").click()
    day.check()
    page.get_by_label("Nimi", exact=True).fill(TOURNAMENT)
    page.get_by_label("Ensimmäinen päivä").fill("2026-12-05")
    page.get_by_label("Aikavyöhyke").select_option(ZONE)
    page.get_by_label("Kierrokset", exact=True).fill("2")
    page.get_by_role("button", name="Tallenna", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(TOURNAMENT)
    day.check()
    day.t = db.session.scalar(db.select(Tournament).where(Tournament.name == TOURNAMENT))
    assert day.t.time_zone == ZONE

    day.nav("Aikataulu")
    page.get_by_label("Kierros 1", exact=True).fill("2026-12-05T10:00")
    page.get_by_role("button", name="Tallenna aikataulu").click()
    expect(page.get_by_label("Kierros 1", exact=True)).to_have_value("2026-12-05T10:00")
    day.check()
    db.session.expire_all()
    assert schedule.planned_start(day.t, 1) == datetime(2026, 12, 5, 8, 0)


def import_and_check_in(day: Day) -> None:
    """Eight players pasted into the import, previewed and imported; each marked present at the desk, whose times
    are Helsinki's."""
    page = day.page
    day.nav("Pelaajat")
    page.get_by_role("link", name="Tuo CSV").click()
    rows = "\n".join(f"{first},{last},FI" for first, last in NAMES)
    page.get_by_label("Tai liitä rivit").fill(f"first_name,last_name,country\n{rows}\n")
    page.get_by_role("button", name="Esikatselu").click()
    day.check()
    page.get_by_role("button", name="Tuo 8 pelaajaa").click()
    expect(page.locator(".flashes")).to_contain_text("Tuotiin 8 pelaajaa.")
    day.check()
    # A substitute added by hand (the draw seats them only to fill a table); the flash in Finnish.
    page.goto(f"/manage/tournaments/{day.t.id}/players/new")
    page.locator("input[name=first_name]").fill(SUBSTITUTE[0])
    page.locator("input[name=last_name]").fill(SUBSTITUTE[1])
    page.locator("input[name=is_substitute]").check()
    page.locator("main form [type=submit][name=submit]").click()
    expect(page.locator(".flashes")).to_contain_text(" ".join(SUBSTITUTE))
    day.check("the flash of a player added")

    day.nav("Saapumisen kirjaus")
    for first, last in [*NAMES, SUBSTITUTE]:
        page.get_by_role("button", name=f"Merkitse paikalle {first} {last}").click()
    expect(page.get_by_role("button", name=re.compile("^Merkitse paikalle"))).to_have_count(0)
    expect(page.get_by_text("2 täyttä pöytää.")).to_be_visible()
    day.check()
    db.session.expire_all()
    aino = db.session.scalar(db.select(Player).where(Player.last_name == "Virtanen"))
    desk_time = page.locator(f"#desk-player-{aino.id} [data-time]")
    expect(desk_time).to_have_text(timezones.format_local(aino.checked_in_at, ZONE, "%H:%M"))


def draw_and_start(day: Day) -> None:
    """Session 1 drawn and published; its planned start on the public pages in Finnish formats and Helsinki's time;
    play started from the score entry page."""
    page, t = day.page, day.t
    day.nav("Arvonnat")
    page.get_by_role("button", name="Arvo kierros 1", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("Kierros 1"))).to_contain_text("luonnos")
    day.check()
    page.get_by_role("button", name="Julkaise", exact=True).click()
    expect(page.get_by_role("heading", name=re.compile("Kierros 1"))).to_contain_text("julkaistu")
    day.check()
    page.get_by_role("link", name="Julkinen sivu").click()
    day.check()
    # Babel's Finnish: the weekday abbreviated (la = Saturday), day.month., the time with a dot.
    expect(page.get_by_test_id("planned-start")).to_have_text("Alkaa la 5.12. 10.00 (Europe/Helsinki)")
    page.goto(f"/t/{t.id}/schedule")
    day.check()
    expect(page.get_by_test_id("timetable").locator("tbody tr").first).to_have_text(
        re.compile(r"^\s*1\s+la 5\.12\.2026\s+10\.00\s+12\.00\s*$"))  # 120-minute sessions

    page.goto(f"/manage/tournaments/{t.id}")
    day.nav("Tulosten kirjaus")
    # Starting play is a step of its own (issue 32): what it locks, and the clock in the same tap.
    page.get_by_role("link", name="Aloita peli", exact=True).click()
    page.get_by_role("button", name="Aloita peli (lukitse istumajärjestys)", exact=True).click()
    expect(page.get_by_role("heading", level=2).first).to_contain_text("käynnissä")
    day.check()


def enter_hands(day: Day) -> tuple[list[str], list[str]]:
    """Table 1: West wins 22 points (Pure Straight ...) off East's discard, the hand clicked tile by tile in the
    picker. Table 2: hand 1 a draw. Returns the names at tables 1 and 2, East to North."""
    page, t = day.page, day.t
    table_1, table_2 = table_names(t, 1), table_names(t, 2)
    east, _, west, _ = table_1
    page.locator("#table-1").get_by_role("link", name="Pöytä 1", exact=True).click()
    day.check()
    page.get_by_role("link", name="Kirjaa käsi 1", exact=True).first.click()
    page.get_by_role("group", name="Voittaja").get_by_label(west).check()
    page.get_by_role("group", name="Viskaaja").get_by_label(east).check()
    picker = page.get_by_role("group", name="Tiilivalitsin")
    # The tiles named in Finnish ("1 m (1 merkit)"): if not, the gap is noted and the tiles are pressed by their
    # codes all the same, so that the rest of the day is still checked.
    tile = page.locator(".tile-picker button[data-tile]").first
    expect(tile).to_be_visible()
    if not picker.get_by_role("button", name="(1 merkit)").count():
        day.gaps["tile picker of the hand form, first tile's name"] = [tile.inner_text()]
    for code in [f"{n}m" for n in range(1, 10)] + ["1s", "2s", "3s", "5p", "5p"]:  # 123456789m 123s 5p 5p
        page.locator(f'.tile-picker button[data-tile="{code}"]').click()
    expect(page.locator("#live-score")).to_contain_text("Värisuora")
    expect(page.locator("#live-score")).to_contain_text("22 pistettä")
    day.check()
    page.get_by_role("button", name="Tallenna käsi").click()
    expect(page.locator(".flashes")).to_contain_text("Käsi 1 tallennettu.")
    expect(page.locator("#hand-1")).to_contain_text("22 pistettä")
    day.check()

    page.get_by_role("link", name="Pöytä 2 →").click()
    page.get_by_role("link", name="Kirjaa käsi 1", exact=True).first.click()
    page.get_by_label("Tasapeli: muuri loppui").check()
    page.get_by_role("button", name="Tallenna käsi").click()
    expect(page.locator(".flashes")).to_contain_text("Käsi 1 tallennettu.")
    day.check()
    return table_1, table_2


def close_session(day: Day) -> None:
    """Session 1 closed with hands missing (known and accepted), after the confirmation dialog."""
    page, t = day.page, day.t
    page.goto(f"/manage/tournaments/{t.id}/play/1")
    page.get_by_label("Päätä silti: luetellut ongelmat tunnetaan ja hyväksytään").check()
    page.get_by_role("button", name="Päätä kierros").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Päätetäänkö kierros 1?")
    day.check("the confirmation dialog of closing a session")
    dialog.locator("[data-confirm-ok]").click()
    expect(page.locator(".flashes")).to_contain_text("Kierros 1 on päätetty.")
    day.check()
    db.session.expire_all()
    assert play.get_session(t, 1).status == "finished"


def test_a_finnish_organisers_day(page, organiser):
    day = Day(page)
    choose_finnish(day, organiser.email)
    create_tournament(day)
    import_and_check_in(day)
    draw_and_start(day)
    (east, south, west, north), table_2 = enter_hands(day)
    close_session(day)

    # The standings: West won (4); South and North paid 8 each and share 2nd and 3rd: (2 + 1) / 2 = 1,5 each;
    # table 2's draw ties all four on 0: (4 + 2 + 1 + 0) / 4 = 1,75 each. A decimal comma, as Finnish writes.
    page.goto(f"/t/{day.t.id}/standings")
    day.check()
    table = page.locator("table.standings-table")
    expect(table.locator("thead")).to_contain_text("Pöytäpisteet")
    rows = table.locator("tbody tr")
    shown = dict(zip(rows.locator("th.player-name a").all_inner_texts(), rows.locator("td.strong").all_inner_texts(),
                     strict=True))
    assert shown == {west: "4", south: "1,5", north: "1,5", east: "0", **dict.fromkeys(table_2, "1,75")}, shown

    # The standings PDF from the printing page, as the browser asks for it (inline: chromium's viewer shows it).
    page.goto(f"/manage/tournaments/{day.t.id}")
    day.nav("Tulostus")
    with page.expect_response(re.compile(r"/standings\.pdf$")) as answer:
        page.get_by_role("link", name="Tulostaulukko (PDF)").click()
    assert answer.value.status == 200 and answer.value.headers["content-type"] == "application/pdf"
    assert page.request.get(answer.value.url).body().startswith(b"%PDF")  # the bytes (the viewer replaces them)

    assert not day.gaps, f"English on the Finnish pages: {day.gaps}"


# --- the referee's and the players' day, in each language (issue 32 item 3) ----------------------------------

LOCALES = {"fi": "fi-FI", "sv": "sv-SE", "es": "es-ES", "zh": "zh-CN"}
TYPED = "Etelä ei heittänyt viittä pistettä"  # a player's words: theirs, in no language


@dataclass
class Crawl:
    """English found on a day's pages in `lang`, page by page; each page's <html lang> is `lang`."""

    lang: str
    own: list[str]
    gaps: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.pattern = english_pattern(self.lang)

    def check(self, page: Page, where: str) -> None:
        page.wait_for_load_state("load")
        expect(page.locator("html")).to_have_attribute("lang", self.lang)
        if lines := english_lines(page.locator("body").inner_text(), self.pattern, self.own):
            self.gaps[where] = lines


@pytest.fixture
def day_in_play(tournament, referee):
    """Session 1 in play in players' entry, the clock running, 8 players and a substitute, the referee on the staff:
    (tournament, table 1's and table 2's players East to North, each player's link, the substitute)."""
    from tournament.models import EntryMode
    from tournament.services.people import player_links
    from tournament.services.people import registration as reg
    from tournament.services.people.registration import PlayerData
    from tournament.services.people.tournaments import add_staff
    from tournament.services.play import clock
    from tournament.services.seating import draws as draw_service
    from tournament.services.seating import lifecycle

    t = tournament
    t.time_zone = ZONE
    t.entry_mode = EntryMode.PLAYERS
    for first, last in NAMES:
        reg.check_in(reg.add_player(t, PlayerData(first_name=first, last_name=last, country="FI")))
    sub = reg.check_in(reg.add_player(t, PlayerData(first_name="Sami", last_name="Sijainen", is_substitute=True)))
    draw_service.draw_next(t, seed=5)
    lifecycle.start_session(t, 1)
    clock.start(t, 1, None)
    add_staff(t, referee.email, "referee")
    tables = [play.table_players(play.get_session(t, 1), n) for n in (1, 2)]
    links = {sp.player_id: "/p/" + player_links.token_of(player_links.link_of(t, sp.player_id))
             for table in tables for sp in table}
    db.session.commit()
    return t, tables, links, sub


def phone_in(browser, live_server, lang: str):
    """A phone whose browser asks for `lang` (Accept-Language): the pages follow it, with no ?lang."""
    context = browser.new_context(base_url=live_server, viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, locale=LOCALES[lang])
    context.set_default_timeout(10_000)
    return context, context.new_page()


def save_hand(page, hand: str | None, winner_id: int | None = None, discarder_id: int | None = None) -> None:
    """On a hand form: the tiles typed (None: a draw), the winner's and discarder's seat buttons, Save."""
    if hand is None:
        page.locator("input[name=result][value=draw]").check()
    else:
        page.locator("input[name=hand]").fill(hand)
        page.locator(f"input[name=winner_id][value='{winner_id}']").check()
        page.locator(f"input[name=discarder_id][value='{discarder_id}']").check()
    page.locator(".entry-bar button[type=submit]").click()


def referee_enters_refuses_and_substitutes(crawl: Crawl, page: Page, t, table_1, sub) -> None:
    east, south, west, north = table_1
    staff = f"/manage/tournaments/{t.id}/play/1"
    page.goto(f"{staff}/board")
    crawl.check(page, "referee board")
    page.goto(f"{staff}/clock")
    crawl.check(page, "staff clock")
    page.goto(f"{staff}/tables/1")
    crawl.check(page, "table page")
    page.locator(f"a[href$='{staff}/tables/1/hands/new?hand=1']").first.click()
    crawl.check(page, "hand form")
    page.locator("input[name=hand]").fill(VALID_22)
    expect(page.locator("#live-score .verdict")).to_be_visible()
    crawl.check(page, "hand form, the live score")
    save_hand(page, VALID_22, west.player_id, east.player_id)
    expect(page.locator(".flashes")).to_be_visible()
    crawl.check(page, "table page after a saved hand")
    # a refused save: the engine's reason in the reader's language
    page.goto(f"{staff}/tables/1/hands/new?hand=2")
    save_hand(page, NOT_WINNING, north.player_id, south.player_id)
    expect(page.locator(".refusal")).to_be_visible()
    crawl.check(page, "hand form, a refused save")
    # a substitution from hand 2: the substitute in for South, who fell ill and stays in the later draws
    page.goto(f"{staff}/tables/1")
    page.locator("#substitution summary").click()
    page.locator("select[name=out_player_id]").select_option(str(south.player_id))
    page.locator("select[name=in_player_id]").select_option(str(sub.id))
    page.locator("input[name=from_hand]").fill("2")
    page.locator("select[name=reason]").select_option("ill")
    crawl.check(page, "table page, the substitution form")
    page.locator("#substitution form [type=submit]").click()
    expect(page.get_by_test_id("substitutions-done")).to_be_visible()
    crawl.check(page, "table page after a substitution")


def players_enter_confirm_and_dispute(crawl: Crawl, phones, links, table_2) -> None:
    east, south, west, north = table_2
    enterer, confirmer, disputer = phones
    enterer.goto(links[east.player_id])
    crawl.check(enterer, "player's page")
    enterer.locator("a[href$='/hands/new']").click()
    crawl.check(enterer, "player's hand form")
    save_hand(enterer, VALID_22, east.player_id, south.player_id)
    expect(enterer.locator("#hand-1")).to_be_visible()
    crawl.check(enterer, "player's page after a saved hand")
    enterer.goto(links[east.player_id] + "/hands/new")
    save_hand(enterer, NOT_WINNING, east.player_id, south.player_id)
    expect(enterer.locator(".refusal")).to_be_visible()
    crawl.check(enterer, "player's hand form, a refused save")

    confirmer.goto(links[south.player_id])
    confirmer.locator("#hand-1 form[action$='/hands/1/confirm'] button").click()
    expect(confirmer.locator(".flashes")).to_be_visible()
    crawl.check(confirmer, "player's page after confirming")

    disputer.goto(links[west.player_id])
    disputer.locator("#hand-1 details summary").click()
    disputer.locator("#hand-1 textarea[name=reason]").fill(TYPED)
    disputer.locator("#hand-1 form[action$='/hands/1/dispute'] button").click()
    expect(disputer.locator(".flashes")).to_be_visible()
    crawl.check(disputer, "player's page after disputing")


def referee_settles(crawl: Crawl, page: Page, t) -> None:
    """Time called at table 1 during hand 3 (hands left to enter), a dispute at table 2: the board's reasons."""
    from tournament.services.play import clock

    clock.call_time(t, 1, 1, 3, None)
    commit_setup()
    page.goto(f"/manage/tournaments/{t.id}/play/1/board")
    card = page.locator("[data-board-rows] > li").first
    expect(card).to_contain_text(TYPED)
    crawl.check(page, "referee board with a dispute")
    card.locator("form button[type=submit]").click()
    expect(page.locator(".flashes")).to_be_visible()
    crawl.check(page, "referee board, the dispute settled")


def player_offline(crawl: Crawl, context, page: Page, links, table_2) -> None:
    """North's phone: the page offline says so; a hand kept offline, the page's kept copy, the network back."""
    north = table_2[3]
    page.goto(links[north.player_id])
    page.evaluate("navigator.serviceWorker.ready")
    go_offline(context, page)
    expect(page.locator("#player-page-status")).to_be_visible()
    crawl.check(page, "player's page, no connection")
    context.set_offline(False)
    expect(page.locator("#player-page-status")).to_be_hidden()
    page.locator("a[href$='/hands/new']").click()
    go_offline(context, page)
    save_hand(page, None)
    expect(page.locator(".offline-queue")).to_be_visible()
    crawl.check(page, "player's hand form offline, a hand kept")
    page.goto(links[north.player_id])
    expect(page.locator("[data-offline-copy]")).to_have_count(1)
    crawl.check(page, "player's page offline, the kept copy")
    context.set_offline(False)
    expect(page.locator("[data-offline-copy]")).to_have_count(0, timeout=15_000)
    expect(page.locator("#hand-2")).to_be_visible()
    crawl.check(page, "player's page, the hand sent")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_referees_and_the_players_day_in_each_language(browser, live_server, day_in_play, referee, lang):
    """The referee enters a hand, has a save refused and records a substitution; at another table a player enters a
    hand and has a save refused, another confirms it, a third disputes it and the referee settles it on the board;
    a fourth loses the network, keeps a hand and gets it sent. Every page on the way is in `lang`, its visible text
    searched for English (tests/helpers.DAY_ENGLISH); what is found is collected and failed on at the end."""
    t, (table_1, table_2), links, sub = day_in_play
    t.language = lang
    commit_setup()
    names = [sp.player.full_name for sp in (*table_1, *table_2)] + [sub.full_name]
    crawl = Crawl(lang, [*names, *(n for name in names for n in name.split()), TOURNAMENT, t.name, TYPED,
                         ZONE, ZONE.replace("_", " ")])
    contexts = []
    try:
        context, referee_page = phone_in(browser, live_server, lang)
        contexts.append(context)
        referee_page.goto("/login")
        referee_page.locator("input[name=email]").fill(referee.email)
        referee_page.locator("input[name=password]").fill(PASSWORD)
        referee_page.locator("main form [type=submit]").click()
        referee_page.wait_for_url("**/manage")
        crawl.check(referee_page, "my events")
        referee_enters_refuses_and_substitutes(crawl, referee_page, t, table_1, sub)
        phones = []
        for _ in range(4):
            context, phone_page = phone_in(browser, live_server, lang)
            contexts.append(context)
            phones.append((context, phone_page))
        players_enter_confirm_and_dispute(crawl, [p for _, p in phones[:3]], links, table_2)
        referee_settles(crawl, referee_page, t)
        player_offline(crawl, *phones[3], links, table_2)
    finally:
        for context in contexts:
            context.close()
    assert not crawl.gaps, f"English on the pages in {lang}: {crawl.gaps}"
