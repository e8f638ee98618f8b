"""Issue 25 on the draws pages: mark finished checks the session, the re-plan warning, the methods explained,
team names as spelled."""

from tests.helpers import add_players, csrf_token, post_form
from tournament.extensions import db
from tournament.models import SessionStatus
from tournament.services.people import registration
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.seating import ahead, lifecycle
from tournament.services.seating import draws as draw_service


def draws_url(t, suffix=""):
    return f"/manage/tournaments/{t.id}/draws{suffix}"


def test_mark_finished_applies_the_session_check(organiser_client, tournament):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=5)
    lifecycle.start_session(tournament, 1)
    db.session.commit()
    token = csrf_token(organiser_client, draws_url(tournament, "/1"))
    refused = organiser_client.post(draws_url(tournament, "/1/status"),
                                    data={"csrf_token": token, "status": "finished", "version": session.version})
    assert refused.status_code == 409
    assert "nothing entered yet" in refused.get_data(as_text=True)
    db.session.refresh(session)
    assert session.status == SessionStatus.IN_PLAY
    for table in (1, 2):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(tournament, 1, table, dict(zip(ids, [30, 10, -15, -25], strict=True)), None)
    db.session.commit()
    db.session.refresh(session)
    token = csrf_token(organiser_client, draws_url(tournament, "/1"))
    done = organiser_client.post(draws_url(tournament, "/1/status"),
                                 data={"csrf_token": token, "status": "finished", "version": session.version})
    assert done.status_code == 302
    db.session.refresh(session)
    assert session.status == SessionStatus.FINISHED


def test_withdrawal_after_a_plan_warns_and_mends(organiser_client, tournament):
    tournament.session_count = 3
    db.session.commit()
    players = add_players(tournament, 16)
    add_players(tournament, 1, substitute=True, start=100)
    draw_service.plan_all(tournament, seed=4)
    registration.withdraw(players[0], "ill")
    db.session.commit()
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert 'data-testid="replan-warning"' in page
    assert f"seat {players[0].full_name}" in page or f"seats {players[0].full_name}" in page
    response = post_form(organiser_client, draws_url(tournament, "/replan"), {}, form_url=draws_url(tournament))
    assert response.status_code == 302
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert "mended without" in page and 'data-testid="replan-warning"' not in page
    for session in draw_service.drawn_sessions(tournament):
        assert players[0].id not in {seat.player_id for seat in session.seats}


def test_late_arrival_after_a_plan_is_planned_in(tournament):
    tournament.session_count = 3
    db.session.commit()
    add_players(tournament, 16)
    draw_service.plan_all(tournament, seed=4)
    late = add_players(tournament, 4, start=50)
    assert ahead.check_ahead(tournament).missing
    said = ahead.mend_ahead(tournament)
    assert said.startswith("Sessions 1–3 mended with")
    for session in draw_service.drawn_sessions(tournament):
        assert {p.id for p in late} <= {seat.player_id for seat in session.seats}


def test_draw_page_explains_both_methods(organiser_client, tournament):
    add_players(tournament, 8)
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert 'data-testid="draw-methods"' in page
    assert "ranks 1–4 at table 1, 5–8 at table 2" in page


def test_team_names_keep_their_spelling_in_the_report(tournament):
    add_players(tournament, 8, team=lambda i: "Dragon Riders" if i < 2 else ("dragon riders" if i < 3 else ""))
    groups = draw_service.groups_for(tournament)
    assert set(groups.values()) == {"Dragon Riders"}  # was "dragon riders": lower-cased in the report


def test_desk_and_draws_page_count_substitutes_as_they_are(organiser_client, tournament):
    add_players(tournament, 9)
    add_players(tournament, 1, substitute=True, start=100)
    desk = organiser_client.get(f"/manage/tournaments/{tournament.id}/checkin").get_data(as_text=True)
    assert "3 substitutes needed, 1 present" in desk
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert "1 substitute present" in page and "1 substitutes" not in page


def test_withdraw_from_the_players_list_replans_and_the_swap_list_marks_it(organiser_client, tournament):
    tournament.session_count = 2
    db.session.commit()
    players = add_players(tournament, 8)
    add_players(tournament, 1, substitute=True, start=100)
    first = draw_service.draw_next(tournament, seed=2)
    lifecycle.start_session(tournament, 1)
    draw_service.draw_next(tournament, seed=3)  # session 2 drawn ahead, not in play
    db.session.commit()
    listing = organiser_client.get(f"/manage/tournaments/{tournament.id}/players").get_data(as_text=True)
    assert f'aria-label="Withdraw {players[0].full_name}"' in listing
    response = post_form(organiser_client, f"/manage/tournaments/{tournament.id}/players/{players[0].id}/withdraw",
                         {"next": f"/manage/tournaments/{tournament.id}/players"},
                         form_url=f"/manage/tournaments/{tournament.id}/players")
    assert response.status_code == 302
    second = draw_service.get_session(tournament, 2)
    assert players[0].id not in {seat.player_id for seat in second.seats}
    # withdrawn elsewhere without a re-plan (a status change the draws do not hear of): the swap list marks them
    other = next(p for p in players if p.id in {seat.player_id for seat in second.seats})
    registration.withdraw(other)
    db.session.commit()
    page = organiser_client.get(draws_url(tournament, "/2")).get_data(as_text=True)
    assert f"{other.sort_name} (withdrawn)" in page
    assert first.number == 1
