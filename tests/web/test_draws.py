import re

import pytest

from tests.helpers import add_players, csrf_token, post_form
from tournament.extensions import db
from tournament.models import SessionStatus
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


def draws_url(t, suffix=""):
    return f"/manage/tournaments/{t.id}/draws{suffix}"


def test_organiser_plans_all_sessions_and_sees_quality(organiser_client, tournament):
    tournament.session_count = 5
    db.session.commit()
    add_players(tournament, 16)
    response = post_form(organiser_client, draws_url(tournament, "/plan"), {"seed": "42"}, form_url=draws_url(tournament))
    assert response.status_code == 302
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert "Planned sessions 1–5 (seed 42)" in page
    assert re.search(r'data-testid="excess-repeats">0', page)
    assert re.search(r'data-testid="winds-balanced">Yes', page)


def test_draw_next_with_too_few_players_shows_the_reason(organiser_client, tournament):
    add_players(tournament, 5)
    response = post_form(organiser_client, draws_url(tournament, "/next"), {"seed": ""}, form_url=draws_url(tournament))
    assert response.status_code == 400
    assert "need 3 more players or substitutes" in response.get_data(as_text=True)
    assert draw_service.drawn_sessions(tournament) == []


def test_bad_seed_is_refused_next_to_the_field(organiser_client, tournament):
    add_players(tournament, 8)
    response = post_form(organiser_client, draws_url(tournament, "/next"), {"seed": "minus one"},
                         form_url=draws_url(tournament))
    assert response.status_code == 400
    assert 'id="seed-error"' in response.get_data(as_text=True)


def test_session_page_publish_and_public_seating(organiser_client, client, tournament):
    players = add_players(tournament, 8)
    post_form(organiser_client, draws_url(tournament, "/next"), {"seed": "5"}, form_url=draws_url(tournament))
    session = draw_service.get_session(tournament, 1)
    # Not published yet: the public does not see it.
    assert "No seating has been published yet" in client.get(f"/t/{tournament.id}/seating").get_data(as_text=True)
    assert client.get(f"/t/{tournament.id}/seating/1").status_code == 404
    page = organiser_client.get(draws_url(tournament, "/1"))
    assert page.status_code == 200
    token = csrf_token(organiser_client, draws_url(tournament, "/1"))
    response = organiser_client.post(draws_url(tournament, "/1/status"),
                                     data={"csrf_token": token, "status": "published", "version": session.version})
    assert response.status_code == 302
    db.session.refresh(session)
    assert session.status == SessionStatus.PUBLISHED
    public = client.get(f"/t/{tournament.id}/seating").get_data(as_text=True)
    for p in players:
        assert p.sort_name in public
    assert "Table <strong>2</strong>" in public
    schedule = client.get(f"/t/{tournament.id}/seating/player/{players[0].id}").get_data(as_text=True)
    assert "Schedule" in schedule and "<strong>" in schedule


def test_stale_status_change_is_refused(organiser_client, tournament):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=1)
    stale = session.version
    lifecycle.set_status(session, SessionStatus.PUBLISHED)
    token = csrf_token(organiser_client, draws_url(tournament, "/1"))
    response = organiser_client.post(draws_url(tournament, "/1/status"),
                                     data={"csrf_token": token, "status": "draft", "version": stale})
    assert response.status_code == 409
    db.session.refresh(session)
    assert session.status == SessionStatus.PUBLISHED


def test_swap_via_form(organiser_client, tournament):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=1)
    tables = session.tables()
    a, b = tables[0][0], tables[1][0]
    response = post_form(organiser_client, draws_url(tournament, "/1/swap"),
                         {"player_a": a, "player_b": b, "version": session.version}, form_url=draws_url(tournament, "/1"))
    assert response.status_code == 200
    assert "Players swapped" in response.get_data(as_text=True)
    db.session.refresh(session)
    assert session.tables()[0][0] == b and session.tables()[1][0] == a


def test_swap_same_player_twice_is_refused(organiser_client, tournament):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=1)
    a = session.tables()[0][0]
    response = post_form(organiser_client, draws_url(tournament, "/1/swap"),
                         {"player_a": a, "player_b": a, "version": session.version}, form_url=draws_url(tournament, "/1"))
    assert response.status_code == 400
    assert "two different players" in response.get_data(as_text=True)


def test_referee_cannot_draw(referee_client, tournament, referee):
    from tournament.services.people.tournaments import add_staff

    add_staff(tournament, referee.email, "referee")
    assert referee_client.get(draws_url(tournament)).status_code == 403
    response = post_form(referee_client, draws_url(tournament, "/plan"), {"seed": "1"}, form_url="/manage")
    assert response.status_code == 403


def test_unknown_session_is_404(organiser_client, tournament):
    assert organiser_client.get(draws_url(tournament, "/3")).status_code == 404


def test_projector_view_lists_names_and_tables(client, tournament):
    players = add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=2)
    assert client.get(f"/t/{tournament.id}/seating/1/projector").status_code == 404  # not published
    lifecycle.set_status(session, SessionStatus.PUBLISHED)
    by_name = client.get(f"/t/{tournament.id}/seating/1/projector").get_data(as_text=True)
    assert 'http-equiv="refresh"' in by_name
    assert all(p.sort_name in by_name for p in players)
    by_table = client.get(f"/t/{tournament.id}/seating/1/projector?by=table").get_data(as_text=True)
    assert "Table 2" in by_table and "Table 3" not in by_table


@pytest.mark.parametrize(("lang", "reason"), [
    ("fi", "5 pelaajaa ja 0 varapelaajaa: 2 pöydän täyttämiseen tarvitaan vielä 3 pelaajaa tai varapelaajaa"),
    ("zh", "5 名选手和 0 名替补：还需 3 名选手或替补才能坐满 2 桌"),
])
def test_the_draw_engines_reason_reads_in_the_readers_language(organiser_client, tournament, lang, reason):
    add_players(tournament, 5)
    organiser_client.get(f"{draws_url(tournament)}?lang={lang}")  # the reader's choice, kept in the cookie
    response = post_form(organiser_client, draws_url(tournament, "/next"), {"seed": ""}, form_url=draws_url(tournament))
    page = response.get_data(as_text=True)
    assert response.status_code == 400 and reason in page and "more players or substitutes" not in page
