"""Issue 32 item 5: every PDF of the project, printed in each of the five languages from a played tournament with
long, real names, keeps every text in its box (tests/pdf/boxes.py: the glyphs and rules read back from the PDF
itself). Before the fix, 7 of the 40 failed here: the Finnish score sheet ("Allekirjoitukset" through the rule
and into "Tuomari:", on each of its 8 pages), the Swedish schedule cards ("Omgång" out of its column and past
the page's margin) and the observer report in every language (each heading down on the table under it).

The checker's own tests come first: it finds a cell's text run into the next column, text over text and text
past the margin, and passes a table that fits."""

from __future__ import annotations

import io
import random
from datetime import datetime

import pytest
from flask_babel import force_locale
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import SimpleDocTemplate, Table

from tests.helpers import players_of
from tests.pdf.boxes import outlined_cells, plain_qr_codes, problems
from tournament import timezones
from tournament.extensions import db
from tournament.pdf import cards, player_links
from tournament.pdf.cards import CardEntry, ScheduleCard
from tournament.pdf.score_sheets import SheetPlayer, SheetTable, SheetWords, build_score_sheets_pdf
from tournament.pdf.standings import build_standings_pdf
from tournament.pdf.style import MARGIN
from tournament.services.documents import briefing, ema_pack, exports
from tournament.services.play import penalties
from tournament.services.results.ranking import Entrant, TableResult, rank_players

LANGUAGES = ("en", "fi", "sv", "es", "zh")

# Long but real: double-barrelled Finnish and Swedish names, a Spanish name of four words, Chinese names in
# characters (a two-character family name among them), a Hungarian and a Vietnamese name written family name
# first, one very long German word.
NAMES = [
    ("Aino-Maija", "Järvinen-Öhman", "FI"),
    ("Väinö", "Hämäläinen-Pohjanpalo", "FI"),
    ("Ann-Sofie", "Gyllenhammar-Östergren", "SE"),
    ("María de los Ángeles", "Fernández-Villaverde", "ES"),
    ("娜娜", "欧阳", "CN"),
    ("相如", "司马", "CN"),
    ("János", "Kovács-Szentgyörgyi", "HU"),
    ("Thị Minh Khai", "Nguyễn", "VN"),
    ("Juan Carlos", "Rodríguez de la Fuente", "ES"),
    ("Maximiliane", "Wolfeschlegelsteinhausen", "DE"),
    ("Pirkko-Liisa", "Kärkkäinen", "FI"),
    ("伟", "张", "CN"),
]

TOURNAMENT_NAMES = {
    "en": "Helsinki International MCR Championship 2026",
    "fi": "Helsingin kansainvälinen MCR-mestaruusturnaus 2026",
    "sv": "Helsingfors internationella MCR-mästerskap 2026",
    "es": "Campeonato Internacional MCR de Helsinki 2026",
    "zh": "2026年赫尔辛基国际麻将竞赛规则锦标赛",
}

REASONS = {
    "en": "Repeatedly slow to discard after two warnings from the referee",
    "fi": "Toistuva pelin viivyttäminen kahdesta tuomarin varoituksesta huolimatta",
    "sv": "Upprepat långsamt spel trots två varningar från domaren",
    "es": "Juego lento reiterado a pesar de dos advertencias del árbitro",
    "zh": "经裁判两次警告后仍多次拖延出牌",
}


def link(token: str) -> str:
    return f"https://mcr.example.org/p/{token}"


DOCUMENTS = {
    "score sheets": lambda t: exports.score_sheets_pdf(t, 2),
    "seating": lambda t: exports.seating_pdf(t, 2),
    "schedule cards": lambda t: exports.schedule_cards_pdf(t, link),
    "player links": lambda t: exports.player_links_pdf(t, link),
    "standings": exports.standings_pdf,
    "penalties": exports.penalties_pdf,
    "rules briefing": briefing.briefing_pdf,
    "observer report": lambda t: ema_pack.observer_report(t),
}


def in_language(t, language: str, referee):
    """The demo tournament in `language`: its players at the first tables of session 2 renamed (NAMES), and a
    penalty with a long reason in the language given to the first of them."""
    t.language = language
    t.name = TOURNAMENT_NAMES[language]
    seated = [seat.player_id for seat in sorted(t.sessions[1].seats, key=lambda s: (s.table_number, s.seat_wind))]
    players = {p.id: p for p in players_of(t)}
    for player_id, (first, last, country) in zip(seated, NAMES, strict=False):
        player = players[player_id]
        player.first_name, player.last_name, player.country = first, last, country
    penalties.give_penalty(t, player_id=seated[0], session_number=2, amount=30, reason=REASONS[language],
                           user=referee, hand_number=12)
    db.session.commit()
    return t


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("document", DOCUMENTS)
def test_no_text_leaves_its_box(demo_tournament, referee, document, language):
    t = in_language(demo_tournament, language, referee)
    with outlined_cells(), plain_qr_codes(cards, player_links):
        pdf = DOCUMENTS[document](t).data
    found = problems(pdf)
    assert not found, "\n".join(str(p) for p in found)


# ----------------------------------------------------------------------------- beyond the demo: more of everything


def standing_rows(players: int, sessions: int):
    """`players` ranked over `sessions` sessions with four-digit scores of both signs and shared table points."""
    rng = random.Random(7)
    names = [" ".join(part for part in (first, last) if part) for first, last, _ in NAMES]
    entrants = [Entrant(i, f"{names[i % len(names)]} {i}", names[i % len(names)], "FI") for i in range(players)]
    tables = []
    for session in range(1, sessions + 1):
        order = rng.sample(range(players), players)
        for table in range(players // 4):
            ids = order[4 * table:4 * table + 4]
            a, b = rng.randint(-3000, 3000), rng.randint(-3000, 3000)
            tables.append(TableResult(table + 1, session, {ids[0]: a, ids[1]: b, ids[2]: a, ids[3]: -(2 * a + b)}))
    return rank_players(entrants, tables, session_numbers=list(range(1, sessions + 1)))


@pytest.mark.parametrize("language", LANGUAGES)
def test_twelve_sessions_of_standings_and_cards_fit(app_ctx, language):
    """Twelve session columns of "−1 234 / 2,5" on the standings, twelve sessions with their starts and tables
    past 100 on the cards: the columns measured, the type smaller before anything leaves its box."""
    sessions = list(range(1, 13))
    starts = {n: timezones.format_day(datetime(2026, 5, 15 + n // 4, 9 + n % 4 * 3, 30), "weekday time", language)
              for n in sessions}
    schedule = [ScheduleCard(i, name, name, "FI", [CardEntry(n, 100 + n + i, "ESWN"[(n + i) % 4]) for n in sessions],
                             link=link("abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"))
                for i, name in enumerate(f"{first} {last}" for first, last, _ in NAMES[:6])]
    with force_locale(language), outlined_cells(), plain_qr_codes(cards, player_links):
        standings = build_standings_pdf(TOURNAMENT_NAMES[language], "1-12", standing_rows(40, 12), sessions,
                                        datetime(2026, 5, 17, 18), exports.standings_words())
        card_pdf = cards.build_cards_pdf(TOURNAMENT_NAMES[language], "", schedule, sessions, datetime(2026, 5, 17, 18),
                                         starts=starts, words=exports.card_words())
    found = problems(standings) + problems(card_pdf)
    assert not found, "\n".join(str(p) for p in found)


# ----------------------------------------------------------------------------- the checker finds what it should


def table_pdf(rows: list[list[str]], widths: list[float]) -> bytes:
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(buffer, pagesize=A4, leftMargin=MARGIN, rightMargin=MARGIN)
    with outlined_cells():
        doc.build([Table(rows, colWidths=widths)])
    return buffer.getvalue()


def test_a_table_that_fits_passes():
    assert problems(table_pdf([["Nimi", "Maa"], ["Aino Järvinen", "FI"]], [120, 60])) == []


def test_a_cell_run_into_the_next_column_is_found():
    # No rule between the columns in the document itself: the cells' outlines are what it crosses.
    found = problems(table_pdf([["Allekirjoitukset", "Tuomari:"]], [50, 60]))
    assert [(p.kind, p.text) for p in found if p.kind == "crosses a cell's edge"] == [
        ("crosses a cell's edge", "Allekirjoitukset")]


def canvas_pdf(draw) -> bytes:
    buffer = io.BytesIO()
    canvas = pdfcanvas.Canvas(buffer, pagesize=A4)
    canvas.setFont("Helvetica", 10)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def test_text_over_text_and_across_a_rule_and_past_the_margin_are_found():
    def draw(c):
        c.drawString(100, 700, "Allekirjoitukset")
        c.drawString(150, 700, "Tuomari:")   # over the end of the word before it
        c.line(120, 600, 120, 640)
        c.drawString(100, 620, "Pohjoinen")  # through the rule
        c.drawString(A4[0] - MARGIN - 20, 500, "Pohjoinen")  # past the right margin

    kinds = {(p.kind, p.text) for p in problems(canvas_pdf(draw))}
    assert ("over other text", "Allekirjoitukset") in kinds
    assert ("crosses a rule", "Pohjoinen") in kinds
    assert ("outside the margins", "Pohjoinen") in kinds


def test_text_that_only_comes_near_a_rule_passes():
    def draw(c):
        c.line(120, 600, 120, 640)
        c.drawString(123, 620, "Tuomari:")
        c.drawString(100, 700, "Aino")
        c.drawString(130, 700, "Järvinen")

    assert problems(canvas_pdf(draw)) == []


def test_the_finnish_score_sheet_labels_keep_to_their_columns():
    """The builder alone, with the Finnish sheet's words: the labels that overflowed measured into their boxes."""
    words = SheetWords(header=("Käsi", "Tuuli", "Voittaja", "Viskaaja", "Fanit", "Pisteet"),
                       signatures="Allekirjoitukset", referee="Tuomari:", final_score="Loppupisteet",
                       starts="aloittaa: %(wind)s",
                       winds={"E": "Itä", "S": "Etelä", "W": "Länsi", "N": "Pohjoinen"},
                       initials={"E": "I", "S": "E", "W": "L", "N": "P"})
    table = SheetTable(1, [SheetPlayer(w, name) for w, name in zip("ESWN", (
        "Aino-Maija Järvinen-Öhman", "Väinö Hämäläinen-Pohjanpalo", "欧阳娜娜", "Pirkko-Liisa Kärkkäinen"),
        strict=True)])
    with outlined_cells():
        pdf = build_score_sheets_pdf("Helsingin MCR-mestaruusturnaus", "Kierros 2", 2, [table],
                                     datetime(2026, 5, 16, 10), words)
    assert problems(pdf) == []
