"""Confirmations that hold without JavaScript (issue 32 item 10): a redraw needs its box ticked (the server checks
it, the seating unchanged otherwise); removing a staff member opens what it does before the button that does it.
Starting play's own step: tests/web/test_clock_follows_session.py."""

from __future__ import annotations

from tests.helpers import add_players, csrf_token
from tournament.extensions import db
from tournament.services.people.tournaments import add_staff
from tournament.services.seating import draws as draw_service


def test_a_redraw_without_its_box_changes_nothing(organiser_client, tournament):
    t = tournament
    add_players(t, 8)
    session = draw_service.draw_next(t, seed=1)
    db.session.commit()
    before, version = session.tables(), session.version
    page = f"/manage/tournaments/{t.id}/draws/1"
    html = organiser_client.get(page).get_data(as_text=True)
    assert "Replace the current seating" in html and "The tables above are replaced by a new draw." in html
    refused = organiser_client.post(f"{page}/redraw", data={"csrf_token": csrf_token(organiser_client, page),
                                                             "version": version, "seed": "7"})
    assert refused.status_code == 400
    text = refused.get_data(as_text=True)
    assert "Nothing was redrawn" in text and "Tick the box to replace the current seating." in text
    db.session.expire_all()
    assert draw_service.get_session(t, 1).tables() == before
    done = organiser_client.post(f"{page}/redraw", data={"csrf_token": csrf_token(organiser_client, page),
                                                          "version": version, "seed": "7", "replace": "y"})
    assert done.status_code == 302
    db.session.expire_all()
    assert draw_service.get_session(t, 1).seed == 7


def test_the_redraw_says_how_many_swaps_it_replaces(organiser_client, tournament):
    t = tournament
    add_players(t, 8)
    session = draw_service.draw_next(t, seed=1)
    tables = session.tables()
    session = draw_service.swap(t, session, tables[0][0], tables[1][0], expected_version=session.version).session
    draw_service.swap(t, session, tables[0][1], tables[1][1], expected_version=session.version)
    db.session.commit()
    html = organiser_client.get(f"/manage/tournaments/{t.id}/draws/1").get_data(as_text=True)
    assert "The 2 swaps made by hand since the draw are replaced too." in html


def test_removing_a_staff_member_says_what_it_does_first(organiser_client, tournament, referee):
    add_staff(tournament, referee.email, "referee")
    db.session.commit()
    html = organiser_client.get(f"/manage/tournaments/{tournament.id}").get_data(as_text=True)
    opened = html.split('<details class="confirm-inline">')[2]  # the organiser first, then the referee
    summary, rest = opened.split("</summary>", 1)
    assert "Remove" in summary and "<form" not in summary
    assert f"Remove {referee.display_name} from the staff?" in rest and "/remove" in rest.split("</details>")[0]
