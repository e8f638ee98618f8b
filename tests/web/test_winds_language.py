"""Seat winds in the reader's language (issue 32 item 4): the word where there is room, else the language's own
initial, never the English letters on a page or sheet in another language. In Finnish E is Etelä, South: a
Finnish reader seeing "E" for East sits in the wrong seat."""

from __future__ import annotations

import html as html_module
import json
import re

import pytest

from tests.helpers import pdf_text
from tournament.extensions import db
from tournament.i18n.winds import all_winds, wind_words
from tournament.rotation import hand_winds

EXPECTED = {
    "en": (["East", "South", "West", "North"], "ESWN"),
    "fi": (["Itä", "Etelä", "Länsi", "Pohjoinen"], "IELP"),
    "sv": (["Öst", "Syd", "Väst", "Nord"], "ÖSVN"),
    "es": (["Este", "Sur", "Oeste", "Norte"], "ESON"),
    "zh": (["东", "南", "西", "北"], "东南西北"),
}


@pytest.mark.parametrize("lang", sorted(EXPECTED))
def test_one_function_names_every_wind_and_its_initial(app, lang):
    names, initials = EXPECTED[lang]
    with app.test_request_context():
        words = all_winds(lang)
        assert [w.name for w in words.values()] == names
        assert "".join(w.initial for w in words.values()) == initials
        assert list(words) == ["E", "S", "W", "N"]


def test_the_reader_s_language_when_none_is_given(app):
    with app.test_request_context("/?lang=fi"):
        assert wind_words("E") == ("Itä", "I")
        assert wind_words("S") == ("Etelä", "E")
    with app.test_request_context("/"):
        assert wind_words("E") == ("East", "E")
    with app.test_request_context():
        assert wind_words("X") == ("X", "X")  # no wind: shown as it is


def badges(html: str) -> list[str]:
    """The letters shown in the wind badges of a page."""
    return re.findall(r'<span class="wind wind-[ESWN][^"]*"[^>]*>([^<]*)</span>', html)


@pytest.mark.parametrize(("lang", "allowed"), [("fi", set("IELP")), ("sv", set("ÖSVN")), ("es", set("ESON")),
                                               ("zh", set("东南西北")), ("en", set("ESWN"))])
def test_public_seating_and_player_pages_show_the_language_s_initials(client, in_play, lang, allowed):
    t = in_play
    pages = [f"/t/{t.id}/seating/1?lang={lang}", f"/t/{t.id}/standings/sessions/1?lang={lang}"]
    seen = set()
    for url in pages:
        answer = client.get(url)
        assert answer.status_code == 200, url
        shown = badges(answer.get_data(as_text=True))
        assert shown, url
        seen.update(shown)
    assert seen == allowed


def test_finnish_seating_badges_say_ita_where_the_english_said_e(client, in_play):
    html = client.get(f"/t/{in_play.id}/seating/1?lang=fi").get_data(as_text=True)
    assert re.search(r'<span class="wind wind-E" title="Itä">I</span>', html)
    assert re.search(r'<span class="wind wind-S" title="Etelä">E</span>', html)
    assert 'title="East"' not in html


def test_the_hand_form_s_scripts_get_the_initials(organiser_client, in_play):
    html = organiser_client.get(f"/manage/tournaments/{in_play.id}/play/1/tables/1/hands/new?lang=fi").get_data(
        as_text=True)
    texts = json.loads(html_module.unescape(re.search(r'data-script-texts="([^"]*)"', html)[1]))
    assert texts["hands"]["initials"] == {"E": "I", "S": "E", "W": "L", "N": "P"}
    assert texts["hands"]["winds"] == {"E": "Itä", "S": "Etelä", "W": "Länsi", "N": "Pohjoinen"}
    # the seat buttons' badges before the script runs: the initials too
    assert set(badges(html)) <= set("IELP")


def squeezed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_finnish_score_sheet_has_no_english_letter_for_a_wind(organiser_client, in_play):
    """The Finnish sheet said "Itä" in the header and "E" in the boxes: now I, E, L, P throughout, with the key."""
    in_play.language = "fi"
    db.session.commit()
    answer = organiser_client.get(f"/manage/tournaments/{in_play.id}/exports/sessions/1/score-sheets.pdf")
    assert answer.status_code == 200
    page = pdf_text(answer.data)[0]
    assert "I = Itä · E = Etelä · L = Länsi · P = Pohjoinen" in page.replace("\n", " ")
    # every hand: its number, the round (all four names do not fit the column: the initials), the four boxes
    rows = re.findall(r"^(\d{1,2})\s([IELP])\s([IELP])\s([IELP])\s([IELP])\s([IELP])$", page, re.M)
    assert sorted(int(r[0]) for r in rows) == list(range(1, 17))
    finnish = dict(zip("ESWN", "IELP", strict=True))
    for number, prevalent, *boxes in rows:
        winds = hand_winds(int(number))
        assert prevalent == finnish[winds.prevalent]
        assert boxes == [finnish[winds.seat_winds[start]] for start in "ESWN"]
    assert "aloittaa: Itä" in page


def test_english_score_sheet_keeps_names_in_the_round_column(organiser_client, in_play):
    answer = organiser_client.get(f"/manage/tournaments/{in_play.id}/exports/sessions/1/score-sheets.pdf")
    page = pdf_text(answer.data)[0]
    assert re.search(r"^1\sEast\sE\sS\sW\sN$", page, re.M)
    assert "E = East · S = South · W = West · N = North" in page.replace("\n", " ")
