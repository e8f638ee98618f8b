"""The standings PDF and the score sheets in the tournament's language (issue 24): a printed sheet has no reader
to ask, so the tournament's default language decides, whatever the language of the page it is printed from;
English by default, as before. Chinese words are set in a font that has them (the PDF's text reads back)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import select

from tests.helpers import pdf_text
from tournament.extensions import db
from tournament.models import Player
from tournament.services.play import penalties


def squeezed(text: str) -> str:
    """Text without its white space: pypdf puts a line break where a run changes font (Chinese, then digits)."""
    return re.sub(r"\s+", "", text)


def _pdfs(client, t, lang: str | None = None) -> tuple[str, str]:
    base = f"/manage/tournaments/{t.id}"
    query = f"?lang={lang}" if lang else ""
    standings = client.get(f"{base}/standings.pdf{query}")
    sheets = client.get(f"{base}/exports/sessions/1/score-sheets.pdf{query}")
    assert standings.status_code == 200 and sheets.status_code == 200
    return squeezed("".join(pdf_text(standings.data))), squeezed("".join(pdf_text(sheets.data)))


def test_english_by_default(organiser_client, played):
    standings, sheets = _pdfs(organiser_client, played)
    for words in ("Helsinki Open: standings", "Sessions counted: 1", "Rank", "Table pts", "S1", "Page 1 of 1",
                  "Generated"):
        assert squeezed(words) in standings, words
    for words in ("Session 1 · Table 1", "Hand", "Winner", "Final score", "Signatures", "Referee:", "starts East",
                  "Page 1 of 2"):
        assert squeezed(words) in sheets, words


@pytest.mark.parametrize(("lang", "standings_words", "sheet_words"), [
    ("fi", ("Helsinki Open: tulostaulukko", "Lasketut kierrokset: 1", "Sija", "Pöytäp.", "K1", "Sivu 1 / 1", "Luotu"),
     ("Kierros 1 · Pöytä 1", "Voittaja", "Viskaaja", "Loppupisteet", "Allekirjoitukset", "Tuomari:",
      "aloittaa: Itä", "Sivu 1 / 2")),
    ("es", ("Helsinki Open: clasificación", "Rondas contadas: 1", "Posición", "Pts. mesa", "R1", "Página 1 de 1"),
     ("Ronda 1 · Mesa 1", "Ganador", "Puntuación final", "Firmas", "Árbitro:", "empieza de Este", "Página 1 de 2")),
    ("zh", ("Helsinki Open：排名", "已计入轮次：1", "名次", "标准分", "第 1 页，共 1 页"),
     ("第 1 轮 · 第 1 桌", "和牌者", "点炮者", "最终得分", "签名", "起始门风：东", "第 1 页，共 2 页")),
])
def test_in_the_tournaments_language_whatever_the_page(organiser_client, played, lang, standings_words,
                                                       sheet_words):
    played.language = lang
    db.session.commit()
    standings, sheets = _pdfs(organiser_client, played, lang="sv")  # printed from a Swedish page
    for words in standings_words:
        assert squeezed(words) in standings, words
    for words in sheet_words:
        assert squeezed(words) in sheets, words
    for english in ("Rank", "Table pts", "Final score", "Signatures", "Page 1 of"):
        assert squeezed(english) not in standings + sheets, english


def _other_pdfs(client, t) -> dict[str, str]:
    base = f"/manage/tournaments/{t.id}/exports"
    found = {}
    for name in ("sessions/1/seating.pdf", "schedule-cards.pdf", "player-links.pdf", "penalties.pdf"):
        answer = client.get(f"{base}/{name}?lang=sv")  # printed from a Swedish page: the tournament's language wins
        assert answer.status_code == 200, name
        found[name] = squeezed("".join(pdf_text(answer.data)))
    return found


@pytest.mark.parametrize(("lang", "words"), [
    ("en", {"sessions/1/seating.pdf": ("Helsinki Open: seating", "By table", "Country"),
            "schedule-cards.pdf": ("Helsinki Open: schedule cards", "Your table and seat in every session"),
            "player-links.pdf": ("Helsinki Open: player links", "Private: each code"),
            "penalties.pdf": ("Helsinki Open: penalties", "1 active, 0 cancelled", "Reason", "active")}),
    ("fi", {"sessions/1/seating.pdf": ("Helsinki Open: istumajärjestys", "Pöydittäin", "Pelaajittain", "Kierros 1"),
            "schedule-cards.pdf": ("Helsinki Open: aikataulukortit", "Pöytäsi ja paikkasi joka kierroksella"),
            "player-links.pdf": ("Helsinki Open: pelaajien linkit", "Yksityinen:"),
            "penalties.pdf": ("Helsinki Open: rangaistukset", "1 voimassa, 0 peruttu", "Syy", "Sivu 1 / 1")}),
    ("zh", {"sessions/1/seating.pdf": ("Helsinki Open：座位表", "按桌查看", "按选手查看", "第 1 轮"),
            "schedule-cards.pdf": ("Helsinki Open：赛程卡", "你每一轮的牌桌和座位"),
            "player-links.pdf": ("Helsinki Open：选手链接", "私密："),
            "penalties.pdf": ("Helsinki Open：罚分", "扣分", "原因", "有效")}),
])
def test_the_seating_cards_links_and_penalties_in_the_tournaments_language(organiser_client, played, lang, words):
    player_id = db.session.scalars(select(Player.id).where(Player.tournament_id == played.id)).first()
    penalties.give_penalty(played, player_id=player_id, session_number=1, amount=5, reason="slow play", user=None)
    played.language = lang
    db.session.commit()
    found = _other_pdfs(organiser_client, played)
    for name, expected in words.items():
        for text in expected:
            assert squeezed(text) in found[name], (name, text)
    if lang != "en":
        for name, english in (("sessions/1/seating.pdf", "By player"), ("schedule-cards.pdf", "Your table"),
                              ("player-links.pdf", "Private:"), ("penalties.pdf", "cancelled")):
            assert squeezed(english) not in found[name], (name, english)
