"""Issue 33, where players look: a published session mended after a change of the field marks the moved players'
new table as changed (their schedule, their calendar, the organiser's list, the cards to print again); the check
before publishing names the players registered who have not checked in and leaves them out of that session; the
Swiss ranking breaks ties by a lot from the seed, never by name."""

from __future__ import annotations

from datetime import datetime

import pytest

from tests.helpers import add_players
from tournament.extensions import db
from tournament.models import DrawAction, PlayerStatus, SessionStatus
from tournament.services import ConflictError, ServiceError
from tournament.services.documents import exports, ics
from tournament.services.people import registration
from tournament.services.seating import ahead, schedule, substitutions
from tournament.services.seating import draws as draw_service


@pytest.fixture
def published(tournament):
    """41 players and 3 substitutes, 4 sessions planned and published (11 tables)."""
    tournament.session_count = 4
    db.session.commit()
    players = add_players(tournament, 41)
    add_players(tournament, 3, substitute=True, start=900)
    for s in draw_service.plan_all(tournament, seed=21):
        s.status = SessionStatus.PUBLISHED
    db.session.commit()
    return players


def _tables_of(t, player_id):
    return {s.number: next(seat.table_number for seat in s.seats if seat.player_id == player_id)
            for s in draw_service.drawn_sessions(t) if any(seat.player_id == player_id for seat in s.seats)}


def test_a_mended_published_session_marks_the_moved_players(tournament, published):
    before = {p.id: _tables_of(tournament, p.id) for p in published}
    said = ahead.change_field(tournament, lambda: registration.withdraw(published[0], "ill"))[1]
    db.session.commit()
    assert said.startswith(f"Sessions 1–4 mended without {published[0].full_name}")
    changes = ahead.table_changes(tournament)
    assert changes  # a table was lost: its players moved
    moved = {(c.session, c.player_id) for c in changes}
    for p in published[1:]:
        now = _tables_of(tournament, p.id)
        for number, table in now.items():
            assert ((number, p.id) in moved) == (table != before[p.id][number])
    for number in range(1, 5):
        assert len({c.player_id for c in changes if c.session == number}) <= 4
    change = changes[0]
    assert change.previous_table == before[change.player_id][change.session] and change.table != change.previous_table
    # their schedule and calendar say so
    line = next(x for x in substitutions.schedule_lines(tournament, change.player_id) if x.session == change.session)
    assert line.previous_table == change.previous_table
    player = registration.get_player(tournament, change.player_id)
    schedule.set_planned_starts(tournament, {n: datetime(2026, 5, 16, 8 + 2 * n) for n in range(1, 5)})
    text = ics.player_calendar(tournament, player).decode()
    assert f"changed (was {change.previous_table})" in text.replace("\r\n ", "")
    # the cards to print again: just those players
    cards = exports.schedule_cards(tournament, only={c.player_id for c in changes})
    assert {c.player_id for c in cards} == {c.player_id for c in changes}
    events = [e for e in draw_service.draw_events(tournament) if e.action == DrawAction.MENDED]
    assert len(events) == 4 and all(published[0].full_name in e.detail for e in events)


def test_a_draft_session_mended_marks_nothing(tournament):
    tournament.session_count = 2
    db.session.commit()
    players = add_players(tournament, 17)
    add_players(tournament, 3, substitute=True, start=900)
    draw_service.plan_all(tournament, seed=3)
    db.session.commit()
    ahead.change_field(tournament, lambda: registration.withdraw(players[3]))
    db.session.commit()
    assert ahead.table_changes(tournament) == []


def test_a_player_moved_back_is_no_longer_marked(tournament, published):
    gone = published[0]
    ahead.change_field(tournament, lambda: registration.withdraw(gone, "ill"))
    db.session.commit()
    assert ahead.table_changes(tournament)
    ahead.change_field(tournament, lambda: registration.reinstate(gone))
    ahead.change_field(tournament, lambda: registration.check_in(gone))
    db.session.commit()
    # the field is the one published again: a table opens for them, the others' marks stay only where moved
    for c in ahead.table_changes(tournament):
        assert c.table != c.previous_table


def test_the_check_before_publishing_leaves_out_players_not_checked_in(tournament):
    tournament.session_count = 3
    db.session.commit()
    here = add_players(tournament, 14)
    away = add_players(tournament, 2, status=PlayerStatus.REGISTERED, start=50)
    add_players(tournament, 3, substitute=True, start=900)
    draw_service.plan_all(tournament, seed=8)  # a plan seats those registered
    db.session.commit()
    first = draw_service.get_session(tournament, 1)
    assert [p.id for p in ahead.not_checked_in(tournament, first)] == [p.id for p in away]
    with pytest.raises(ConflictError):
        ahead.leave_out_not_checked_in(tournament, 1, first.version - 1)
    said = ahead.leave_out_not_checked_in(tournament, 1, first.version)
    db.session.commit()
    assert "mended without" in said and all(p.full_name in said for p in away)
    seated = [{seat.player_id for seat in s.seats} for s in draw_service.drawn_sessions(tournament)]
    assert not {p.id for p in away} & seated[0] and {p.id for p in away} <= seated[1]
    assert {p.id for p in here} <= seated[0] and len(seated[0]) == 16  # the substitutes took their seats
    assert ahead.not_checked_in(tournament, draw_service.get_session(tournament, 1)) == []
    with pytest.raises(ServiceError, match="has checked in"):
        ahead.leave_out_not_checked_in(tournament, 1, None)
    # the next change of the field does not put them back into session 1 (they are seated in the later ones)
    late = add_players(tournament, 1, status=PlayerStatus.REGISTERED, start=70)[0]
    ahead.change_field(tournament, lambda: registration.check_in(late))
    db.session.commit()
    first = {seat.player_id for seat in draw_service.get_session(tournament, 1).seats}
    assert late.id in first and not {p.id for p in away} & first
    # a check-in seats a player left out again
    ahead.change_field(tournament, lambda: registration.check_in(away[0]))
    db.session.commit()
    assert away[0].id in {seat.player_id for seat in draw_service.get_session(tournament, 1).seats}


def test_swiss_ties_are_broken_by_a_lot_from_the_seed_not_by_name(tournament):
    players = add_players(tournament, 16)  # nobody has played: all sixteen tied
    by_name = [p.id for p in registration.by_name(players)]
    lots = {tuple(draw_service.swiss_ranking(tournament, seed)) for seed in range(6)}
    assert len(lots) > 1 and tuple(by_name) not in lots
    assert draw_service.swiss_ranking(tournament, 4) == draw_service.swiss_ranking(tournament, 4)
    assert sorted(draw_service.swiss_ranking(tournament, 4)) == sorted(by_name)


def test_the_quality_replan_is_an_explicit_action(tournament, published):
    ahead.change_field(tournament, lambda: registration.withdraw(published[5], "ill"))
    db.session.commit()
    mended = [s.tables() for s in draw_service.drawn_sessions(tournament)]
    preview = ahead.replan(tournament)
    assert [s.tables() for s in draw_service.drawn_sessions(tournament)] == mended
    assert preview.total == len({p for m in preview.moved for p in m})
    assert str(preview.message).startswith("A re-plan for quality would move")
    done = ahead.apply_replan(tournament, preview.total)
    db.session.commit()
    assert [s.tables() for s in draw_service.drawn_sessions(tournament)] == done.tables
    events = [e for e in draw_service.draw_events(tournament) if e.action == DrawAction.REPLANNED]
    assert len(events) == sum(1 for m, old, new in zip(done.moved, mended, done.tables, strict=True)
                              if [tuple(t) for t in old] != [tuple(t) for t in new])
