"""Score entry pages: sessions, the table page, entering, refusing, correcting and deleting hands."""

from __future__ import annotations

from sqlalchemy import func, select

from tests.helpers import (
    NOT_WINNING,
    UNDER_5,
    VALID_22,
    csrf_token,
    hand_count,
    hand_form,
    login,
    make_user,
    play_url,
)
from tournament.extensions import db
from tournament.models import Penalty, ScoreChange
from tournament.services.people.tournaments import add_staff
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.seating import lifecycle


def post(client, url, data, form_url):
    return client.post(url, data={"csrf_token": csrf_token(client, form_url), **data})


def test_session_and_table_pages_show_players_winds_and_missing_hands(organiser_client, seated):
    t, ids = seated
    page = organiser_client.get(play_url(t)).get_data(as_text=True)
    assert "Table 1" in page and "Table 2" in page and "nothing entered yet" in page
    table = organiser_client.get(play_url(t) + "/tables/1")
    html = table.get_data(as_text=True)
    assert table.status_code == 200
    assert html.count('class="hand-row hand-missing"') == 16
    assert "East round" in html and "North round" in html
    assert "Enter hand 1" in html


def test_enter_a_win_through_the_form_then_correct_and_delete_it(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/tables/1/hands/new"
    response = post(organiser_client, url, hand_form(ids, flowers=1), url + "?hand=1")
    assert response.status_code == 302, response.get_data(as_text=True)
    db.session.expire_all()
    hand = scoring.get_hand(t, 1, 1, 1)
    assert hand.payment_map()[ids[1]] == -(8 + 23)
    html = organiser_client.get(play_url(t) + "/tables/1").get_data(as_text=True)
    assert "Pure Straight" in html and "23 points" in html
    # Correct: the discarder was someone else.
    edit = play_url(t) + "/tables/1/hands/1/edit"
    form_page = organiser_client.get(edit).get_data(as_text=True)
    loaded = hand.version
    assert f'value="{loaded}"' in form_page
    response = post(organiser_client, edit, hand_form(ids, flowers=1, discarder_id=ids[2], version=loaded), edit)
    assert response.status_code == 302
    db.session.expire_all()
    assert scoring.get_hand(t, 1, 1, 1).payment_map()[ids[2]] == -31
    # A second correction from the stale page is a conflict and changes nothing.
    stale = post(organiser_client, edit, hand_form(ids, discarder_id=ids[3], version=loaded), edit)
    assert stale.status_code == 409 and "changed by someone else" in stale.get_data(as_text=True)
    db.session.expire_all()
    assert scoring.get_hand(t, 1, 1, 1).payment_map()[ids[2]] == -31
    # Delete with the current version.
    current = scoring.get_hand(t, 1, 1, 1).version
    response = post(organiser_client, play_url(t) + "/tables/1/hands/1/delete", {"version": current}, edit)
    assert response.status_code == 302 and hand_count() == 0
    history = organiser_client.get(play_url(t) + "/history").get_data(as_text=True)
    assert "hand deleted" in history and "hand corrected" in history and "hand entered" in history


def test_under_minimum_claim_is_refused_and_offered_as_false_mahjong(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/tables/1/hands/new"
    response = post(organiser_client, url, hand_form(ids, hand=UNDER_5, flowers=3), url)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "5 points: under the 8-point minimum, flowers not counted" in html
    assert "Record as a false mahjong" in html
    assert hand_count() == 0
    # The offer moves the claim into the claimant's false-mahjong row; nothing is stored yet.
    converted = post(organiser_client, url, hand_form(ids, hand=UNDER_5, convert="1"), url)
    html = converted.get_data(as_text=True)
    assert converted.status_code == 200 and hand_count() == 0
    assert f'id="false_mahjongs-0-hand" maxlength="120" name="false_mahjongs-0-hand" spellcheck="false" type="text" value="{UNDER_5}"' in html
    # The hand goes on and ends in a draw: one record with its false mahjong.
    draw = hand_form(ids, result="draw", winner_id="", discarder_id="", hand="")
    draw["false_mahjongs-0-kind"] = "engine"
    draw["false_mahjongs-0-hand"] = UNDER_5
    assert post(organiser_client, url, draw, url).status_code == 302
    db.session.expire_all()
    hand = scoring.get_hand(t, 1, 1, 1)
    assert [(fm.player_id, fm.kind) for fm in hand.false_mahjongs] == [(ids[0], "under_minimum")]
    assert hand.payment_map() == {ids[0]: -30, ids[1]: 10, ids[2]: 10, ids[3]: 10}


def test_double_submit_stores_the_hand_once(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/tables/1/hands/new"
    token = csrf_token(organiser_client, url)
    first = organiser_client.post(url, data={"csrf_token": token, **hand_form(ids)})
    second = organiser_client.post(url, data={"csrf_token": token, **hand_form(ids)})
    assert first.status_code == 302 and second.status_code == 302
    assert hand_count() == 1
    assert second.location == first.location.split("#")[0]  # the table page, with the notice
    assert "the second submit stored nothing" in organiser_client.get(second.location).get_data(as_text=True)
    # A different hand with the same number is a conflict, not an overwrite.
    other = organiser_client.post(url, data={"csrf_token": token, **hand_form(ids, result="draw", winner_id="",
                                                                              discarder_id="", hand="")})
    assert other.status_code == 409 and hand_count() == 1


def test_field_errors_are_next_to_the_field(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/tables/1/hands/new"
    response = post(organiser_client, url, hand_form(ids, hand=NOT_WINNING, winner_id=ids[0], discarder_id=ids[0]), url)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert 'id="discarder_id-error"' in html
    missing = post(organiser_client, url, hand_form(ids, number=""), url)
    assert missing.status_code == 422 and 'id="number-error"' in missing.get_data(as_text=True)
    fm = hand_form(ids, result="draw", winner_id="", discarder_id="", hand="")
    fm["false_mahjongs-2-kind"] = "engine"
    fm["false_mahjongs-2-hand"] = VALID_22
    response = post(organiser_client, url, fm, url)
    assert response.status_code == 422
    assert 'id="false_mahjongs-2-hand-error"' in response.get_data(as_text=True)
    assert hand_count() == 0


def test_totals_only_table_through_the_form(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/tables/2/totals"
    bad = post(organiser_client, url, {"version": 1, **{f"scores-{i}": 10 for i in range(4)}}, url)
    assert bad.status_code == 422 and "sum to zero" in bad.get_data(as_text=True)
    scores = {f"scores-{i}": v for i, v in enumerate([90, -30, -30, -30])}
    good = post(organiser_client, url, {"version": 1, **scores}, url)
    assert good.status_code == 302
    assert scoring.table_sheet(t, 1, 2).mode == "totals"


def test_penalty_given_and_cancelled_through_the_pages(client, seated):
    t, ids = seated
    referee = make_user("ref@example.org", "referee")
    add_staff(t, referee.email, "referee")
    db.session.commit()
    login(client, referee.email)
    url = f"/manage/tournaments/{t.id}/play/penalties"
    response = post(client, url, {"player_id": ids[2], "session": 1, "amount": 10, "reason": "slow play",
                                  "hand": ""}, url)
    assert response.status_code == 302
    penalty = db.session.scalar(select(Penalty))
    assert (penalty.player_id, penalty.amount, penalty.given_by_id) == (ids[2], 10, referee.id)
    missing_reason = post(client, url + f"/{penalty.id}/cancel", {"reason": ""}, url)
    assert missing_reason.status_code == 302
    db.session.expire_all()
    assert not db.session.get(Penalty, penalty.id).is_cancelled
    post(client, url + f"/{penalty.id}/cancel", {"reason": "wrong table"}, url)
    db.session.expire_all()
    assert db.session.get(Penalty, penalty.id).is_cancelled
    page = client.get(url).get_data(as_text=True)
    assert "<s>slow play</s>" in page and "wrong table" in page
    bad = post(client, url, {"player_id": ids[2], "session": 1, "amount": -1, "reason": "x"}, url)
    assert bad.status_code == 422 and db.session.scalar(select(func.count()).select_from(Penalty)) == 1


def test_closing_a_session_runs_the_check(organiser_client, seated):
    t, ids = seated
    url = play_url(t) + "/finish"
    response = post(organiser_client, url, {}, play_url(t))
    assert response.status_code == 302
    page = organiser_client.get(play_url(t)).get_data(as_text=True)
    assert "not complete" in page and "in play" in page
    assert post(organiser_client, url, {"force": "y"}, play_url(t)).status_code == 302
    assert play.get_session(t, 1).status == "finished"


def test_outsiders_and_wrong_ids(client, seated, organiser):
    t, ids = seated
    assert client.get(play_url(t) + "/tables/1").status_code == 302  # to the login page
    stranger = make_user("stranger@example.org", "referee")
    db.session.commit()
    login(client, stranger.email)
    assert client.get(play_url(t) + "/tables/1").status_code == 403
    client.post("/logout", data={"csrf_token": csrf_token(client, "/manage")})
    login(client, organiser.email)
    for path in ("/tables/9", "/tables/2147483648", "/tables/1/hands/5/edit", "/tables/1/hands/99/edit"):
        assert client.get(play_url(t) + path).status_code == 404, path
    assert client.get(f"/manage/tournaments/{t.id}/play/2147483648").status_code == 404
    assert client.get(f"/manage/tournaments/{t.id}/play/7").status_code == 404


def test_refused_entry_writes_nothing_to_the_history(organiser_client, seated):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, HandData(number=2, result="draw"), None)
    db.session.commit()
    url = play_url(t) + "/tables/1/hands/new"
    post(organiser_client, url, hand_form(ids, number=3, hand=NOT_WINNING), url)
    assert db.session.scalar(select(func.count()).select_from(ScoreChange)) == 1


def test_swiss_draw_button_seats_ranking_neighbours_together(organiser_client, seated):
    t, ids = seated
    # Table 1 plays: its winner and runner-up lead the standings; table 2 enters only draws.
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                         hand=VALID_22), None)
    scoring.enter_hand(t, 1, 2, HandData(number=1, result="draw"), None)
    lifecycle.finish_session(t, 1, force=True)
    db.session.commit()
    from tournament.services.results import standings

    ranking = standings.standings(t).player_ids
    url = f"/manage/tournaments/{t.id}/draws/next"
    response = post(organiser_client, url, {"seed": "", "method": "swiss"}, f"/manage/tournaments/{t.id}/draws")
    assert response.status_code == 302, response.get_data(as_text=True)
    session = play.get_session(t, 2)
    assert session.method == "swiss"
    # Tables of ranking neighbours (moved a little to avoid repeat opponents): the top table holds the
    # better-ranked players on average.
    position = {pid: i for i, pid in enumerate(ranking)}
    top, bottom = (sum(position[p] for p in table) for table in session.tables())
    assert top < bottom
    assert ranking[0] in session.tables()[0]


def test_false_mahjong_rows_take_the_claims_win_context(organiser_client, seated):
    """Issue 20: 123m456m678s234s5p5p is 6 on a discard, 8 self-drawn: ticked self-drawn it is a win."""
    t, ids = seated
    url = play_url(t) + "/tables/1/hands/new"
    assert 'name="false_mahjongs-1-self_drawn"' in organiser_client.get(url).get_data(as_text=True)
    fm = hand_form(ids, result="draw", winner_id="", discarder_id="", hand="")
    fm["false_mahjongs-1-kind"] = "engine"
    fm["false_mahjongs-1-hand"] = "123m456m678s234s5p5p"
    response = post(organiser_client, url, {**fm, "false_mahjongs-1-self_drawn": "y"}, url)
    assert response.status_code == 422 and hand_count() == 0
    assert 'id="false_mahjongs-1-hand-error"' in response.get_data(as_text=True)
    response = post(organiser_client, url, {**fm, "false_mahjongs-1-kong": "y", "false_mahjongs-1-wall_last": "y"},
                    url)
    assert response.status_code == 422 and 'id="false_mahjongs-1-kong-error"' in response.get_data(as_text=True)
    # a refused self-drawn claim offered as a false mahjong keeps its self-drawn flag
    converted = post(organiser_client, url, hand_form(ids, hand=UNDER_5, discarder_id="self", convert="1"), url)
    assert 'checked id="false_mahjongs-0-self_drawn"' in converted.get_data(as_text=True)
    assert post(organiser_client, url, fm, url).status_code == 302
    db.session.expire_all()
    assert [fm.kind for fm in scoring.get_hand(t, 1, 1, 1).false_mahjongs] == ["under_minimum"]


def test_stopped_hand_takes_a_false_mahjong_through_the_form(organiser_client, seated, organiser):
    from tournament.services.play import clock

    t, ids = seated
    t.end_rule = "stop_immediately"
    clock.call_time(t, 1, 1, 1, organiser)
    db.session.commit()
    url = play_url(t) + "/tables/1/hands/1/edit"
    page = organiser_client.get(url).get_data(as_text=True)
    assert 'value="not_scored"' in page and 'value="win"' not in page
    version = scoring.get_hand(t, 1, 1, 1).version
    data = hand_form(ids, result="not_scored", winner_id="", discarder_id="", hand="", version=version)
    data["false_mahjongs-2-kind"] = "not_winning"
    assert post(organiser_client, url, data, url).status_code == 302
    db.session.expire_all()
    hand = scoring.get_hand(t, 1, 1, 1)
    assert hand.result == "not_scored"
    assert hand.payment_map() == {ids[0]: 20, ids[1]: 20, ids[2]: -60, ids[3]: 20}
