"""The staff's Appeals page (issue 20 defect 8): file an appeal for a player of the table, decide it on its own
page; errors next to the fields, a double submit saved once, staff only; the appeal window in the settings."""

from __future__ import annotations

from sqlalchemy import func, select

from tests.helpers import form_fields
from tournament.extensions import db
from tournament.models import Appeal
from tournament.services.people.tournaments import add_staff
from tournament.services.play import appeals
from tournament.services.play import session as play


def _url(t, suffix: str = "") -> str:
    return f"/manage/tournaments/{t.id}/appeals{suffix}"


def _staffed(seated, referee):
    t, ids = seated
    add_staff(t, referee.email, "referee")
    db.session.commit()
    return t, ids


def _count() -> int:
    return db.session.scalar(select(func.count()).select_from(Appeal))


def test_a_referee_files_an_appeal_once_however_often_it_is_sent(seated, referee, referee_client):
    t, (east, *_) = _staffed(seated, referee)
    page = referee_client.get(_url(t))
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'href="{_url(t)}" aria-current="page">Appeals</a>' in html  # in the tournament's nav
    for name in ("session", "table", "hand", "player_id", "text"):
        assert f'for="{name}"' in html  # every field labelled (the field() macro)
    assert "up to 30 minutes after it finished" in html
    data = {**form_fields(referee_client, _url(t)), "table": "1", "hand": "4", "player_id": str(east),
            "text": "No Last Tile given."}
    first = referee_client.post(_url(t), data=data)
    second = referee_client.post(_url(t), data=data)  # a double click: the same hidden key
    assert first.status_code == second.status_code == 302
    assert _count() == 1
    [appeal] = appeals.appeals_of(t)
    assert (appeal.session.number, appeal.table_number, appeal.hand_number, appeal.player_id) == (1, 1, 4, east)
    listed = referee_client.get(_url(t)).get_data(as_text=True)
    assert "No Last Tile given." in listed and f'href="{_url(t, f"/{appeal.id}/decision")}"' in listed


def test_errors_stand_next_to_their_fields(seated, referee, referee_client):
    t, (east, *_) = _staffed(seated, referee)
    other = play.table_players(play.get_session(t, 1), 2)[0].player_id
    base = form_fields(referee_client, _url(t))
    empty = referee_client.post(_url(t), data={**base, "table": "1", "player_id": str(east), "text": ""})
    assert empty.status_code == 422
    html = empty.get_data(as_text=True)
    assert 'id="text-error"' in html and 'aria-invalid="true"' in html
    wrong = referee_client.post(_url(t), data={**form_fields(referee_client, _url(t)), "table": "1",
                                               "player_id": str(other), "text": "x"})
    assert wrong.status_code == 422 and "did not sit at table 1" in wrong.get_data(as_text=True)
    assert 'id="player_id-error"' in wrong.get_data(as_text=True)
    bad_hand = referee_client.post(_url(t), data={**form_fields(referee_client, _url(t)), "table": "1",
                                                  "hand": "17", "player_id": str(east), "text": "x"})
    assert bad_hand.status_code == 422 and 'id="hand-error"' in bad_hand.get_data(as_text=True)
    junk = referee_client.post(_url(t), data={**form_fields(referee_client, _url(t)), "table": "1",
                                              "session": "99999999999", "player_id": "x", "text": "x"})
    assert junk.status_code == 422
    assert _count() == 0


def test_deciding_on_the_appeals_own_page(seated, referee, referee_client):
    t, (east, *_) = _staffed(seated, referee)
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Slow play penalty.", referee)
    db.session.commit()
    url = _url(t, f"/{appeal.id}/decision")
    page = referee_client.get(url)
    assert page.status_code == 200 and "Slow play penalty." in page.get_data(as_text=True)
    assert 'for="decision"' in page.get_data(as_text=True)
    missing = referee_client.post(url, data={**form_fields(referee_client, url), "decision": "", "text": ""})
    assert missing.status_code == 422 and 'id="decision-error"' in missing.get_data(as_text=True)
    data = {**form_fields(referee_client, url), "decision": "rejected", "text": "The penalty stands."}
    assert referee_client.post(url, data=data).status_code == 302
    assert referee_client.post(url, data=data).status_code == 302  # the same form again: replayed, once
    db.session.expire_all()
    decided = db.session.get(Appeal, appeal.id)
    assert decided.decision == "rejected" and decided.decision_text == "The penalty stands."
    again = referee_client.post(url, data={**form_fields(referee_client, url), "decision": "upheld", "text": "x"})
    # a new form on a decided appeal: the page shows the decision, no form (nothing to post) -> refused
    assert again.status_code in (409, 422)
    assert db.session.get(Appeal, appeal.id).decision == "rejected"
    listed = referee_client.get(_url(t)).get_data(as_text=True)
    assert "Rejected" in listed and "The penalty stands." in listed and "No open appeal." in listed


def test_a_second_decision_is_a_conflict(seated, referee, referee_client):
    t, (east, *_) = _staffed(seated, referee)
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Appeal", referee)
    db.session.commit()
    url = _url(t, f"/{appeal.id}/decision")
    data = {**form_fields(referee_client, url), "decision": "upheld", "text": "Yes."}
    appeals.decide(t, appeal.id, "rejected", "No.", referee)  # someone else decided meanwhile
    db.session.commit()
    answer = referee_client.post(url, data=data)
    assert answer.status_code == 409 and "already rejected" in answer.get_data(as_text=True)


def test_only_the_staff_see_appeals(seated, referee, referee_client, organiser):
    t, (east, *_) = seated  # the referee is not on this tournament's staff
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Appeal", organiser)
    db.session.commit()
    assert referee_client.get(_url(t)).status_code == 403
    assert referee_client.get(_url(t, f"/{appeal.id}/decision")).status_code == 403
    add_staff(t, referee.email, "referee")
    db.session.commit()
    assert referee_client.get(_url(t, f"/{appeal.id + 1}/decision")).status_code == 404


def test_the_settings_form_has_the_appeal_window(tournament, organiser_client):
    url = f"/manage/tournaments/{tournament.id}/edit"
    fields = form_fields(organiser_client, url)
    assert fields["appeal_minutes"] == "30"
    too_long = organiser_client.post(url, data={**fields, "appeal_minutes": "241"})
    assert too_long.status_code in (400, 422) and 'id="appeal_minutes-error"' in too_long.get_data(as_text=True)
    saved = organiser_client.post(url, data={**form_fields(organiser_client, url), "appeal_minutes": "45"})
    assert saved.status_code == 302
    db.session.expire_all()
    assert tournament.appeal_minutes == 45
