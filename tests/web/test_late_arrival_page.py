"""The late arrival page (issue 34): one form records MERS 2.2's penalty and seats the substitute for the
session; refusals are shown next to the field and record nothing."""

from __future__ import annotations

from tests.helpers import add_players, post_form
from tournament.extensions import db
from tournament.models import Penalty, Substitution


def _url(t) -> str:
    return f"/manage/tournaments/{t.id}/late-arrivals"


def test_one_form_gives_the_penalty_and_seats_the_substitute(organiser_client, seated):
    t, ids = seated
    sub = add_players(t, 1, substitute=True, start=8)[0]
    page = organiser_client.get(_url(t))
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "MERS 2.2" in html and f"{sub.sort_name} (substitute)" in html
    answer = post_form(organiser_client, _url(t), {"player_id": str(ids[0]), "minutes": "17",
                                                   "in_player_id": str(sub.id), "note": ""})
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/manage/tournaments/{t.id}/play/penalties")
    penalty = db.session.scalar(db.select(Penalty))
    substitution = db.session.scalar(db.select(Substitution))
    assert (penalty.player_id, penalty.amount, penalty.foul) == (ids[0], 20, "Late arrival")
    assert (substitution.out_player_id, substitution.in_player_id, substitution.from_hand, substitution.reason) == (
        ids[0], sub.id, 1, "late")
    html = organiser_client.get(answer.headers["Location"]).get_data(as_text=True)
    assert "plays the session in their seat from hand 1" in html
    assert 'id="late-arrival-link"' in html


def test_after_15_minutes_the_substitute_is_asked_for_and_nothing_is_kept(organiser_client, seated):
    t, ids = seated
    answer = post_form(organiser_client, _url(t), {"player_id": str(ids[1]), "minutes": "16", "in_player_id": "",
                                                   "note": ""})
    assert answer.status_code == 422
    assert 'id="in_player_id-error"' in answer.get_data(as_text=True)
    assert db.session.scalar(db.select(db.func.count(Penalty.id))) == 0
    answer = post_form(organiser_client, _url(t), {"player_id": str(ids[1]), "minutes": "8", "in_player_id": "",
                                                   "note": ""})
    assert answer.status_code == 302
    assert db.session.scalar(db.select(Penalty.amount)) == 10


def test_no_session_in_play(organiser_client, tournament):
    html = organiser_client.get(_url(tournament)).get_data(as_text=True)
    assert "recorded while its session is in play" in html


def test_strangers_are_refused(client, tournament, auth, outsider):
    auth.login(outsider)
    assert client.get(_url(tournament)).status_code == 403
