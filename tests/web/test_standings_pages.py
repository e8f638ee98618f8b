"""Public standings pages and the standings PDF, computed from the hands entered."""

from __future__ import annotations

import re

from tests.helpers import VALID_22
from tournament.extensions import db
from tournament.services.play import penalties, scoring
from tournament.services.play.scoring import HandData


def test_standings_follow_the_hands_entered(client, seated):  # noqa: F811
    t, ids = seated
    empty = client.get(f"/t/{t.id}/standings").get_data(as_text=True)
    assert "Standings" in empty
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[2], discarder_id=ids[0],
                                         hand=VALID_22), None)
    penalties.give_penalty(t, player_id=ids[1], session_number=1, amount=10, reason="noise", user=None)
    db.session.commit()
    html = client.get(f"/t/{t.id}/standings").get_data(as_text=True)
    names = re.findall(r'<th scope="row" class="player-name">(?:<a [^>]*>)?([^<]+)', html)
    assert len(names) == 8
    from tournament.models import Player

    first = db.session.get(Player, ids[2]).full_name
    assert names[0] == first  # the only winner leads
    session_page = client.get(f"/t/{t.id}/standings/sessions/1").get_data(as_text=True)
    assert "(−10)" in session_page  # the penalty is shown with the score it lowered
    assert client.get(f"/t/{t.id}/standings/sessions/2").status_code == 404
    assert client.get(f"/t/{t.id}/standings/teams").status_code == 200
    assert client.get("/t/2147483648/standings").status_code == 404


def test_standings_pdf_is_for_staff_and_saved(client, organiser_client, seated, app):  # noqa: F811
    t, ids = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    db.session.commit()
    with app.app_context():  # a context of its own: Flask-Login caches the user on `g`
        anonymous = app.test_client().get(f"/manage/tournaments/{t.id}/standings.pdf")
    assert anonymous.status_code == 302 and "/login" in anonymous.headers["Location"]
    response = organiser_client.get(f"/manage/tournaments/{t.id}/standings.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF")
    import os

    saved = [f for f in os.listdir(app.config["EXPORT_DIR"]) if f.startswith(f"standings-{t.id}-")]
    assert len(saved) == 1
