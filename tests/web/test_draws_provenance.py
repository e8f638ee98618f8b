"""Issue 25, honest provenance on the draws pages: a swapped session says its seed no longer reproduces it and
lists the swap with who and when; the draws page lists every draw, re-plan and swap."""

from tests.helpers import add_players, post_form
from tournament.extensions import db
from tournament.services.people import registration
from tournament.services.seating import draws as draw_service


def draws_url(t, suffix=""):
    return f"/manage/tournaments/{t.id}/draws{suffix}"


def test_a_swap_made_on_the_page_is_listed_with_who(organiser_client, organiser, tournament):
    add_players(tournament, 8)
    response = post_form(organiser_client, draws_url(tournament, "/next"), {"seed": "77", "number": "1"},
                         form_url=draws_url(tournament))
    assert response.status_code == 302
    session = draw_service.get_session(tournament, 1)
    page = organiser_client.get(draws_url(tournament, "/1")).get_data(as_text=True)
    assert "with seed <code>77</code>" in page and f"by {organiser.display_name}" in page
    assert "Changed by hand" not in page
    a, b = session.tables()[0][0], session.tables()[1][0]
    response = post_form(organiser_client, draws_url(tournament, "/1/swap"),
                         {"player_a": a, "player_b": b, "version": session.version}, form_url=draws_url(tournament, "/1"))
    assert response.status_code == 200
    db.session.expire_all()
    page = organiser_client.get(draws_url(tournament, "/1")).get_data(as_text=True)
    assert "Changed by hand since:" in page and "not this one" in page
    names = {p.id: p.full_name for p in registration.players_of(tournament)}
    assert f"{organiser.display_name}: {names[a]} ⇄ {names[b]}" in page
    index = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert 'data-testid="draw-history"' in index
    history = index[index.index('data-testid="draw-history"'):]
    assert history.index("swapped") < history.index("drawn")  # newest first
    assert ">swapped</span>" in index  # the sessions table marks the seed as no longer reproducing


def test_a_replan_from_the_draws_page_is_listed(organiser_client, organiser, tournament):
    tournament.session_count = 3
    db.session.commit()
    players = add_players(tournament, 16)
    add_players(tournament, 1, substitute=True, start=100)
    draw_service.plan_all(tournament, seed=4)
    registration.withdraw(players[0], "ill")
    db.session.commit()
    response = post_form(organiser_client, draws_url(tournament, "/replan"), {}, form_url=draws_url(tournament))
    assert response.status_code == 302
    index = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    history = index[index.index('data-testid="draw-history"'):]
    assert history.count("<td>mended</td>") == 3 and f"without {players[0].full_name}" in history
    assert organiser.display_name in history
    page = organiser_client.get(draws_url(tournament, "/2")).get_data(as_text=True)
    assert (f"Repaired from the seating drawn before it: without {players[0].full_name} and with P100 Player100"
            "; everyone else keeps their table.") in page
