"""Issue 33 on the pages: the organiser sees who changed table in published sessions and prints just their cards,
the player's page marks the new table, the re-plan for quality says whom it moves before it is applied, the
check before publishing leaves out the players not checked in, and `draw_priority` in the settings form."""

from __future__ import annotations

import re

import pytest

from tests.helpers import add_players, post_form
from tournament.extensions import db
from tournament.models import DrawAction, PlayerStatus, SessionStatus, Tournament
from tournament.services.people import player_links, registration
from tournament.services.seating import ahead
from tournament.services.seating import draws as draw_service


def draws_url(t, suffix=""):
    return f"/manage/tournaments/{t.id}/draws{suffix}"


@pytest.fixture
def moved(tournament):
    """41 players and 3 substitutes, 3 sessions planned and published, then a withdrawal (a table fewer)."""
    tournament.session_count = 3
    db.session.commit()
    players = add_players(tournament, 41)
    add_players(tournament, 3, substitute=True, start=900)
    for s in draw_service.plan_all(tournament, seed=31):
        s.status = SessionStatus.PUBLISHED
    db.session.commit()
    ahead.change_field(tournament, lambda: registration.withdraw(players[0], "ill"))
    db.session.commit()
    changes = ahead.table_changes(tournament)
    assert changes
    return changes


def test_the_organiser_sees_who_changed_table_and_prints_their_cards(organiser_client, tournament, moved):
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert 'data-testid="table-changes"' in page
    for change in moved:
        assert f"Session {change.session}: {change.name}, table {change.previous_table} → {change.table}" in page
    assert "schedule-cards.pdf?changed=1" in page
    cards = organiser_client.get(f"/manage/tournaments/{tournament.id}/exports/schedule-cards.pdf?changed=1")
    assert cards.status_code == 200 and cards.mimetype == "application/pdf"
    printing = organiser_client.get(f"/manage/tournaments/{tournament.id}/exports").get_data(as_text=True)
    assert 'id="changed-cards"' in printing


def test_the_player_page_marks_the_changed_table(client, tournament, moved):
    change = moved[0]
    token = player_links.token_of(player_links.link_of(tournament, change.player_id))
    db.session.commit()
    page = client.get(f"/p/{token}").get_data(as_text=True)
    assert f"changed (was {change.previous_table})" in page


def test_the_quality_replan_shows_whom_it_moves_then_applies(organiser_client, tournament, moved):
    before = [s.tables() for s in draw_service.drawn_sessions(tournament)]
    shown = post_form(organiser_client, draws_url(tournament, "/quality"), {}, form_url=draws_url(tournament))
    assert shown.status_code == 200
    page = shown.get_data(as_text=True)
    assert 'data-testid="replan-preview"' in page and "A re-plan for quality would move" in page
    assert [s.tables() for s in draw_service.drawn_sessions(tournament)] == before  # nothing changed yet
    expected = re.search(r'name="expected_moved" type="hidden" value="(\d+)"', page) or \
        re.search(r'name="expected_moved" value="(\d+)"', page)
    assert expected
    done = post_form(organiser_client, draws_url(tournament, "/quality"),
                     {"expected_moved": expected.group(1), "apply": "Re-plan for quality"},
                     form_url=draws_url(tournament), follow_redirects=True)
    assert done.status_code == 200
    assert "re-planned for quality" in done.get_data(as_text=True) or "Nothing changed" in done.get_data(as_text=True)
    stale = post_form(organiser_client, draws_url(tournament, "/quality"),
                      {"expected_moved": "99999", "apply": "Re-plan for quality"}, form_url=draws_url(tournament))
    assert stale.status_code == 409


def test_the_check_before_publishing_leaves_out_players_not_checked_in(organiser_client, tournament):
    tournament.session_count = 2
    db.session.commit()
    add_players(tournament, 14)
    away = add_players(tournament, 2, status=PlayerStatus.REGISTERED, start=50)
    add_players(tournament, 2, substitute=True, start=900)
    draw_service.plan_all(tournament, seed=6)
    db.session.commit()
    page = organiser_client.get(draws_url(tournament, "/1")).get_data(as_text=True)
    assert 'data-testid="not-checked-in"' in page and all(p.full_name in page for p in away)
    done = post_form(organiser_client, draws_url(tournament, "/1/leave-out"),
                     {"version": draw_service.get_session(tournament, 1).version}, form_url=draws_url(tournament, "/1"),
                     follow_redirects=True)
    assert done.status_code == 200 and "mended without" in done.get_data(as_text=True)
    assert 'data-testid="not-checked-in"' not in done.get_data(as_text=True)
    events = [e for e in draw_service.draw_events(tournament) if e.action == DrawAction.MENDED]
    assert [e.session_number for e in events] == [1]


def test_swiss_keeping_apart_is_offered_once_a_session_is_played(organiser_client, tournament):
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=1)
    draw_service.get_session(tournament, 1).status = SessionStatus.FINISHED
    db.session.commit()
    page = organiser_client.get(draws_url(tournament)).get_data(as_text=True)
    assert 'value="swiss-apart"' in page and "never by name" in page


def test_draw_priority_in_the_settings_form(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/edit"
    page = organiser_client.get(url).get_data(as_text=True)
    assert 'name="draw_priority"' in page and 'value="teams_first"' in page
    form = dict(re.findall(r'<input[^>]*name="(\w+)"[^>]*value="([^"]*)"', page))
    for name, value in re.findall(r'<select[^>]*name="(\w+)".*?<option[^>]*value="([^"]*)"[^>]*selected', page,
                                  re.S):
        form[name] = value
    form.pop("csrf_token", None)
    form["draw_priority"] = "teams_first"
    saved = post_form(organiser_client, url, form)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:2000]
    assert db.session.get(Tournament, tournament.id).draw_priority == "teams_first"
    form["draw_priority"] = "friends_first"
    refused = post_form(organiser_client, url, {**form, "version": db.session.get(Tournament, tournament.id).version})
    assert refused.status_code == 400
