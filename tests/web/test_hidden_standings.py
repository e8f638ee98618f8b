"""Hidden standings (issue 21 item 12): the public gets a page that says so, and the statistics hide too."""

from __future__ import annotations

from tests.helpers import VALID_22
from tournament.extensions import db
from tournament.services.play import scoring
from tournament.services.play.scoring import HandData


def hide(t) -> None:
    t.standings_hidden = True
    db.session.commit()


def test_hidden_standings_page_says_what_happened(client, in_play):
    t = in_play
    hide(t)
    for url in (f"/t/{t.id}/standings", f"/t/{t.id}/standings/teams"):
        response = client.get(url)
        html = response.get_data(as_text=True)
        assert response.status_code == 404
        assert "<h1>Standings hidden</h1>" in html and "Not Found" not in html
        assert "The organisers have hidden the standings until" in html


def test_statistics_hide_with_the_standings(client, seated, auth, organiser):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                         hand=VALID_22), None)
    db.session.commit()
    assert "Pure Straight" in client.get(f"/t/{t.id}/statistics").get_data(as_text=True)
    hide(t)
    page = client.get(f"/t/{t.id}/statistics")
    html = page.get_data(as_text=True)
    assert page.status_code == 404 and "Standings hidden" in html and "Pure Straight" not in html
    as_json = client.get(f"/t/{t.id}/statistics", headers={"Accept": "application/json"})
    assert as_json.status_code == 404 and "hidden the standings" in as_json.get_json()["error"]
    live = client.get(f"/t/{t.id}/live/standings.json")
    assert live.status_code == 404 and "hidden the standings" in live.get_json()["error"]
    # The staff still see them.
    auth.login(organiser)
    assert "Pure Straight" in client.get(f"/t/{t.id}/statistics").get_data(as_text=True)
