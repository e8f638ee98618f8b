"""The public standings on a player's phone (issue 32 item 2), at 390 x 844 and on a laptop (1280), in Finnish and
Chinese: the page does not scroll sideways; rank, name, table points and score are on screen, no cell clipped
(the Finnish header "PELIPISTEET" and a score of 280 whole); names wrap only between words or at a hyphen, never
inside a word ("Virtane n"); the leader's row is on the first screen (the session buttons fold into one control);
team, country and the sessions' columns on the wider screen."""

from __future__ import annotations

import pytest

from tests.browser.conftest import commit_setup, phone_context

pytestmark = pytest.mark.browser

NAMES = [("Aino", "Virtanen"), ("Mikko", "Korhonen"), ("Liisa", "Mäkinen"), ("Juha", "Nieminen"),
         ("Sanna", "Mäkelä"), ("Pekka", "Hämäläinen"), ("Tiina", "Laine"), ("Antti", "Heikkinen"),
         ("Maximiliane-Alexandrina", "Vanderbeek-Oppenheimer"), ("Kaarina", "Koskinen-Järvinen"),
         ("Ville", "Lehtonen"), ("Outi", "Lehtinen"), ("Jussi", "Salminen"), ("Riikka", "Heinonen"),
         ("Timo", "Niemelä"), ("Hannele", "Kärkkäinen-Wolff")]
# Scores in the hundreds: the score column is the widest figure on the page.
SCORES = [(280, 45, -120, -205), (312, -12, -88, -212), (199, 101, -100, -200)]


@pytest.fixture
def finnish_event(tournament):
    """16 Finnish players in teams and countries, three sessions played by totals (scores in the hundreds) and
    finished; the tournament in Finnish. Returns (tournament, the leader's name)."""
    from tournament.extensions import db
    from tournament.services.people import registration as reg
    from tournament.services.people.registration import PlayerData
    from tournament.services.play import scoring
    from tournament.services.play import session as play
    from tournament.services.results import standings
    from tournament.services.seating import draws as draw_service
    from tournament.services.seating import lifecycle

    tournament.language = "fi"
    tournament.session_count = 3
    for i, (first, last) in enumerate(NAMES):
        reg.check_in(reg.add_player(tournament, PlayerData(
            first_name=first, last_name=last, country=("FI", "SE", "EE", "CN")[i % 4],
            team=("Helsingin Mahjong-seura", "Tampereen Tuulet", "Turun Lohikäärmeet", "Oulun Bambu")[i % 4])))
    for number, scores in enumerate(SCORES, start=1):
        draw_service.draw_next(tournament, seed=number)
        lifecycle.start_session(tournament, number)
        session = play.get_session(tournament, number)
        for table in range(1, 5):
            ids = [sp.player_id for sp in play.table_players(session, table)]
            scoring.enter_totals(tournament, number, table, dict(zip(ids, scores, strict=True)), None)
        lifecycle.finish_session(tournament, number)
    db.session.commit()
    commit_setup()
    return tournament, standings.standings(tournament).rows[0].name


BROKEN_WORDS = """() => {
    // Every line break inside a name: the character before it must be a space or a hyphen (or the break falls on a
    // space). Returns the names broken inside a word, with the two halves.
    const broken = [];
    for (const cell of document.querySelectorAll('.standings-table tbody .player-name a')) {
        const text = cell.firstChild;
        if (!text || text.nodeType !== Node.TEXT_NODE) continue;
        const range = document.createRange();
        let lastTop = null;
        for (let i = 0; i < text.length; i++) {
            range.setStart(text, i); range.setEnd(text, i + 1);
            const rects = range.getClientRects();
            if (!rects.length) continue;  // a collapsed space at a line's end
            const top = rects[0].top;
            if (lastTop !== null && top > lastTop + 2) {
                const before = text.data[i - 1], here = text.data[i];
                if (!(/[\\s\\-‐]/.test(before) || /\\s/.test(here)))
                    broken.push(text.data.slice(0, i) + ' | ' + text.data.slice(i));
            }
            lastTop = top;
        }
    }
    return broken;
}"""

CLIPPED = """() => {
    // Cells of the four columns a phone must show: beyond the screen, or their content wider than the cell.
    const out = [];
    const rows = document.querySelectorAll('.standings-table tr');
    for (const row of rows) {
        for (const cell of row.children) {
            const style = getComputedStyle(cell);
            if (style.display === 'none') continue;
            const box = cell.getBoundingClientRect();
            if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
                out.push('beyond the screen: ' + cell.textContent.trim() + ' ' + Math.round(box.right));
            if (cell.scrollWidth > cell.clientWidth + 1)
                out.push('clipped: ' + cell.textContent.trim() + ' ' + cell.scrollWidth + '>' + cell.clientWidth);
        }
    }
    for (const wrap of document.querySelectorAll('.table-wrap'))
        if (wrap.scrollWidth > wrap.clientWidth + 1) out.push('table scrolls: ' + wrap.scrollWidth + '>' + wrap.clientWidth);
    return out;
}"""


def shown_columns(page) -> list[str]:
    """The header cells shown (display not none), by their class or text."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('.standings-table thead th'))
        .filter(th => getComputedStyle(th).display !== 'none').map(th => th.className + ':' + th.textContent.trim())""")


@pytest.mark.parametrize("lang", ["fi", "zh"])
def test_standings_on_a_phone(browser, live_server, finnish_event, lang):
    t, leader = finnish_event
    context, page = phone_context(browser, live_server)
    try:
        page.goto(f"/t/{t.id}/standings?lang={lang}")
        page.wait_for_load_state("load")
        width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
        assert width[0] <= width[1], f"the page is {width[0]} px wide on a {width[1]} px phone"
        assert page.evaluate(CLIPPED) == []
        assert page.evaluate(BROKEN_WORDS) == []
        # rank, name, table points and score; not team, country, sessions
        columns = shown_columns(page)
        assert len(columns) == 4, columns
        assert not any("country-col" in c or "session-col" in c for c in columns), columns
        # the leader on the first screen, without scrolling
        first = page.locator(".standings-table tbody tr").first
        assert leader in first.inner_text()
        box = first.bounding_box()
        assert box["y"] + box["height"] <= 844, f"the leader's row ends at {box['y'] + box['height']:.0f} px"
        # the session buttons are one control, which opens to them
        sessions = page.locator("details.standings-more")
        assert sessions.count() == 1
        assert not page.locator(f"a[href='/t/{t.id}/standings/sessions/2']").first.is_visible()
        sessions.locator("summary").click()
        page.locator(f"details.standings-more a[href='/t/{t.id}/standings/sessions/2']").click()
        page.wait_for_url(f"**/t/{t.id}/standings/sessions/2*")
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["fi", "zh"])
def test_standings_on_a_laptop_show_team_country_and_sessions(page, finnish_event, lang):
    t, leader = finnish_event
    page.goto(f"/t/{t.id}/standings?lang={lang}")
    width = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate(BROKEN_WORDS) == []
    columns = shown_columns(page)
    assert any("country-col" in c for c in columns) and sum("session-col" in c for c in columns) == 3, columns
    assert page.locator(".standings-table tbody .team").first.is_visible()
    # the session buttons side by side, not folded
    assert page.locator(f"a[href='/t/{t.id}/standings/sessions/2']").first.is_visible()
