"""The fan engine's reason inside a score entry refusal reads in the reader's language (issue 24): the service
passes HandCheck.reason_message into its sentence, the pages translate both, the JSON API keeps the engine's
English to the letter."""

from __future__ import annotations

import html
import json
import re

from tests.helpers import NOT_WINNING, csrf_token, hand_form, play_url
from tournament.extensions import db
from tournament.services.play.hand_check import check_hand

UNREADABLE = "123m456p789s11x"  # the engine: "unknown character 'x' (at position 15)"


def post_hand(client, t, data: dict, query: str = ""):
    url = play_url(t) + "/tables/1/hands/new"
    answer = client.post(url + query, data={"csrf_token": csrf_token(client, url + query), **data})
    return answer.status_code, answer.get_data(as_text=True)


def test_a_false_mahjong_of_the_wrong_kind_says_the_engines_reason_in_the_tournaments_finnish(
        organiser_client, seated):
    t, ids = seated
    t.language = "fi"  # no ?lang, no cookie, no Accept-Language: the tournament's language decides
    db.session.commit()
    data = hand_form(ids, result="draw", winner_id="", discarder_id="", hand="")
    data["false_mahjongs-0-kind"] = "under_minimum"  # the engine says: not winning at all
    data["false_mahjongs-0-hand"] = NOT_WINNING
    status, html = post_hand(organiser_client, t, data)
    assert status == 422
    assert ("Ohjelma luokittelee tämän julistuksen näin: ei voittokäsi (käsi ei ole voittokäsi), ei alle minimin."
            in html)
    assert "not a winning hand" not in html and "The engine classes" not in html
    assert "Väärät mahjongit" in html and "False Mahjongs" not in html  # the summary names the claims field


def test_an_unreadable_win_says_why_in_finnish_and_the_engines_own_sentence_in_english(organiser_client, seated):
    t, ids = seated
    status, fi = post_hand(organiser_client, t, hand_form(ids, hand=UNREADABLE), "?lang=fi")
    # the reason inside the refusal's sentence: no capital, no second full stop
    assert status == 422 and "Ei kelvollinen voitto: kädessä on merkki, jota merkintätapa ei käytä." in fi
    assert "käytä.." not in fi
    assert "unknown character" not in fi and "Not a valid win" not in fi
    status, en = post_hand(organiser_client, t, hand_form(ids, hand=UNREADABLE), "?lang=en")
    assert status == 422 and "Not a valid win: unknown character &#39;x&#39; (at position 15)." in en


def test_an_unreadable_false_mahjong_claim_reads_in_chinese(organiser_client, seated):
    t, ids = seated
    data = hand_form(ids, result="draw", winner_id="", discarder_id="", hand="")
    data["false_mahjongs-2-kind"] = "engine"
    data["false_mahjongs-2-hand"] = "1m2m3m"
    status, html = post_hand(organiser_client, t, data, "?lang=zh")
    assert status == 422 and "3 张牌，应为 14 张" in html
    assert "3 tiles, 14 expected" not in html


def test_the_json_api_keeps_the_engines_english_reason(api, seated):
    t, ids = seated
    url = f"/tournaments/{t.id}/sessions/1/tables/1/hands"
    answer = api.post(url, {"number": 1, "result": "win", "winner_id": ids[0], "discarder_id": ids[1],
                            "hand": UNREADABLE}, headers={**api.headers, "Accept-Language": "fi"})
    assert answer.status_code == 422
    assert answer.get_json()["error"] == f"Not a valid win: {check_hand(UNREADABLE).reason}."
    claim = api.post(url, {"number": 1, "result": "draw", "false_mahjongs": [
        {"player_id": ids[0], "kind": "under_minimum", "hand": NOT_WINNING}]}, headers=api.headers)
    assert claim.status_code == 400, claim.get_json()
    assert claim.get_json()["error"] == ("The engine classes this claim as not winning (not a winning hand), "
                                         "not under minimum.")


def test_a_refused_win_says_the_engines_reason_in_finnish_on_the_staff_form_and_its_verdict_bar(
        organiser_client, seated):
    """Issue 32: "Ei kelvollinen voitto: not a winning hand" after a refused save: the callout and the bar."""
    t, ids = seated
    status, fi = post_hand(organiser_client, t, hand_form(ids, hand=NOT_WINNING), "?lang=fi")
    assert status == 422
    assert "Ei kelvollinen voitto:</strong> käsi ei ole voittokäsi." in fi
    assert "Ei voittoa: käsi ei ole voittokäsi" in fi
    assert "not a winning hand" not in fi
    # the live score's own words, in Finnish, for the bar once the form changes (hand-score.js)
    texts = json.loads(html.unescape(re.search(r'data-hand-score-texts="([^"]+)"', fi).group(1)))
    assert texts["summary_empty"] == "Kokoa tai kirjoita käsi, niin näet sen pisteet."


def test_a_players_refused_win_says_the_engines_reason_in_chinese(client, seated):
    from tournament.models import EntryMode
    from tournament.services.people import player_links

    t, ids = seated
    t.entry_mode = EntryMode.PLAYERS
    token = player_links.token_of(player_links.link_of(t, ids[0]))
    db.session.commit()
    url = f"/p/{token}/hands/new?lang=zh"
    data = {"csrf_token": csrf_token(client, url), "number": 1, "result": "win", "winner_id": ids[0],
            "discarder_id": ids[1], "hand": NOT_WINNING, "flowers": 0}
    answer = client.post(url, data=data)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422 and "不是和牌型" in html and "not a winning hand" not in html
