"""Issue 25, honest provenance: every entry of the seatings' history names who made it, whichever way it was
asked for: a withdrawal on the player's page, and through the JSON API a withdrawal, a late arrival's check-in
(both mend the sessions drawn ahead) and a draw."""

from tests.helpers import add_players, post_form
from tournament.extensions import db
from tournament.models import DrawAction, PlayerStatus
from tournament.services.seating import draws as draw_service


def planned(tournament, players: int = 16):
    """Three sessions planned up front for `players` players checked in and a substitute (who fills the table
    a withdrawal leaves short); the players."""
    tournament.session_count = 3
    db.session.commit()
    field = add_players(tournament, players)
    add_players(tournament, 1, substitute=True, start=100)
    draw_service.plan_all(tournament, seed=4)
    db.session.commit()
    return field


def events_of(tournament, action: DrawAction):
    db.session.expire_all()
    return [e for e in draw_service.draw_events(tournament) if e.action == action]


def test_a_withdrawal_on_the_player_page_names_who_re_planned(organiser_client, organiser, tournament):
    players = planned(tournament)
    gone = players[3]
    url = f"/manage/tournaments/{tournament.id}/players/{gone.id}/withdraw"
    response = post_form(organiser_client, url, {"note": "ill"},
                         form_url=f"/manage/tournaments/{tournament.id}/players")
    assert response.status_code == 302
    replans = events_of(tournament, DrawAction.MENDED)
    assert len(replans) == 3
    assert {e.user_id for e in replans} == {organiser.id}
    assert all(gone.full_name in e.detail for e in replans)
    index = organiser_client.get(f"/manage/tournaments/{tournament.id}/draws").get_data(as_text=True)
    history = index[index.index('data-testid="draw-history"'):]
    rows = [row for row in history.split("<tr>") if "mended" in row]
    assert len(rows) == 3 and all(f"<td>{organiser.display_name}</td>" in row for row in rows)


def test_a_withdrawal_through_the_api_names_who_re_planned(api, organiser, tournament):
    players = planned(tournament)
    api.post(f"/tournaments/{tournament.id}/players/{players[5].id}/withdraw", {"note": "ill"}, expect=200)
    replans = events_of(tournament, DrawAction.MENDED)
    assert len(replans) == 3
    assert {e.user_id for e in replans} == {organiser.id}
    assert {e.who for e in replans} == {organiser.display_name}


def test_a_late_check_in_through_the_api_names_who_re_planned(api, organiser, tournament):
    planned(tournament)
    late = add_players(tournament, 4, status=PlayerStatus.REGISTERED, start=50)
    api.post(f"/tournaments/{tournament.id}/players/{late[0].id}/checkin", expect=200)
    replans = events_of(tournament, DrawAction.MENDED)
    assert len(replans) == 3
    assert {e.user_id for e in replans} == {organiser.id}
    assert all(late[0].full_name in e.detail for e in replans)


def test_a_draw_through_the_api_names_who_drew(api, organiser, tournament):
    add_players(tournament, 8)
    api.post(f"/tournaments/{tournament.id}/sessions/1/draw", {"seed": 12}, expect=201)
    drawn = events_of(tournament, DrawAction.DRAWN)
    assert len(drawn) == 1
    assert drawn[0].user_id == organiser.id and drawn[0].seed == 12 and drawn[0].session_number == 1
    assert drawn[0].who == organiser.display_name
