"""The rules briefing sheet (issue 34): the readings the tournament plays by, from its settings and its
ruleset's data, printed in its language whatever the page's; for the staff's page and any API token."""

from __future__ import annotations

import re

from tests.helpers import Api, assert_error, pdf_text, token_for
from tournament.extensions import db


def text_of(data: bytes) -> str:
    return re.sub(r"\s+", " ", " ".join(pdf_text(data)))


def test_the_sheet_follows_the_settings_and_the_ruleset(organiser_client, tournament):
    tournament.false_mahjong_under_minimum, tournament.false_mahjong_not_winning = 15, 25
    tournament.table_points, tournament.appeal_minutes, tournament.session_count = [6, 3, 1, 0], 20, 5
    tournament.penalties_affect_table_points = False
    db.session.commit()
    url = f"/manage/tournaments/{tournament.id}/exports/rules-briefing.pdf"
    assert f'href="{url}"' in organiser_client.get(f"/manage/tournaments/{tournament.id}/exports").get_data(
        as_text=True)
    answer = organiser_client.get(url)
    assert answer.status_code == 200 and answer.mimetype == "application/pdf"
    text = text_of(answer.data)
    for words in ("Helsinki Open: the rules we play by", "EMA (Green Book)", "costs 15 points to each opponent",
                  "a hand that is no win 25", "6-3-1-0", "the other three take 6, 3 and 1", "5 sessions of 120 minutes",
                  "Two Concealed Kongs scores 8 points", "also score Fully Concealed Hand",
                  "is not a tile it waits for", "except for stalling for time and obstruction (MERS 3.6)",
                  "20 up to 15", "up to 20 minutes after", "before penalties"):
        assert words in text, words
    tournament.ruleset = "chinese"
    db.session.commit()
    text = text_of(organiser_client.get(url).data)
    for words in ("Chinese practice", "Two Concealed Kongs scores 6 points", "score Self-Drawn, not Fully Concealed",
                  "still counts as a waiting tile", "Concealed Kong and Melded Kong: 5 points"):
        assert words in text, words


def test_in_the_tournaments_language_and_over_the_api(client, organiser, outsider, tournament):
    tournament.language = "fi"
    db.session.commit()
    api = Api(client, token_for(organiser))
    answer = api.get(f"/tournaments/{tournament.id}/rules-briefing.pdf?lang=sv", expect=200)
    assert answer.mimetype == "application/pdf"
    assert "Sivu 1 /" in text_of(answer.data)  # the page's words in Finnish: the tournament's language
    Api(client, token_for(outsider)).get(f"/tournaments/{tournament.id}/rules-briefing.pdf", expect=200)
    assert_error(client.get(f"/api/v1/tournaments/{tournament.id}/rules-briefing.pdf"), 401)
    assert_error(api.get("/tournaments/999999/rules-briefing.pdf"), 404)
