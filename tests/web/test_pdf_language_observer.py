"""The EMA observer's draft report in the tournament's language (issue 24), as the other printed documents:
whatever the language of the page it is printed from; English by default, as before."""

from __future__ import annotations

import re
from datetime import date

import pytest

from tests.helpers import pdf_text
from tournament.extensions import db


def squeezed(text: str) -> str:
    """Text without its white space: pypdf puts a line break where a run changes font (Chinese, then digits)."""
    return re.sub(r"\s+", "", text)


def report_text(client, t) -> str:
    answer = client.get(f"/manage/tournaments/{t.id}/exports/ema-observer-report.pdf?lang=sv")  # a Swedish page
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    return squeezed("".join(pdf_text(answer.data)))


ENGLISH = ("EMA observer report (draft)", "Ranked players by country", "Observer's remarks", "Closed at",
           "Penalties move table points", "Page 1 of")


def test_english_by_default(organiser_client, played):
    text = report_text(organiser_client, played)
    for words in (*ENGLISH, "MERS weight: ", "Sessions", "finished"):
        assert squeezed(words) in text, words


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("EMA:n tarkkailijan raportti (luonnos)", "Sijoitetut pelaajat maittain", "Tarkkailijan huomautukset",
            "Rangaistukset vaikuttavat pöytäpisteisiin", "MERS-paino: 3,5", "Kierrokset", "päättynyt", "Allekirjoitus:",
            "5.–7. kesäkuuta 2026", "Suomi", "Sivu 1 / ")),
    ("zh", ("EMA 观察员报告（草稿）", "按国家/地区统计的有排名选手", "观察员意见", "罚分影响标准分", "MERS 权重：3.5",
            "已结束", "签名：", "芬兰")),
])
def test_in_the_tournaments_language_whatever_the_page(organiser_client, played, lang, words):
    played.language = lang
    played.start_date, played.end_date = date(2026, 6, 5), date(2026, 6, 7)
    db.session.commit()
    text = report_text(organiser_client, played)
    for word in words:
        assert squeezed(word) in text, word
    for english in ENGLISH:
        assert squeezed(english) not in text, english
