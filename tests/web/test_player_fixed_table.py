"""Issue 25: the player's edit form sets a fixed table (access needs), shown again and used by the next draw."""

from tests.helpers import add_players, post_form
from tournament.extensions import db
from tournament.services.seating import draws as draw_service


def test_the_edit_form_sets_and_clears_a_fixed_table(organiser_client, tournament):
    players = add_players(tournament, 8)
    player = players[2]
    url = f"/manage/tournaments/{tournament.id}/players/{player.id}/edit"
    page = organiser_client.get(url).get_data(as_text=True)
    assert "Fixed table (access needs)" in page
    data = {"first_name": player.first_name, "last_name": player.last_name, "country": "FI", "club": "",
            "team": "", "ema_number": "", "status": "present", "notes": "", "version": player.version}
    bad = post_form(organiser_client, url, {**data, "fixed_table": "0"})
    assert bad.status_code == 400 and "A table number from 1" in bad.get_data(as_text=True)
    done = post_form(organiser_client, url, {**data, "fixed_table": "2"})
    assert done.status_code == 302
    db.session.refresh(player)
    assert player.fixed_table == 2
    assert 'value="2"' in organiser_client.get(url).get_data(as_text=True)
    session = draw_service.draw_next(tournament, seed=3)
    assert any(seat.player_id == player.id and seat.table_number == 2 for seat in session.seats)
    cleared = post_form(organiser_client, url, {**data, "fixed_table": "", "version": player.version})
    assert cleared.status_code == 302
    db.session.refresh(player)
    assert player.fixed_table is None
