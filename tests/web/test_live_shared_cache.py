"""The live pages' Cache-Control: a shared cache (nginx's micro-cache) may keep the public's copy for two
seconds; a logged-in user's copy, or one asked for with a token, is never stored anywhere. Weak ETags (what
nginx's gzip makes of them) still answer 304."""

from __future__ import annotations

import pytest

from tests.helpers import token_for
from tournament.extensions import db
from tournament.services.results.visibility import set_standings_hidden

SHARED = "public, max-age=0, s-maxage=2"


@pytest.mark.parametrize("path", ["standings", "standings/sessions/1", "seating/1", "live/standings.json",
                                  "statistics"])
def test_the_publics_copy_may_be_shared_for_two_seconds(client, live_tournament, path):
    url = f"/t/{live_tournament.id}/{path}"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["Cache-Control"] == SHARED
    assert "Cookie" in first.headers["Vary"]  # a request with a cookie is another variant
    assert "Set-Cookie" not in first.headers  # nginx would refuse to keep it, and rightly
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    # The 304 carries it too: nginx's revalidation renews its copy for two more seconds.
    assert again.status_code == 304 and again.headers["Cache-Control"] == SHARED


def test_the_shared_time_is_a_setting(app, client, live_tournament):
    app.config["LIVE_SHARED_CACHE_SECONDS"] = 1
    url = f"/t/{live_tournament.id}/standings"
    assert client.get(url).headers["Cache-Control"] == "public, max-age=0, s-maxage=1"


def test_pages_that_are_not_live_give_a_shared_cache_no_lifetime(client, live_tournament):
    t = live_tournament
    for url in (f"/t/{t.id}", f"/t/{t.id}/players", f"/t/{t.id}/sessions/1/clock.json"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "s-maxage" not in response.headers.get("Cache-Control", ""), url


def test_a_staff_copy_is_never_stored(client, auth, organiser, live_tournament):
    url = f"/t/{live_tournament.id}/standings"
    auth.login(organiser)
    first = client.get(url)
    assert first.status_code == 200 and "Olivia Organiser" in first.get_data(as_text=True)
    assert first.headers["Cache-Control"] == "no-store"
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["Cache-Control"] == "no-store"
    # Hidden standings: the staff still see them, never shareable; the public gets a 404 nobody keeps.
    set_standings_hidden(live_tournament, True)
    db.session.commit()
    hidden = client.get(url)
    assert hidden.status_code == 200 and hidden.headers["Cache-Control"] == "no-store"
    auth.logout()
    refused = client.get(url)
    assert refused.status_code == 404 and "s-maxage" not in refused.headers.get("Cache-Control", "")


def test_a_copy_asked_for_with_a_token_is_never_stored(client, organiser, live_tournament):
    response = client.get(f"/t/{live_tournament.id}/live/standings.json",
                          headers={"Authorization": f"Bearer {token_for(organiser)}"})
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"


def test_a_weak_etag_answers_304(client, live_tournament):
    url = f"/t/{live_tournament.id}/standings"
    etag = client.get(url).headers["ETag"]
    assert client.get(url, headers={"If-None-Match": f"W/{etag}"}).status_code == 304
    assert client.get(url, headers={"If-None-Match": 'W/"other"'}).status_code == 200


def test_a_reader_who_switches_language_gets_the_page_again_not_a_304(client, played):
    """The live ETag names the reader's language: the English copy's ETag sent with a Finnish cookie is no 304."""
    t = played
    english = client.get(f"/t/{t.id}/standings")
    etag = english.headers["ETag"]
    assert client.get(f"/t/{t.id}/standings", headers={"If-None-Match": etag}).status_code == 304
    client.set_cookie("lang", "fi")
    finnish = client.get(f"/t/{t.id}/standings", headers={"If-None-Match": etag})
    assert finnish.status_code == 200 and 'lang="fi"' in finnish.get_data(as_text=True)
