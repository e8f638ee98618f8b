"""The interface in the reader's language (issue 24): the language chosen from ?lang, the cookie and
Accept-Language; <html lang>; the footer's switcher; the hand checker and the login page translated."""

from __future__ import annotations

import html
import json
import re

import pytest

from tests.helpers import login, post_form
from tournament.extensions import db

FOUR_WINDS = "EEESSSWWWNNN1m1m"  # Big Four Winds, Four Concealed Pungs, All Terminals and Honors, Half Flush
# The hand's fans as each language names them (Finnish as shared/seeds/003 writes them, Chinese the Green Book's).
FAN_NAMES = {
    "en": ("Big Four Winds", "Four Concealed Pungs", "All Terminals and Honors", "Half Flush"),
    "fi": ("Neljä isoa tuulta", "Neljä piilotettua pungia", "Vain pääty- ja arvotiiliä", "Puoliväri"),
    "sv": ("Fyra stora vindar", "Fyra dolda pung", "Bara ändbrickor och honnörer", "Halv färg"),
    "es": ("Cuatro grandes vientos", "Cuatro pungs ocultos", "Todo terminales y honores", "Medio color"),
    "zh": ("大四喜", "四暗刻", "混幺九", "混一色"),
}
MENU_WORDS = ("Hand checker", "Log in")


def html_lang(response) -> str:
    match = re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True))
    assert match, "no <html lang>"
    return match.group(1)


def visible_text(response) -> str:
    html = response.get_data(as_text=True)
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("lang", ["en", "fi", "sv", "es", "zh"])
def test_checker_in_each_language(client, lang):
    response = client.get(f"/check?hand={FOUR_WINDS}&lang={lang}")
    assert response.status_code == 200
    assert html_lang(response) == lang
    body = response.get_data(as_text=True)
    for name in FAN_NAMES[lang]:
        assert f'<th scope="row">{name}</th>' in body, name
    if lang == "en":
        assert all(word in body for word in MENU_WORDS)
    else:
        assert not [word for word in MENU_WORDS if word in body]
        assert not [name for name in FAN_NAMES["en"] if name in body]  # no English fan name left either


def test_the_chosen_language_is_remembered_in_a_cookie(client):
    first = client.get("/check?lang=fi")
    assert re.search(r"\blang=fi\b", first.headers["Set-Cookie"])
    assert "HttpOnly" in first.headers["Set-Cookie"] and "SameSite=Lax" in first.headers["Set-Cookie"]
    later = client.get("/check", headers={"Accept-Language": "es"})  # the cookie wins over the browser
    assert html_lang(later) == "fi" and "Käden tarkistus" in later.get_data(as_text=True)
    assert "Set-Cookie" not in later.headers  # nothing new to remember
    switched = client.get("/?lang=zh")
    assert html_lang(switched) == "zh"
    assert html_lang(client.get("/check")) == "zh"


def test_accept_language_finnish_and_a_language_not_offered(app):
    finnish = app.test_client().get(f"/check?hand={FOUR_WINDS}", headers={"Accept-Language": "fi-FI,fi;q=0.9"})
    assert html_lang(finnish) == "fi" and "Neljä isoa tuulta" in finnish.get_data(as_text=True)
    german = app.test_client().get(f"/check?hand={FOUR_WINDS}", headers={"Accept-Language": "de"})
    assert html_lang(german) == "en" and "Big Four Winds" in german.get_data(as_text=True)
    # a language not offered in the address falls back to the browser's, and nothing is remembered
    unknown = app.test_client().get("/check?lang=de", headers={"Accept-Language": "sv-SE,sv;q=0.8"})
    assert html_lang(unknown) == "sv" and "Set-Cookie" not in unknown.headers
    assert "Accept-Language" in finnish.headers["Vary"] and "Cookie" in finnish.headers["Vary"]


def test_english_is_the_default(app):
    response = app.test_client().get("/check")
    assert html_lang(response) == "en" and "Hand checker" in response.get_data(as_text=True)


def test_the_switcher_in_the_footer_keeps_the_page_and_marks_the_current_language(client):
    body = client.get(f"/check?hand={FOUR_WINDS}&lang=sv").get_data(as_text=True)
    footer = body[body.index('<footer class="site-footer'):body.index("</footer>")]
    assert '<nav class="language-switcher" aria-label="Språk">' in footer
    links = re.findall(r'<a href="([^"]+)" lang="(\w+)" hreflang="\w+"( aria-current="true")?>([^<]+)</a>', footer)
    assert [(lang, name) for _, lang, _, name in links] == [
        ("en", "English"), ("fi", "Suomi"), ("sv", "Svenska"), ("es", "Español"), ("zh", "中文")]
    assert [lang for _, lang, current, _ in links if current] == ["sv"]
    assert f"/check?hand={FOUR_WINDS}&amp;lang=fi" in [href for href, *_ in links]  # the same hand, in Finnish
    assert html_lang(client.get(f"/check?hand={FOUR_WINDS}&lang=fi")) == "fi"


def test_the_switcher_links_stay_on_this_site(client):
    body = client.get("/%2Fother.example/x").get_data(as_text=True)  # the path "//other.example/x": a 404 page
    assert 'href="/other.example/x?lang=fi"' in body and 'href="//' not in body


@pytest.mark.parametrize(("lang", "verdicts"), [
    ("fi", ("Ei voittoa: 6 pistettä: alle 8 pisteen minimin", "Ei voi tarkistaa: 13 tiiltä, odotettiin 14",
            "Ei voittoa: käsi ei ole voittokäsi", "Kädessä on merkki, jota merkintätapa ei käytä.")),
    ("zh", ("未和牌： 6 番：不足 8 番起和", "无法计算： 13 张牌，应为 14 张", "未和牌： 不是和牌型", "手牌中有记法不使用的字符。")),
])
def test_checker_verdicts_and_errors_in_the_readers_language(client, lang, verdicts):
    under, short, no_win, unreadable = verdicts

    def page(hand, **flags):
        return client.get("/check", query_string={"hand": hand, "lang": lang, **flags})

    assert under in visible_text(page("[123m]123456m123s5p5p"))
    assert short in visible_text(page("123456789m123s5p"))
    assert no_win in visible_text(page("123m456p789s11223p"))
    unread = page("123456789m123s5x5p")
    assert re.search(rf'<p class="error" id="hand-error">{re.escape(unreadable)}</p>', unread.get_data(as_text=True))
    text = visible_text(page("123m", flowers="12", seat_wind="Q"))
    assert ("Korjaa 2 kenttää:" if lang == "fi" else "请更正 2 个字段：") in text
    assert ("Oma tuuli: käytä kirjainta E, S, W tai N." if lang == "fi" else "门风：请用 E、S、W 或 N。") in text


def test_flowers_and_their_plural_in_finnish(client):
    one = visible_text(client.get(f"/check?hand={FOUR_WINDS}&flowers=1&lang=fi"))
    assert "(191 + 1 kukka)" in one and "1 kukka, ei lasketa minimiin" in one and "Kukat" in one
    two = visible_text(client.get(f"/check?hand={FOUR_WINDS}&flowers=2&lang=fi"))
    assert "Mahjong: 193 pistettä (191 + 2 kukkaa)" in two


def test_the_json_keeps_the_engines_english_names_and_adds_the_readers_result(client):
    response = client.get(f"/check/score.json?hand={FOUR_WINDS}&lang=fi")
    data = response.get_json()
    assert [f["name"] for f in data["fans"]][:2] == ["Big Four Winds", "Four Concealed Pungs"]
    # the page's live result draws result_html as it is: the same markup as the page, in Finnish
    assert '<th scope="row">Neljä isoa tuulta</th>' in data["result_html"]
    assert "Mahjong: 191 pistettä" in data["result_html"] and "Big Four Winds" not in data["result_html"]
    assert "Accept-Language" in response.headers["Vary"]  # a shared cache keeps one answer per language
    short = client.get("/check/score.json?hand=123456789m123s5p&lang=sv").get_json()
    assert (short["reason"], short["reason_text"]) == ("13 tiles, 14 expected", "13 brickor, 14 väntades")


def test_the_live_results_own_sentences_in_the_readers_language(client):
    body = client.get("/check?lang=es").get_data(as_text=True)
    match = re.search(r'data-hand-score-texts="([^"]+)"', body)
    assert match
    texts = json.loads(html.unescape(match.group(1)))
    assert {key: texts[key] for key in ("empty", "failed", "unreachable", "copied", "copy_this", "summary_empty")} == {
        "empty": "Construya o escriba una mano para ver sus fan.",
        "failed": "No se pudo comprobar la mano.",
        "unreachable": "No se pudo contactar con el comprobador. Revise la conexión e inténtelo de nuevo.",
        "copied": "Enlace copiado.",
        "copy_this": "Copie esta dirección:",
        "summary_empty": "Construya o escriba una mano para ver sus puntos.",  # the hand forms' verdict bar
    }
    assert set(texts) == {"empty", "failed", "unreachable", "copied", "copy_this", "summary_empty",
                          "summary_unreachable"}


def test_a_filtered_constant_reads_in_each_readers_language_whoever_came_first(app, client, session_in_play,
                                                                               referee_on_staff):
    """Jinja works out a filter of a constant ('playing'|tr) once, when it compiles the template, and an app
    compiles each template once: the referee board's reasons were in the first reader's language for everyone."""
    from tournament.services.play import clock

    clock.start(session_in_play, 1, None)
    db.session.commit()
    url = f"/manage/tournaments/{session_in_play.id}/play/1/board"
    for lang, playing in (("fi", "pelaa"), ("en", "playing"), ("zh", "进行中"), ("fi", "pelaa")):
        body = client.get(f"{url}?lang={lang}").get_data(as_text=True)
        assert re.findall(r'<p class="board-reason">([^<]*)</p>', body) == [playing] * 2, lang
    template = app.jinja_env.from_string("{{ 1.75|points }} {{ 1234|number }} {{ 'waiting'|tr }}")
    for lang, expected in (("en", "1.75 1,234 waiting"), ("fi", "1,75 1\xa0234 odottaa")):
        with app.test_request_context(f"/?lang={lang}"):
            app.preprocess_request()
            assert template.render() == expected, lang


def test_login_page_in_finnish(client):
    page = client.get("/login?lang=fi")
    body = page.get_data(as_text=True)
    assert html_lang(page) == "fi"
    assert '<label for="email">Sähköposti</label>' in body and '<label for="password">Salasana</label>' in body
    assert "Pidä minut kirjautuneena tällä laitteella" in body and 'value="Kirjaudu sisään"' in body
    assert not [word for word in ("Log in", "Email", "Password", "Keep me") if word in visible_text(page)]
    empty = post_form(client, "/login", {"email": "", "password": ""})
    assert empty.status_code == 400
    assert "Anna sähköpostiosoitteesi." in empty.get_data(as_text=True)
    wrong = login(client, "nobody@example.org", "not-the-password")
    assert wrong.status_code == 401 and "Väärä sähköposti tai salasana." in wrong.get_data(as_text=True)


def test_login_required_message_and_welcome_in_spanish(client, organiser):
    client.get("/?lang=es")
    refused = client.get("/manage", follow_redirects=True)
    assert "Inicie sesión para abrir esa página." in refused.get_data(as_text=True)
    welcome = login(client, organiser.email)
    assert welcome.status_code == 302
    assert f"Le damos la bienvenida, {organiser.display_name}." in client.get("/").get_data(as_text=True)


@pytest.mark.parametrize("lang", ["en", "fi", "sv", "es", "zh"])
@pytest.mark.parametrize("url", ["/", "/check", "/login", "/no-such-page"])
def test_public_pages_render_in_each_language(client, lang, url):
    response = client.get(url, query_string={"lang": lang})
    assert response.status_code == (404 if url == "/no-such-page" else 200)
    assert html_lang(response) == lang
    assert f'hreflang="{lang}" aria-current="true"' in response.get_data(as_text=True)
