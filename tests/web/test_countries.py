"""Countries as people write them, through registration, the CSV import and the API (issue 35 item 7), and
country names on the pages in the reader's language."""

from __future__ import annotations

import pytest

from tests.helpers import Api, assert_error, login, post_form, token_for
from tournament.extensions import db
from tournament.models import Player
from tournament.services.people import registration as reg

WRITTEN = [("GER", "DE"), ("NED", "NL"), ("Suomi", "FI"), ("Deutschland", "DE"), ("芬兰", "FI"),
           ("Países Bajos", "NL"), ("Tyskland", "DE"), ("dnk", "DK"), ("sui", "CH"), ("Alankomaat", "NL")]


def test_the_api_takes_codes_and_names_in_five_languages(client, app_ctx, organiser, tournament):
    api = Api(client, token_for(organiser))
    for i, (given, stored) in enumerate(WRITTEN):
        body = api.post(f"/tournaments/{tournament.id}/players",
                        {"first_name": f"P{i}", "last_name": "Player", "country": given}, expect=201).get_json()
        assert body["country"] == stored, given
    assert_error(api.post(f"/tournaments/{tournament.id}/players",
                          {"first_name": "Q", "last_name": "Player", "country": "Narnia"}), 400, "country")


def test_the_csv_import_takes_them_too(app_ctx, tournament):
    text = "first_name,last_name,country\n" + "".join(f"P{i},Player,{given}\n" for i, (given, _) in enumerate(WRITTEN))
    reg.import_csv(tournament, text)
    db.session.commit()
    stored = {p.first_name: p.country for p in db.session.scalars(db.select(Player))}
    assert stored == {f"P{i}": code for i, (_, code) in enumerate(WRITTEN)}


def test_the_registration_form_takes_them_and_suggests_names_in_the_readers_language(client, app_ctx, organiser,
                                                                                      tournament):
    login(client, organiser.email)
    url = f"/manage/tournaments/{tournament.id}/players/new"
    form = {"first_name": "Aino", "last_name": "Virtanen", "country": "Suomi", "status": "registered"}
    assert post_form(client, url, form).status_code == 302
    assert db.session.scalar(db.select(Player.country)) == "FI"
    html = client.get(url + "?lang=fi").get_data(as_text=True)
    assert '<option value="Saksa">' in html and '<option value="Germany">' not in html


@pytest.mark.parametrize(("lang", "germany"), [("en", "Germany"), ("fi", "Saksa"), ("sv", "Tyskland"),
                                               ("es", "Alemania"), ("zh", "德国")])
def test_pages_name_the_country_in_the_readers_language(client, app_ctx, tournament, lang, germany):
    reg.add_player(tournament, reg.PlayerData("Anna", "Schmidt", country="Deutschland"))
    db.session.commit()
    html = client.get(f"/t/{tournament.id}/players?lang={lang}").get_data(as_text=True)
    assert germany in html
