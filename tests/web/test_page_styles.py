"""Stylesheets per page (issue 21 item 13): the tiles' styles only where tiles are drawn (the hand checker, the
hand forms), the live pages' styles only on the live pages and projectors; the table page, the login and the
other staff pages fetch neither."""

from __future__ import annotations

from tournament.services.play import clock

TILES, LIVE = "/static/css/tiles.css", "/static/css/live.css"


def styles(client, url: str) -> tuple[bool, bool]:
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.get_data(as_text=True)
    return TILES in html, LIVE in html


def test_each_page_links_the_styles_it_draws_with(organiser_client, in_play, organiser):
    t = in_play
    clock.start(t, 1, organiser)
    staff = f"/manage/tournaments/{t.id}/play/1"
    assert styles(organiser_client, "/check") == (True, False)
    assert styles(organiser_client, f"{staff}/tables/1/hands/new") == (True, False)
    assert styles(organiser_client, f"{staff}/tables/1") == (False, False)
    assert styles(organiser_client, f"{staff}/clock") == (False, False)
    for public in (f"/t/{t.id}/standings", f"/t/{t.id}/projector", f"/t/{t.id}/seating/1/projector",
                   f"/t/{t.id}/statistics"):
        assert styles(organiser_client, public) == (False, True), public
