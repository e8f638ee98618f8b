"""The organisers' staff pages in each language (issue 24, fourth slice): the check-in desk and the players'
pages (the list, a player's form new and editing, the teams, the import with its preview), the seating draws (the
list with its history and a session's page with its quality report), the organiser's events, a tournament's overview
with its staff and invitations (and the link just made), its settings new and editing, the timetable, the
printing and files page, the appeals (the list, an open and a decided appeal), the account page, an invitation opened
while logged in to another account, a password link's page, a link that does not work and the forgotten password's
page render in every language
with <html lang> right and no text of their templates or their Python sources left in English; the desk's script
is given its words in the reader's language. The same check as tests/web/test_i18n_staff.py
(tests/helpers.check_page_languages)."""

from __future__ import annotations

import html
import json
import re

import pytest
from sqlalchemy import select

from tests.helpers import (
    TEMPLATES,
    check_page_languages,
    csrf_token,
    english_pieces,
    players_of,
    shown,
    unwrapped_words,
    visible_text,
)
from tournament.extensions import db
from tournament.i18n import LANGUAGES
from tournament.models import Appeal, User
from tournament.services.documents import ema
from tournament.services.people import invitations, password_resets, registration
from tournament.services.seating import ahead, draws
from tournament.timezones import zone_choices

# The organisers' templates translated in this slice (the unwrapped-text check reads them all).
ORGANISER_TEMPLATES = tuple(TEMPLATES / name for name in (
    "players/checkin.html", "players/list.html", "players/form.html", "players/_macros.html", "players/teams.html",
    "players/import.html", "draws/index.html", "draws/session.html", "draws/_quality.html",
    "tournaments/overview.html", "tournaments/dashboard.html", "tournaments/form.html", "tournaments/_new_link.html",
    "schedule/edit.html", "exports/index.html", "exports/_standings_visibility.html", "appeals/index.html",
    "appeals/decide.html", "account/index.html", "account/invitation.html", "account/link_problem.html",
    "auth/forgot_password.html", "auth/reset_password.html",
    "auth/login.html"))  # translated before, but for its link to the forgotten password's page
# The Python files whose texts these pages show: form labels, descriptions and choices, the players' statuses.
PAGE_SOURCES = ("tournament/i18n/labels.py", "tournament/web/players/forms.py", "tournament/web/draws/forms.py",
                "tournament/web/appeals/routes.py", "tournament/web/draws/routes.py",
                "tournament/web/tournaments/forms.py", "tournament/web/tournaments/staff.py",
                "tournament/web/schedule/forms.py", "tournament/web/appeals/forms.py",
                "tournament/web/account/forms.py", "tournament/web/account/link_forms.py")
# A file with a row the preview refuses (row 3) next to good ones.
MIXED_CSV = "first_name,last_name,country,substitute\nAino,Virtanen,FI,no\nMikko,Korhonen,FI,maybe\nLiisa,Mäkinen,FI,\n"


def without_data(text: str, t) -> str:
    """The page's text without what people typed: names, clubs, teams, notes, the accounts', the CSV's rows, the
    foul types the organiser edits (the settings' text box holds them as stored), the time zones' names; and the
    services' own messages (a re-plan's details, the EMA check's problems: Python messages are translated apart
    from the pages)."""
    typed = {t.name, t.venue or "", "Aino", "Virtanen", "Mikko", "Korhonen", "Liisa", "Mäkinen", "maybe"}
    for p in players_of(t):
        typed |= {p.first_name, p.last_name, p.full_name, p.club or "", p.team or "", p.notes or ""}
    for user in db.session.scalars(select(User)):
        typed |= {user.name or "", user.email}
    typed |= {event.detail or "" for event in draws.draw_events(t)} | {ahead.check_ahead(t).message or ""}
    typed |= {problem.message for problem in ema.check(t)} | {i.email for i in invitations.open_invitations(t)}
    typed |= set(t.foul_type_list) | {name.replace("_", " ") for name in zone_choices()}
    for appeal in db.session.scalars(select(Appeal).where(Appeal.tournament_id == t.id)):
        typed |= {appeal.text or "", appeal.decision_text or ""}
    for value in sorted(filter(None, typed), key=len, reverse=True):
        text = text.replace(value, " ")
    return text


def organiser_pages(t) -> dict[str, int]:
    """The players' and the draws' pages of the demo tournament (every session planned, 1 finished, 2 and 3 in
    play): one player withdrawn (the list's muted row, a reinstate form, the sessions drawn ahead to re-plan) and
    one with a note, two players swapped by hand in the last session, with the status each answers."""
    everyone = players_of(t)
    withdrawn, noted = everyone[0], everyone[1]
    registration.withdraw(withdrawn, "ill")
    noted.notes = "Needs a chair with arms"
    last = t.sessions[-1]
    draws.swap(t, last, last.seats[0].player_id, last.seats[4].player_id, last.version)
    _, invited = invitations.invite(t, "new.referee@example.org", "referee", None)
    referee = next(member for member in t.staff if member.role == "referee")
    _, reset = password_resets.for_staff_member(t, referee.id, t.staff[0].user if t.staff[0].role == "organiser"
                                                else next(m.user for m in t.staff if m.role == "organiser"))
    db.session.commit()
    base = f"/manage/tournaments/{t.id}"
    return {
        f"{base}/checkin": 200, f"{base}/checkin?q=nobody-at-all": 200,
        f"{base}/players": 200, f"{base}/players?status=withdrawn&q=x": 200, f"{base}/players/new": 200,
        f"{base}/players/{withdrawn.id}/edit": 200, f"{base}/players/{noted.id}/edit": 200,
        f"{base}/players/teams": 200, f"{base}/players/import": 200,
        f"{base}/draws": 200, f"{base}/draws/1": 200, f"{base}/draws/2": 200, f"{base}/draws/{last.number}": 200,
        "/manage": 200, base: 200, f"{base}/edit": 200, "/manage/tournaments/new": 200, f"{base}/schedule": 200,
        f"{base}/exports": 200, f"{base}/exports?qualification=1": 200,
        f"{base}/appeals": 200, f"{base}/appeals/1/decision": 200, f"{base}/appeals/2/decision": 200,
        "/account": 200, f"/invitations/{invited}": 409, f"/reset-password/{reset}": 200,
        "/invitations/no-such-link": 404, "/forgot-password": 200,
    }


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_organiser_page_in_each_language(app, organiser_client, demo_tournament, lang, template_messages,
                                             translations):
    checked_texts = check_page_languages(app, organiser_client, organiser_pages(demo_tournament), lang,
                                         PAGE_SOURCES, lambda text: without_data(text, demo_tournament),
                                         template_messages, translations)
    assert checked_texts > 900


def english_left(text: str, template: str, lang: str, template_messages: dict, translations: dict) -> list[str]:
    """The texts of `template` and the page's Python sources shown in English on a page in `lang` (all of them
    for English: what the check would find)."""
    files = {f"templates/{template}", *PAGE_SOURCES}
    english = [piece for (context, msgid), where in template_messages.items() if where & files
               for piece in english_pieces(msgid) if piece and shown(piece, text)]
    return english if lang == "en" else [piece for piece in english if not shown(piece, translations[lang])]


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_import_preview_in_each_language(organiser_client, tournament, lang, template_messages, translations):
    url = f"/manage/tournaments/{tournament.id}/players/import?lang={lang}"
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url), "text": MIXED_CSV})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and f'<html lang="{lang}"' in body
    # the rows' problems are the service's messages (Python messages are translated apart from the pages)
    rows_checked = re.sub(r'<ul class="row-problems">.*?</ul>', " ", body, flags=re.S)
    rows_checked = re.sub(r'(<li><a href="#row-\d+">[^<]*</a>:)[^<]*', r"\1", rows_checked)
    text = without_data(visible_text(rows_checked), tournament)
    english = english_left(text, "players/import.html", lang, template_messages, translations)
    if lang == "en":
        assert "Nothing was imported: 1 of 3 rows have problems." in text and "Rows of the file" in text
        assert 'value="Import the 2 good rows, skip the 1 bad one"' in body
    else:
        assert not english, english
    assert {"fi": "Tuo 2 kunnossa olevaa riviä, ohita 1 virheellinen", "sv": "Importera de 2 korrekta raderna, hoppa "
            "över den 1 felaktiga", "es": "Importar las 2 filas correctas, omitir la 1 incorrecta",
            "zh": "导入 2 行无问题的数据，跳过 1 行有问题的数据"}.get(lang, "Import the 2 good rows") in body


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_a_new_invitation_link_in_each_language(organiser_client, tournament, lang, template_messages, translations):
    """The link just made is shown once, on the page that answers the post (tournaments/_new_link.html)."""
    url = f"/manage/tournaments/{tournament.id}"
    answer = organiser_client.post(f"{url}/invitations?lang={lang}", data={
        "csrf_token": csrf_token(organiser_client, url), "invite-email": "new.referee@example.org",
        "invite-role": "referee"})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and 'id="new-link"' in body and f'<html lang="{lang}"' in body
    text = without_data(visible_text(body), tournament)
    english = english_left(text, "tournaments/_new_link.html", lang, template_messages, translations)
    if lang == "en":
        assert "Invitation for new.referee@example.org created." in visible_text(body)
        assert {"Invitation for", "Copy the link and pass it on: this site sends no email."} <= set(english)
    else:
        assert not english, english
        assert {"fi": "Kutsulinkki", "sv": "Inbjudningslänk", "es": "Enlace de invitación", "zh": "邀请链接"}[lang] in text


def desk_texts(body: str) -> dict:
    return json.loads(html.unescape(re.search(r'data-desk-texts="([^"]*)"', body).group(1)))


def test_the_desk_script_is_given_the_readers_words(organiser_client, demo_tournament):
    """checkin.js rewrites the tables' hint, the badges and its messages: the page gives it the words."""
    url = f"/manage/tournaments/{demo_tournament.id}/checkin"
    english = desk_texts(organiser_client.get(url + "?lang=en").get_data(as_text=True))
    assert english["tables"] == ["{num} full table", "{num} full tables"]
    assert english["labels"]["present"] == "Present"
    finnish = desk_texts(organiser_client.get(url + "?lang=fi").get_data(as_text=True))
    assert finnish["tables"] == ["{num} täysi pöytä", "{num} täyttä pöytää"]
    assert finnish["labels"] == {"registered": "Ilmoittautunut", "present": "Paikalla", "withdrawn": "Vetäytynyt",
                                 "disqualified": "Hylätty"}
    for lang in ("sv", "es", "zh"):
        texts = desk_texts(organiser_client.get(f"{url}?lang={lang}").get_data(as_text=True))
        assert set(texts) == set(english), lang
        flat = [v for value in texts.values() for v in (value.values() if isinstance(value, dict) else
                                                          value if isinstance(value, list) else [value])]
        assert all("{" not in v or "{num}" in v or "{name}" in v for v in flat), (lang, flat)
        assert not set(flat) & {v for value in english.values() for v in (
            value.values() if isinstance(value, dict) else value if isinstance(value, list) else [value])}, lang


def test_a_finnish_organiser_reads_finnish_words(organiser_client, demo_tournament):
    base = f"/manage/tournaments/{demo_tournament.id}"
    desk = visible_text(organiser_client.get(f"{base}/checkin?lang=fi").get_data(as_text=True))
    for words in ("Saapumisen kirjauspiste", "Etsi pelaaja", "Varapelaajia paikalla", "täyttä pöytää"):
        assert words in desk, words
    assert "Italia" in desk and "Italy" not in desk  # the countries by the reader's language (Babel's names)
    form = visible_text(organiser_client.get(f"{base}/players/new?lang=zh").get_data(as_text=True))
    for words in ("添加选手", "名", "替补（仅在某桌缺人时上场）", "固定桌（无障碍需求）"):
        assert words in form, words
    assert "First name" not in form and "Fixed table" not in form


def test_the_organiser_templates_hold_no_unwrapped_text():
    """A text written in a template outside the translation calls would stay English in every language."""
    problems = {path.name: words for path in ORGANISER_TEMPLATES if (words := unwrapped_words(path))}
    assert len(ORGANISER_TEMPLATES) >= 6
    assert not problems, problems


def test_the_english_pages_show_the_texts_the_check_looks_for(organiser_client, demo_tournament):
    # the check above finds English where it is left: the same texts are found on the English pages
    pages = list(organiser_pages(demo_tournament))
    draws_page = visible_text(organiser_client.get(pages[9] + "?lang=en").get_data(as_text=True))
    for piece in ("Seating draws", "The sessions drawn ahead no longer fit the players.", "History of the seatings",
                  "Quality of all drawn sessions", "Excess repeats", "swapped", "Keep apart at a table"):
        assert shown(piece, draws_page), piece
    last = visible_text(organiser_client.get(pages[12] + "?lang=en").get_data(as_text=True))
    for piece in ("Changed by hand since:", "Swap two players", "Both change table and seat.", "Publish"):
        assert shown(piece, last), piece
    players = visible_text(organiser_client.get(pages[2] + "?lang=en").get_data(as_text=True))
    for piece in ("Not yet arrived", "Withdrawn", "Reinstate", "Add a player"):
        assert shown(piece, players), piece


def test_the_draws_in_finnish_and_chinese(organiser_client, demo_tournament):
    pages = list(organiser_pages(demo_tournament))
    finnish = visible_text(organiser_client.get(pages[9] + "?lang=fi").get_data(as_text=True))
    for words in ("Paikka-arvonnat", "Istumajärjestysten historia", "Pidä erillään pöydissä", "vaihdettu"):
        assert words in finnish, words
    chinese = visible_text(organiser_client.get(pages[12] + "?lang=zh").get_data(as_text=True))
    for words in ("调换两名选手", "此后曾手动更改：", "截至第", "（替补）", "（未安排座位）", "（已退赛）"):
        assert words in chinese, words
    assert "Swap" not in chinese and "Quality" not in chinese and "(not seated)" not in chinese


def test_the_account_pages_in_finnish_and_spanish(organiser_client, demo_tournament):
    pages = list(organiser_pages(demo_tournament))
    problem = visible_text(organiser_client.get("/invitations/no-such-link?lang=fi").get_data(as_text=True))
    assert "Tämä linkki ei toimi" in problem and "This link does not work" not in problem
    account = organiser_client.get("/account?lang=es").get_data(as_text=True)  # buttons: <input value=...>
    for words in ("Claves de API", 'value="Cambiar la contraseña"', "Cerrar sesión en todas partes",
                  "Idioma de las páginas"):
        assert words in account, words
    appeals = visible_text(organiser_client.get(pages[20] + "?lang=fi").get_data(as_text=True))
    for words in ("Jätä valitus", "Avoimet valitukset", "Ratkaistut valitukset", "Hyväksytty", "Valitse pelaaja"):
        assert words in appeals, words


@pytest.mark.parametrize("lang", ["fi", "sv", "es", "zh"])
def test_an_invitation_opened_without_an_account_in_each_language(client, tournament, referee, lang,
                                                                  template_messages, translations):
    """Not logged in: the new account's form (an address with no account) and the password of an existing one."""
    _, fresh = invitations.invite(tournament, "brand.new@example.org", "referee", None)
    _, known = invitations.invite(tournament, referee.email, "referee", None)
    db.session.commit()
    for token, words in ((fresh, {"fi": "Luo tilini ja liity", "sv": "Skapa mitt konto och gå med",
                                  "es": "Crear mi cuenta y unirme", "zh": "创建账号并加入"}),
                         (known, {"fi": "Kirjaudu ja liity", "sv": "Logga in och gå med",
                                  "es": "Iniciar sesión y unirme", "zh": "登录并加入"})):
        body = client.get(f"/invitations/{token}?lang={lang}").get_data(as_text=True)
        assert f'value="{words[lang]}"' in body
        text = without_data(visible_text(body), tournament).replace("brand.new@example.org", " ")
        english = english_left(text, "account/invitation.html", lang, template_messages, translations)
        assert not english, english
