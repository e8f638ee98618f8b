"""A player's own language, kept with their private link (issue 24): chosen once with the footer's switcher on
their page, it is the language of that page on any phone that opens the link, before the browser's."""

from __future__ import annotations

from tests.helpers import add_players
from tournament.extensions import db
from tournament.models import PlayerLink
from tournament.services.people import player_links


def _link(tournament) -> tuple[int, str]:
    player = add_players(tournament, 1)[0]
    token = player_links.token_of(player_links.link_of(tournament, player.id))
    db.session.commit()
    return player.id, token


def _lang(page: str) -> str:
    return page.split('<html lang="', 1)[1].split('"', 1)[0]


def test_the_language_chosen_on_the_players_page_follows_the_link_to_another_phone(app, tournament):
    player_id, token = _link(tournament)
    first_phone = app.test_client()
    assert _lang(first_phone.get(f"/p/{token}?lang=fi").get_data(as_text=True)) == "fi"
    assert player_links.chosen_language(player_id) == "fi"

    # The same QR code scanned on another phone, whose browser asks for Swedish: the player's choice wins.
    other_phone = app.test_client()
    page = other_phone.get(f"/p/{token}", headers={"Accept-Language": "sv-SE,sv;q=0.9"})
    assert page.status_code == 200 and _lang(page.get_data(as_text=True)) == "fi"

    # A choice on the page replaces it; a cookie of the reader's own still comes first on that phone.
    assert _lang(other_phone.get(f"/p/{token}?lang=zh").get_data(as_text=True)) == "zh"
    assert db.session.get(PlayerLink, player_links.link_of(tournament, player_id).id).language == "zh"
    third_phone = app.test_client()
    third_phone.set_cookie("lang", "es")
    assert _lang(third_phone.get(f"/p/{token}").get_data(as_text=True)) == "es"


def test_without_a_choice_the_browser_and_then_the_tournament_decide(app, tournament):
    player_id, token = _link(tournament)
    tournament.language = "sv"
    db.session.commit()
    assert _lang(app.test_client().get(f"/p/{token}", headers={"Accept-Language": "es"}).get_data(as_text=True)) == "es"
    assert _lang(app.test_client().get(f"/p/{token}", headers={"Accept-Language": "de"}).get_data(as_text=True)) == "sv"
    assert player_links.chosen_language(player_id) is None  # reading chose nothing


def test_a_language_not_offered_in_the_address_is_not_kept(app, tournament):
    player_id, token = _link(tournament)
    assert app.test_client().get(f"/p/{token}?lang=de").status_code == 200
    assert player_links.chosen_language(player_id) is None
