"""A tournament's default language and an account's own (issue 24): where each comes in the choice of a page's
language (tournament.i18n: ?lang / the cookie > the account's > Accept-Language > the tournament's > English),
the settings form, the account page, the API and the backup."""

from __future__ import annotations

import re

from tests.helpers import assert_error, form_fields, make_tournament, post_form
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.people import player_links
from tournament.services.people.tournaments import TournamentData, validate

GERMAN = {"Accept-Language": "de-DE,de;q=0.9"}  # a language the site does not offer


def html_lang(response) -> str:
    return re.search(r'<html lang="([^"]+)"', response.get_data(as_text=True)).group(1)


def test_the_tournament_language_serves_readers_whose_browser_names_none_of_ours(client, organiser):
    t = make_tournament(organiser, "Tampere Open", language="fi")
    assert html_lang(client.get(f"/t/{t.id}", headers=GERMAN)) == "fi"
    assert html_lang(client.get(f"/t/{t.id}/standings")) == "fi"  # no Accept-Language at all
    # the reader's own signals come first: their browser, their choice
    assert html_lang(client.get(f"/t/{t.id}", headers={"Accept-Language": "sv-SE"})) == "sv"
    assert html_lang(client.get(f"/t/{t.id}?lang=es", headers=GERMAN)) == "es"
    client.delete_cookie("lang")
    # a page of no tournament, and a tournament left in English, keep English
    assert html_lang(client.get("/check", headers=GERMAN)) == "en"
    english = make_tournament(organiser, "Espoo Open")
    assert html_lang(client.get(f"/t/{english.id}", headers=GERMAN)) == "en"
    assert html_lang(client.get(f"/t/{t.id + english.id + 100}", headers=GERMAN)) == "en"  # the 404 page


def test_a_players_link_reads_the_tournament_language(client, seated):
    t, ids = seated
    t.language = "zh"
    db.session.commit()
    token = player_links.token_of(player_links.link_of(t, ids[0]))
    db.session.commit()
    response = client.get(f"/p/{token}", headers=GERMAN)
    assert response.status_code == 200 and html_lang(response) == "zh"
    assert html_lang(client.get(f"/p/{token}", headers={"Accept-Language": "fi"})) == "fi"


def test_the_account_language_comes_before_the_browser(organiser_client, organiser, tournament):
    organiser.language = "sv"
    tournament.language = "fi"
    db.session.commit()
    swedish = organiser_client.get("/manage", headers={"Accept-Language": "es"})
    assert html_lang(swedish) == "sv"
    assert html_lang(organiser_client.get(f"/t/{tournament.id}", headers={"Accept-Language": "es"})) == "sv"
    # the footer's switcher on this device still wins
    assert html_lang(organiser_client.get("/manage?lang=zh")) == "zh"
    assert html_lang(organiser_client.get("/manage")) == "zh"


def test_the_account_page_sets_and_forgets_the_language(organiser_client, organiser):
    page = organiser_client.get("/account").get_data(as_text=True)
    assert 'name="language"' in page and "Suomi" in page
    response = post_form(organiser_client, "/account/language", {"language": "fi"}, form_url="/account")
    assert response.status_code == 302
    db.session.refresh(organiser)
    assert organiser.language == "fi"
    assert "lang=fi" in response.headers["Set-Cookie"]  # this device at once, over an older switcher choice
    assert html_lang(organiser_client.get("/account", headers={"Accept-Language": "en"})) == "fi"

    refused = post_form(organiser_client, "/account/language", {"language": "de"}, form_url="/account")
    assert refused.status_code == 400
    db.session.refresh(organiser)
    assert organiser.language == "fi"

    response = post_form(organiser_client, "/account/language", {"language": ""}, form_url="/account")
    assert response.status_code == 302
    db.session.refresh(organiser)
    assert organiser.language is None
    assert "lang=;" in response.headers["Set-Cookie"]  # the cookie deleted: the browser's language again
    assert html_lang(organiser_client.get("/account", headers={"Accept-Language": "es"})) == "es"


def test_the_settings_form_saves_the_default_language(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/edit"
    shown = "en"
    # (chosen, answer, then kept): a language not offered is refused and the saved one stays
    for chosen, status, kept in (("sv", 302, "sv"), ("de", 400, "sv")):
        fields = form_fields(organiser_client, url)
        assert fields["language"] == shown
        assert organiser_client.post(url, data={**fields, "language": chosen}).status_code == status
        db.session.refresh(tournament)
        assert tournament.language == kept
        shown = kept


def test_the_service_refuses_a_language_not_offered():
    assert "language" in validate(TournamentData(name="X", language="de"))
    assert "language" in validate(TournamentData(name="X", language=None))  # type: ignore[arg-type]
    assert "language" not in validate(TournamentData(name="X", language="zh"))


def test_the_api_reads_and_writes_the_language(api, tournament):
    assert api.get(f"/tournaments/{tournament.id}", expect=200).get_json()["language"] == "en"
    created = api.post("/tournaments", {"name": "Uppsala Open", "language": "sv"}, expect=201).get_json()
    assert created["language"] == "sv"
    assert db.session.get(Tournament, created["id"]).language == "sv"
    assert_error(api.post("/tournaments", {"name": "Berlin Open", "language": "de"}), 400, "language")
    assert_error(api.post("/tournaments", {"name": "Berlin Open", "language": 7}), 422, "language")


def test_a_backup_keeps_the_language(api, organiser):
    t = make_tournament(organiser, "Lund Open", language="sv")
    document = api.get(f"/tournaments/{t.id}/export.json", expect=200).get_json()
    assert document["tournament"]["language"] == "sv"
    copy = api.post("/tournaments/import", document, expect=201).get_json()
    assert db.session.get(Tournament, copy["id"]).language == "sv"
    del document["tournament"]["language"]
    document["format_version"] = 1  # a backup made before the setting: English, as its pages were
    old = api.post("/tournaments/import", document, expect=201).get_json()
    assert db.session.get(Tournament, old["id"]).language == "en"


def test_a_live_page_follows_a_changed_default_language(client, organiser):
    # a live page's poll answers 304 from the change marker alone: the tournament's language is known by its
    # version, which a settings change moves on
    t = make_tournament(organiser, "Oulu Open", language="fi")
    url = f"/t/{t.id}/standings"
    first = client.get(url)
    assert html_lang(first) == "fi"
    assert client.get(url, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    t.language = "sv"
    db.session.commit()
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and html_lang(again) == "sv"
