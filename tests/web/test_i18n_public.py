"""The public pages in each language (issue 24, second slice): every page a player or spectator reads renders in
English, Finnish, Swedish, Spanish and Chinese with <html lang> right and no text of its templates left in
English; table points, scores and dates by locale on the pages, the JSON unchanged."""

from __future__ import annotations

import html
import json
import re
from datetime import date
from fractions import Fraction

import pytest

from tests.helpers import (
    TEMPLATES,
    check_page_languages,
    english_pieces,
    make_tournament,
    players_of,
    shown,
    unwrapped_words,
    visible_text,
)
from tournament.extensions import db
from tournament.i18n import LANGUAGES
from tournament.models import EntryMode
from tournament.services.people import player_links
from tournament.services.play import session as play

PUBLIC_DIRS = ("public", "standings", "seating", "live", "errors", "player_page")
# The Python files whose texts these pages show: labels, error pages, the chart, the hand form, flash messages.
PAGE_SOURCES = ("tournament/i18n/labels.py", "tournament/web/errors.py", "tournament/web/live/chart.py",
                "tournament/web/hands/forms.py", "tournament/web/player_page/forms.py",
                "tournament/web/player_page/routes.py")
def without_data(text: str, t) -> str:
    """The page's text without what the organisers typed (names, clubs, teams, venue): "Team Kyoto" is data."""
    typed = {t.name, t.venue or ""}
    for p in players_of(t):
        typed |= {p.first_name, p.last_name, p.club or "", p.team or ""}
    for value in sorted(filter(None, typed), key=len, reverse=True):
        text = text.replace(value, " ")
    return text


def demo_pages(t) -> dict[str, int]:
    """Every public page of the demo tournament (session 1 finished, 2 in play with a substitute, 3 by totals)
    and a player's private page and hand form, with the status each answers."""
    session2 = t.sessions[1]
    player_id = session2.seats[0].player_id
    token = player_links.token_of(player_links.link_of(t, player_id))
    t.entry_mode = EntryMode.PLAYERS  # the players' own hand form is offered
    db.session.commit()
    base = f"/t/{t.id}"
    return {
        "/": 200, base: 200, f"{base}/players": 200,
        f"{base}/standings": 200, f"{base}/standings/sessions/1": 200, f"{base}/standings/sessions/2": 200,
        f"{base}/standings/teams": 200,
        f"{base}/seating": 200, f"{base}/seating/2": 200, f"{base}/seating/2/projector": 200,
        f"{base}/seating/2/projector?by=name": 200, f"{base}/seating/player/{player_id}": 200,
        f"{base}/players/{player_id}": 200, f"{base}/statistics": 200, f"{base}/projector": 200,
        f"{base}/schedule": 200, f"{base}/sessions/2/clock": 200,
        "/no/such/page": 404,
        f"/p/{token}": 200, f"/p/{token}/hands/new": 200,
    }


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_public_page_in_each_language(app, client, demo_tournament, lang, template_messages, translations):
    checked_texts = check_page_languages(app, client, demo_pages(demo_tournament), lang, PAGE_SOURCES,
                                         lambda text: without_data(text, demo_tournament), template_messages,
                                         translations)
    assert checked_texts > 500


def test_the_english_pages_show_the_texts_the_check_looks_for(client, demo_tournament):
    # the check above finds English where it is left: on the English pages the same texts are found
    t = demo_tournament
    text = visible_text(client.get(f"/t/{t.id}/standings?lang=en").get_data(as_text=True))
    for piece in ("Table points", "Standings", "Players equal on all share the rank. Substitutes are not ranked."):
        assert shown(piece, text), piece
    assert english_pieces("computed %(time)s from every hand and penalty entered") == [
        "from every hand and penalty entered"]  # "computed" alone is too short to tell


def test_the_public_templates_hold_no_unwrapped_text():
    """A text written in a template outside the translation calls would stay English in every language."""
    files = [p for d in PUBLIC_DIRS for p in (TEMPLATES / d).glob("*.html")] + [
        TEMPLATES / name for name in ("hands/_hand_bits.html", "schedule/public.html", "clock/projector.html",
                                      "clock/_bits.html")]
    problems = {str(path.relative_to(TEMPLATES)): words for path in files if (words := unwrapped_words(path))}
    assert len(files) >= 21
    assert not problems, problems


@pytest.mark.parametrize(("lang", "quarter", "half"), [
    ("en", "1.75", "1.5"), ("fi", "1,75", "1,5"), ("sv", "1,75", "1,5"), ("es", "1,75", "1,5"), ("zh", "1.75", "1.5"),
])
def test_table_points_in_the_readers_format(client, quarter_points, lang, quarter, half):
    t = quarter_points
    standings = visible_text(client.get(f"/t/{t.id}/standings?lang={lang}").get_data(as_text=True))
    assert standings.count(quarter) >= 4 and half in standings
    if quarter != "1.75":
        assert "1.75" not in standings and "1.5" not in standings
    session = visible_text(client.get(f"/t/{t.id}/standings/sessions/1?lang={lang}").get_data(as_text=True))
    assert quarter in session and half in session
    player_id = play.table_players(play.get_session(t, 1), 1)[0].player_id
    player = visible_text(client.get(f"/t/{t.id}/players/{player_id}?lang={lang}").get_data(as_text=True))
    assert quarter in player
    # the projector's script writes the JSON's points with the page's separator
    projector = client.get(f"/t/{t.id}/projector?lang={lang}").get_data(as_text=True)
    assert f"&#34;decimal&#34;: &#34;{quarter[1]}&#34;" in projector
    # the JSON keeps its own format whatever the language
    data = client.get(f"/t/{t.id}/live/standings.json?lang={lang}").get_json()
    assert sorted({row["table_points"] for row in data["rows"]}) == [0, 1.5, 1.75, 4]


@pytest.mark.parametrize(("lang", "dates"), [
    ("en", "May 9\u2009–\u200911, 2026"), ("fi", "9.–11. toukokuuta 2026"), ("sv", "9–11 maj 2026"),
    ("es", "9–11 may 2026"), ("zh", "2026年5月9日\u2009–\u200911日"),
])
def test_tournament_dates_in_the_readers_format(client, organiser, quarter_points, lang, dates):
    t = quarter_points
    for url in ("/", f"/t/{t.id}"):
        assert dates in client.get(f"{url}?lang={lang}").get_data(as_text=True), url
    one_day = make_tournament(organiser, name="One day", start_date=date(2026, 6, 1), end_date=date(2026, 6, 1))
    day = {"en": "Jun 1, 2026", "fi": "1.6.2026", "sv": "1 juni 2026", "es": "1 jun 2026", "zh": "2026年6月1日"}[lang]
    assert day in client.get(f"/t/{one_day.id}?lang={lang}").get_data(as_text=True)


def test_a_finnish_page_in_finnish_words(client, quarter_points):
    t = quarter_points
    body = client.get(f"/t/{t.id}/standings?lang=fi").get_data(as_text=True)
    for words in ("Tulostaulukko", "Pöytäpisteet", "Pelipisteet", "Kierroksen 1 jälkeen"):
        assert words in body, words
    players = visible_text(client.get(f"/t/{t.id}/players?lang=fi").get_data(as_text=True))
    assert "8 pelaajaa" in players
    assert "Kierroksen 1 istumajärjestys" in visible_text(client.get(f"/t/{t.id}/seating/1?lang=fi").get_data(as_text=True))


# One language a test: a test's requests share its application context, where Flask-Babel keeps the locale.
@pytest.mark.parametrize(("lang", "message"), [
    ("en", "In this tournament the referees enter the hands: confirm them or dispute them here."),
    ("sv", "I den här turneringen registrerar domarna händerna: bekräfta eller bestrid dem här."),
    ("zh", "本次比赛由裁判录入牌局：请在此确认或提出异议。"),
])
def test_a_player_page_flash_in_the_readers_language(client, seated, lang, message):
    t, ids = seated
    token = player_links.token_of(player_links.link_of(t, ids[0]))
    db.session.commit()
    # the referees enter the hands here: the players' form sends them back with a message in their language
    answer = client.get(f"/p/{token}/hands/new?lang={lang}", follow_redirects=True)
    assert message in answer.get_data(as_text=True)


def test_the_404_page_in_each_language(client):
    expected = {"en": "There is no page at this address.", "fi": "Tässä osoitteessa ei ole sivua.",
                "sv": "Det finns ingen sida på den här adressen.", "es": "No hay ninguna página en esta dirección.",
                "zh": "此网址没有页面。"}
    for lang, message in expected.items():
        response = client.get(f"/no/such/page?lang={lang}")
        assert response.status_code == 404 and message in response.get_data(as_text=True)
    # the JSON answers keep the English message
    assert client.get("/no/such/page.json?lang=fi").get_json()["error"] == "There is no page at this address."


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"table": "Table {num}", "called_during": "Time called during hand {num}", "warning": "Last 15 minutes"}),
    ("fi", {"table": "Pöytä {num}", "called_during": "Aika loppui käden {num} aikana",
            "warning": "Viimeiset 15 minuuttia"}),
    ("es", {"table": "Mesa {num}", "warning": "Últimos 15 minutos"}),
    ("zh", {"table": "第 {num} 桌", "time": "时间到", "called_between": "在两盘之间叫停"}),
])
def test_the_clock_script_is_given_the_readers_words(client, demo_tournament, lang, words):
    """clock.js writes the state and the tables' rows itself: the projector gives it the words (data-clock-texts)."""
    body = client.get(f"/t/{demo_tournament.id}/sessions/2/clock?lang={lang}").get_data(as_text=True)
    texts = json.loads(html.unescape(re.search(r'data-clock-texts="([^"]*)"', body).group(1)))
    for key, expected in words.items():
        assert texts[key] == expected, (key, texts[key])
    if lang != "en":
        english = {"Time", "Not started", "Paused", "Running", "Time called between hands"}
        assert not english & {value for value in texts.values() if isinstance(value, str)}, texts
    # the referee board's rows are the server's (a card per table, issue 32): no words for them
    assert not {"reasons", "totals", "hand", "between_hands"} & set(texts), texts


def test_numbers_kept_per_language_also_when_a_pdf_switches_it(app):
    # the formatted numbers are kept (a standings page writes thousands) per language: a PDF printed in the
    # tournament's language within a Finnish page's request gets its own language's, and back
    from flask_babel import force_locale

    from tournament.i18n import score, table_points

    with app.test_request_context("/?lang=fi"):
        assert score(-1234) == "-1\u00a0234" and table_points(Fraction(7, 4)) == "1,75"
        with force_locale("en"):
            assert score(-1234) == "-1,234" and table_points(Fraction(7, 4)) == "1.75"
        with force_locale("zh"):
            assert score(-1234) == "-1,234" and table_points(Fraction(7, 3)) == "2.33"
        assert score(-1234) == "-1\u00a0234" and table_points(Fraction(7, 3)) == "2,33"
