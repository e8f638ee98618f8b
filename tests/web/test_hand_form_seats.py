"""The hand form's seat buttons (issue 21 item 7): winner and discarder are four seat buttons each, self-drawn
is a choice of its own, and nothing is chosen for the referee: a forgotten discarder is an error next to the
field, never a silent self-draw."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from tests.helpers import UNDER_5, VALID_22, post_form
from tournament.extensions import db
from tournament.models import Hand
from tournament.services.play import scoring
from tournament.services.play import session as play


def form_url(t) -> str:
    return f"/manage/tournaments/{t.id}/play/1/tables/1/hands/new"


def win(ids, **overrides) -> dict:
    data = {"number": 1, "result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": VALID_22, "flowers": 0}
    for i, pid in enumerate(ids):
        data[f"false_mahjongs-{i}-player_id"] = pid
        data[f"false_mahjongs-{i}-kind"] = ""
    data.update(overrides)
    return data


def hands() -> int:
    return db.session.scalar(select(func.count()).select_from(Hand))


def test_the_form_offers_four_seats_with_their_winds_and_self_drawn_and_chooses_nothing(organiser_client, seated):
    t, ids = seated
    html = organiser_client.get(form_url(t) + "?hand=1").get_data(as_text=True)
    players = play.table_players(play.get_session(t, 1), 1)
    for name in ("winner_id", "discarder_id"):
        radios = re.findall(rf'<input type="radio" name="{name}"[^>]*>', html)
        assert len(radios) == (4 if name == "winner_id" else 5)
        assert not any("checked" in r for r in radios), radios  # no default: the referee chooses
    assert 'value="self"' in html and "Self-drawn" in html
    for sp in players:  # each seat button: the seat wind in hand 1 (the drawn wind) and the name
        assert re.search(rf'data-seat-wind="{sp.player_id}">{sp.start_wind}</span>', html)
        assert sp.player.full_name in html
    # The tiles first, then the winner, the discarder, the hand as text; the false-mahjong part folded.
    order = [html.index(part) for part in ('id="hand-picker"', 'id="winner_id"', 'id="discarder_id"', 'name="hand"',
                                           'class="panel false-mahjongs"', 'class="entry-bar"')]
    assert order == sorted(order)
    assert re.search(r'<details class="panel false-mahjongs" data-entry="false-mahjongs">', html)  # not open
    # In hand 5 (South round) the winds have turned: the buttons show that hand's winds.
    later = organiser_client.get(form_url(t) + "?hand=5").get_data(as_text=True)
    winds = play.hand_winds(5).seat_winds
    for sp in players:
        assert re.search(rf'data-seat-wind="{sp.player_id}">{winds[sp.start_wind]}</span>', later)


def test_a_forgotten_discarder_is_an_error_next_to_the_field_not_a_self_draw(organiser_client, seated):
    t, ids = seated
    data = win(ids)
    del data["discarder_id"]  # no seat button pressed: the browser sends nothing
    answer = post_form(organiser_client, form_url(t), data)
    html = answer.get_data(as_text=True)
    assert answer.status_code == 422 and hands() == 0
    assert 'id="discarder_id-error"' in html and "Choose the player, or Self-drawn" in html
    assert 'aria-describedby="discarder_id-error"' in html
    # Not a player id, not "self": no answer either.
    assert post_form(organiser_client, form_url(t), win(ids, discarder_id="nobody")).status_code == 422
    assert post_form(organiser_client, form_url(t), win(ids, discarder_id="")).status_code == 422
    # The winner as the discarder: said in the words of the seat buttons.
    answer = post_form(organiser_client, form_url(t), win(ids, discarder_id=ids[0]))
    assert answer.status_code == 422 and "choose who did, or Self-drawn" in answer.get_data(as_text=True)
    # And a forgotten winner says so too.
    missing = win(ids)
    del missing["winner_id"]
    answer = post_form(organiser_client, form_url(t), missing)
    assert answer.status_code == 422 and 'id="winner_id-error"' in answer.get_data(as_text=True)
    assert hands() == 0


def test_self_drawn_is_an_explicit_choice_and_a_correction_shows_it(organiser_client, seated):
    t, ids = seated
    answer = post_form(organiser_client, form_url(t), win(ids, discarder_id="self"))
    assert answer.status_code == 302, answer.get_data(as_text=True)
    db.session.expire_all()
    hand = scoring.get_hand(t, 1, 1, 1)
    assert hand.discarder_id is None
    # self-drawn: each of the three others pays 8 + 23 (Pure Straight and Fully Concealed Hand, Single Wait)
    assert all(hand.payment_map()[pid] < 0 for pid in ids[1:])
    edit = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/tables/1/hands/1/edit").get_data(as_text=True)
    assert re.search(r'<input type="radio" name="discarder_id" id="discarder_id-self" value="self"\s+checked>', edit)
    assert re.search(rf'<input type="radio" name="winner_id" id="winner_id-0" value="{ids[0]}"\s+checked>', edit)


def test_a_draw_needs_no_seat(organiser_client, seated):
    t, ids = seated
    answer = post_form(organiser_client, form_url(t), win(ids, result="draw", winner_id="", discarder_id="", hand=""))
    assert answer.status_code == 302 and hands() == 1


def test_a_refused_claim_moved_to_false_mahjong_keeps_self_drawn(organiser_client, seated):
    t, ids = seated
    converted = post_form(organiser_client, form_url(t), win(ids, hand=UNDER_5, discarder_id="self", convert="1"))
    html = converted.get_data(as_text=True)
    assert 'checked id="false_mahjongs-0-self_drawn"' in html
    # the claim left the win: the seat buttons are empty again, and the false-mahjong part is open
    assert not re.search(r'name="(winner|discarder)_id"[^>]*checked', html)
    assert re.search(r'<details class="panel false-mahjongs"[^>]*open>', html)
    assert hands() == 0
