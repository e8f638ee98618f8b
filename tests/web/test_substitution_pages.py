"""Substitutions shown where players look (issue 20): the public seating page (by table and in "find your
table"), the public schedule of both players, and the player's own page."""

from __future__ import annotations

from tests.helpers import add_players
from tournament.extensions import db
from tournament.services.people import player_links
from tournament.services.seating import substitutions


def _out_name(ids) -> str:
    from tournament.models import Player

    return db.session.get(Player, ids[0]).full_name


def _substitute(t, ids):
    sub = add_players(t, 1, substitute=True, start=8)[0]
    substitutions.substitute(t, 1, 1, out_player_id=ids[0], in_player_id=sub.id, from_hand=5, reason="ill",
                             user=None)
    db.session.commit()
    return sub


def test_the_seating_page_shows_who_came_in_where_and_from_which_hand(client, seated):
    t, ids = seated
    sub, out = _substitute(t, ids), _out_name(ids)
    html = client.get(f"/t/{t.id}/seating/1").get_data(as_text=True)
    assert f"From hand 5: <strong>{sub.full_name}</strong> in for {out}" in html
    assert f"{sub.sort_name}</a>" in html and f"substitute for {out}" in html  # find your table
    assert "left from hand 5" in html


def test_both_schedules_say_so(client, seated):
    t, ids = seated
    sub, out = _substitute(t, ids), _out_name(ids)
    theirs = client.get(f"/t/{t.id}/seating/player/{sub.id}").get_data(as_text=True)
    assert f"substitute for {out} from hand 5" in theirs
    left = client.get(f"/t/{t.id}/seating/player/{ids[0]}").get_data(as_text=True)
    assert "left from hand 5" in left
    token = player_links.token_of(player_links.link_of(t, sub.id))
    db.session.commit()
    own = client.get(f"/p/{token}").get_data(as_text=True)
    assert f"substitute for {out} from hand 5" in own


def test_an_ill_player_leaves_the_later_draws_unless_kept(seated):
    """Issue 32: 'ill' (and 'left') withdraws the outgoing player from the later draws unless the referee keeps
    them; a disqualified player leaves whatever the box says."""
    from tournament.models import Player, PlayerStatus

    t, ids = seated
    subs = add_players(t, 3, substitute=True, start=8)
    substitutions.substitute(t, 1, 1, out_player_id=ids[0], in_player_id=subs[0].id, from_hand=5, reason="ill",
                             user=None, stays=True)
    substitutions.substitute(t, 1, 1, out_player_id=ids[1], in_player_id=subs[1].id, from_hand=6, reason="left",
                             user=None)
    substitutions.substitute(t, 1, 1, out_player_id=ids[2], in_player_id=subs[2].id, from_hand=7,
                             reason="disqualified", user=None, stays=True)
    db.session.commit()
    status = {pid: db.session.get(Player, pid).status for pid in ids[:3]}
    assert status == {ids[0]: PlayerStatus.PRESENT, ids[1]: PlayerStatus.WITHDRAWN, ids[2]: PlayerStatus.DISQUALIFIED}


def test_the_table_page_says_before_saving_what_ill_does(organiser_client, seated):
    t, _ = seated
    add_players(t, 1, substitute=True, start=8)  # someone free to come in: the form is shown
    html = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/tables/1").get_data(as_text=True)
    assert "Keep them in the later draws" in html
    assert "without this box the outgoing player is withdrawn from every later draw" in html
