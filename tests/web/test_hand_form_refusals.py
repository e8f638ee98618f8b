"""The hand form says why it cannot take a hand, and keeps what was typed (issue 21 item 5)."""

from __future__ import annotations

import re

from tests.helpers import VALID_22, csrf_token, hand_count, hand_form, play_url
from tournament.extensions import db
from tournament.services.play import clock, scoring
from tournament.services.play.scoring import HandData
from tournament.services.seating import lifecycle

FORM = '<form method="post" novalidate class="hand-form"'


def draws(t, numbers) -> None:
    for n in numbers:
        scoring.enter_hand(t, 1, 1, HandData(number=n, result="draw"), None)
    db.session.commit()


def test_a_taken_number_keeps_the_entry_and_offers_the_stored_hand(organiser_client, seated):
    t, ids = seated
    draws(t, [1, 2, 3])
    url = play_url(t) + "/tables/1/hands/new"
    answer = organiser_client.post(url, data={"csrf_token": csrf_token(organiser_client, url),
                                              **hand_form(ids, number=3)})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 409 and hand_count() == 3
    assert "Nothing was saved: hand 3 is already entered at table 1" in html
    assert "was already saved" not in html
    assert f'href="{play_url(t)}/tables/1/hands/3/edit">Correct hand 3</a>' in html
    assert f'value="{VALID_22}"' in html and FORM in html  # what was typed is still there


def test_a_finished_session_says_reopen_and_shows_no_form(organiser_client, seated):
    t, ids = seated
    draws(t, [1])
    lifecycle.finish_session(t, 1, force=True)
    db.session.commit()
    for url in (play_url(t) + "/tables/1/hands/1/edit", play_url(t) + "/tables/1/hands/new"):
        page = organiser_client.get(url)
        html = page.get_data(as_text=True)
        assert page.status_code == 409
        assert "an organiser must reopen it" in html and "start it before" not in html
        assert FORM not in html and "Back to the table" in html
    edit = play_url(t) + "/tables/1/hands/1/edit"
    table = play_url(t) + "/tables/1"
    answer = organiser_client.post(edit, data={"csrf_token": csrf_token(organiser_client, table),
                                               **hand_form(ids, number=1, version=1)})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 409 and "an organiser must reopen it" in html and FORM not in html


def test_a_hand_after_the_time_call_says_why(organiser_client, seated, organiser):
    t, _ = seated
    clock.start(t, 1, organiser)
    draws(t, [1, 2, 3, 4])
    clock.call_time(t, 1, 1, 6, organiser)
    db.session.commit()
    html = organiser_client.get(play_url(t) + "/tables/1/hands/new?hand=7").get_data(as_text=True)
    assert "Time was called at table 1 during hand 6: hand 7 was not played" in html
    assert "Hands that may still be entered at this table: 5, 6." in html
    assert re.search(r'<input[^>]*name="number"[^>]*value="5"', html)  # the first hand still open
    taken = organiser_client.get(play_url(t) + "/tables/1/hands/new?hand=2").get_data(as_text=True)
    assert "Hand 2 is already entered at table 1" in taken and "Correct hand 2</a>" in taken
