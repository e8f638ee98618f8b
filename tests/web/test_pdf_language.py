"""The standings PDF and the score sheets in the tournament's language (issue 24): a printed sheet has no reader
to ask, so the tournament's default language decides, whatever the language of the page it is printed from;
English by default, as before. Chinese words are set in a font that has them (the PDF's text reads back)."""

from __future__ import annotations

import re

import pytest

from tests.helpers import pdf_text
from tournament.extensions import db


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
