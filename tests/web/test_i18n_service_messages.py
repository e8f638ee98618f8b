"""The services' refusals in the reader's language on the pages, in English in the JSON API (issue 24): a
service words them once with msg/msg_n (tournament/messages.py), the pages translate them."""

from __future__ import annotations

import re
from contextlib import contextmanager

import pytest

from tests.helpers import csrf_token, hand_form, play_url
from tournament.extensions import db
from tournament.i18n.service_messages import translate
from tournament.messages import msg, msg_n
from tournament.services.play import clock, scoring
from tournament.services.play.scoring import HandData

TIME_CALLED = {
    "fi": "Aika loppui pöydässä 1 käden 6 aikana: kättä 7 ei pelattu, eikä sitä voi kirjata.",
    "zh": "第 1 桌在第 6 盘中已叫停：第 7 盘未打，不能录入。",
    "en": "Time was called at table 1 during hand 6: hand 7 was not played and cannot be entered.",
}
SHORT_HAND = {  # three tiles: the service's refusal, the engine's reason said again as the checker says it
    "fi": "Ei kelvollinen voitto: 3 tiiltä, odotettiin 14.",
    "zh": "不是有效和牌：3 张牌，应为 14 张。",
}
SAME_PLAYER = "The discarder cannot be the winner: leave it empty for a self-drawn win."


@pytest.fixture
def time_called(seated, organiser):
    """Session 1 in play, hands 1-4 drawn at table 1, time called there during hand 6."""
    t, ids = seated
    clock.start(t, 1, organiser)
    for n in (1, 2, 3, 4):
        scoring.enter_hand(t, 1, 1, HandData(number=n, result="draw"), None)
    clock.call_time(t, 1, 1, 6, organiser)
    db.session.commit()
    return t, ids


def flashes_and_errors(html: str) -> str:
    return " ".join(re.findall(r'class="(?:flash[^"]*|field-error[^"]*|error[^"]*)"[^>]*>([^<]*)<', html))


@pytest.mark.parametrize("lang", ["fi", "zh", "en"])
def test_the_hand_forms_time_call_refusal_reads_in_the_readers_language(organiser_client, time_called, lang):
    t, _ = time_called
    html = organiser_client.get(play_url(t) + f"/tables/1/hands/new?hand=7&lang={lang}").get_data(as_text=True)
    assert TIME_CALLED[lang] in html
    if lang != "en":
        assert TIME_CALLED["en"] not in html


@pytest.mark.parametrize("lang", ["fi", "zh"])
def test_a_refused_hand_says_why_next_to_the_field_in_the_readers_language(organiser_client, seated, lang):
    t, ids = seated
    url = play_url(t) + f"/tables/1/hands/new?lang={lang}"
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url),
                                              **hand_form(ids, number=1, hand="1m2m3m")})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422 and SHORT_HAND[lang] in html
    assert "Not a valid win" not in html


def test_the_json_api_keeps_the_english_even_for_a_finnish_reader(organiser_client, api, time_called):
    t, ids = time_called
    organiser_client.get("/?lang=fi")  # the cookie now says Finnish, and the API still answers in English
    url = f"/tournaments/{t.id}/sessions/1/tables/1/hands"
    late = api.post(url, {"number": 7, "result": "draw"}, headers={**api.headers, "Accept-Language": "fi"})
    assert late.status_code == 409 and late.get_json()["error"] == TIME_CALLED["en"]
    same = api.post(url, {"number": 5, "result": "win", "winner_id": ids[0], "discarder_id": ids[0],
                          "hand": "x"}, headers={**api.headers, "Accept-Language": "zh"})
    assert same.status_code == 400 and same.get_json()["error"] == SAME_PLAYER
    short = api.post(url, {"number": 5, "result": "win", "winner_id": ids[0], "discarder_id": ids[1],
                           "hand": "1m2m3m"}, headers={**api.headers, "Accept-Language": "fi"})
    assert short.status_code == 422 and short.get_json()["error"].startswith("Not a valid win: ")


@contextmanager
def reading(app, lang: str):
    with app.test_request_context(f"/?lang={lang}"):
        app.preprocess_request()  # the app's own before_request hooks, Flask-Babel's refresh among them
        yield


def test_translate_fills_in_the_catalogues_sentence_nested_and_plural(app):
    with reading(app, "fi"):
        assert translate(msg("Session %(number)s has not been drawn yet.", number=2)) == "Kierrosta 2 ei ole vielä arvottu."
        assert translate(msg_n("%(num)d row is fine", "%(num)d rows are fine", 1)) == "1 rivi kunnossa"
        assert translate(msg_n("%(num)d row is fine", "%(num)d rows are fine", 3)) == "3 riviä kunnossa"
        refusal = msg("The list changed since the preview: %(good)s and %(bad)s now. Nothing was imported: check the "
                      "preview again.", good=msg_n("%(num)d row is fine", "%(num)d rows are fine", 5),
                      bad=msg_n("%(num)d has problems", "%(num)d have problems", 1))
        assert refusal.startswith("The list changed since the preview: 5 rows are fine and 1 has problems now.")
        assert translate(refusal).startswith("Lista on muuttunut esikatselun jälkeen: nyt 5 riviä kunnossa ja 1 "
                                             "rivillä ongelmia.")
        assert translate("an English text no service made") == "an English text no service made"
    with reading(app, "zh"):
        assert translate(msg("Session %(number)s has not been drawn yet.", number=2)) == "第 2 轮尚未编排。"


def test_the_hand_forms_own_check_reads_in_finnish(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/tables/1/hands/new?lang=fi"
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url),
                                              **hand_form(ids, number=1, discarder_id=ids[0])})
    html = answer.get_data(as_text=True)
    assert "Voittaja ei viskannut voittotiiltä: valitse, kuka viskasi, tai Itsenostettu." in html
    assert "The winner did not discard" not in html


def test_the_import_previews_row_problems_read_in_finnish(organiser_client, tournament):
    base = f"/manage/tournaments/{tournament.id}/players/import"
    rows = ("first_name,last_name,country,substitute\n"
            "Mikko,Korhonen,FI,maybe\n"   # row 2: substitute is not yes or no
            "Aino,Virtanen,XX,no\n")      # row 3: no such country
    answer = organiser_client.post(base + "?lang=fi", data={"csrf_token": csrf_token(organiser_client, base),
                                                            "text": rows})
    html = answer.get_data(as_text=True)
    assert "Varapelaaja-sarakkeen on oltava kyllä tai ei (annettu &#39;maybe&#39;)." in html
    assert "Tuntematon maa &#39;XX&#39;: käytä ISO 3166 -koodia" in html
    assert "Substitute must be yes or no" not in html and "Unknown country" not in html


def test_the_sessions_check_reads_in_finnish_and_chinese(organiser_client, seated):
    t, _ = seated
    fi = organiser_client.get(play_url(t) + "?lang=fi").get_data(as_text=True)
    zh = organiser_client.get(play_url(t) + "?lang=zh").get_data(as_text=True)
    assert "mitään ei ole vielä kirjattu" in fi and "尚未录入任何内容" in zh
    assert "nothing entered yet" not in fi + zh


def test_a_list_of_messages_is_joined_in_english_and_said_again_item_by_item(app):
    from tournament.messages import MessageList

    problems = MessageList("; ", [msg("table %(table)s: %(problem)s", table=n, problem=msg("nothing entered yet"))
                                  for n in (1, 2)])
    refusal = msg("Session %(number)s is not complete (%(listed)s).", number=1, listed=problems)
    assert refusal == "Session 1 is not complete (table 1: nothing entered yet; table 2: nothing entered yet)."
    with reading(app, "fi"):
        assert translate(refusal) == ("Kierros 1 ei ole valmis (pöytä 1: mitään ei ole vielä kirjattu; "
                                      "pöytä 2: mitään ei ole vielä kirjattu).")


def test_the_login_throttle_says_how_long_to_wait_in_finnish(app, victim, throttle_clock):
    from tests.helpers import THROTTLED_EMAIL

    client = app.test_client()
    client.get("/login?lang=fi")  # the cookie keeps Finnish for the posts

    def attempt(password: str):
        return client.post("/login", data={"csrf_token": csrf_token(client, "/login"), "email": THROTTLED_EMAIL,
                                           "password": password}, environ_base={"REMOTE_ADDR": "203.0.113.7"})

    answers = [attempt(f"guess-{i}") for i in range(5)]
    assert "Odota 1 sekunti ennen kuin yrität uudelleen." in answers[-1].get_data(as_text=True)
    refused = attempt("guess-6")
    html = refused.get_data(as_text=True)
    assert refused.status_code == 429
    assert "Liian monta epäonnistunutta kirjautumista tälle tilille. Odota 1 sekunti ja yritä uudelleen." in html
    assert "Too many failed logins" not in html


def test_a_referees_refused_organiser_page_reads_in_chinese_and_the_json_in_english(client, auth, referee, tournament):
    auth.login(referee)
    page = client.get(f"/manage/tournaments/{tournament.id}/players?lang=zh")
    assert page.status_code == 403 and "此页面仅供组织者使用。" in page.get_data(as_text=True)
    data = client.get(f"/manage/tournaments/{tournament.id}/players", headers={"Accept": "application/json"})
    assert data.status_code == 403 and data.get_json()["error"] == "This page is for organisers."
