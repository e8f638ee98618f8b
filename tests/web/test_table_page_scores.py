"""The table page's session scores count penalties, as the public results do (issue 21 item 6)."""

from __future__ import annotations

import re

from tests.helpers import VALID_22
from tournament.extensions import db
from tournament.services.play import penalties, scoring
from tournament.services.play.scoring import HandData


def seat_totals(html: str) -> list[str]:
    return re.findall(r'<span class="seat-total"><span class="delta[^"]*">([^<]*)</span>', html)


def test_seat_panel_scores_include_penalties(organiser_client, seated):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                         hand=VALID_22), None)
    penalties.give_penalty(t, player_id=ids[0], session_number=1, amount=10, reason="slow play", user=None)
    cancelled = penalties.give_penalty(t, player_id=ids[2], session_number=1, amount=5, reason="noise", user=None)
    penalties.cancel_penalty(t, cancelled.id, reason="misheard", user=None)
    db.session.commit()
    html = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/tables/1").get_data(as_text=True)
    # Hand 1: 22 points off a discard: +46 to the winner, -30 the discarder, -8 each other player; less 10.
    assert seat_totals(html) == ["+36", "-30", "-8", "-8"]
    assert "incl. penalty &minus;10" in html  # the cancelled penalty counts for nothing
    assert html.count("seat-penalty") == 1
