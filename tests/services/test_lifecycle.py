"""A session's life (`services.seating.lifecycle`): the one table of allowed moves, and what each move records."""

import itertools

import pytest

from tests.helpers import add_players
from tournament.extensions import db
from tournament.models import SessionStatus
from tournament.services import ConflictError, ServiceError
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle

EXPECTED_MOVES = {
    ("draft", "published"), ("published", "draft"), ("published", "in_play"),
    ("in_play", "finished"), ("finished", "in_play"),
}


@pytest.mark.parametrize(("before", "after"), list(itertools.product([s.value for s in SessionStatus], repeat=2)))
def test_every_move_is_allowed_or_refused_by_the_one_table(tournament, before, after):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=4)
    session.status = before
    db.session.flush()
    if (before, after) in EXPECTED_MOVES:
        assert lifecycle.set_status(session, after).status == after
    else:
        with pytest.raises(ServiceError, match="cannot become"):
            lifecycle.set_status(session, after)
        assert session.status == before


def test_each_move_records_its_times(tournament):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=4)
    with pytest.raises(ServiceError, match="Unknown"):
        lifecycle.set_status(session, "exploded")
    lifecycle.set_status(session, SessionStatus.PUBLISHED)
    assert session.published_at is not None
    lifecycle.set_status(session, SessionStatus.DRAFT)
    assert session.published_at is None  # unpublished: players no longer see it
    lifecycle.start_session(tournament, 1)  # a draft is published on the way
    assert session.status == SessionStatus.IN_PLAY and session.published_at is not None
    assert session.finished_at is None
    lifecycle.finish_session(tournament, 1, force=True)
    assert session.finished_at is not None  # the appeal window runs from here
    lifecycle.reopen_session(tournament, 1)
    assert session.status == SessionStatus.IN_PLAY and session.finished_at is None


def test_a_stale_page_cannot_move_a_session(tournament):
    add_players(tournament, 8)
    session = draw_service.draw_next(tournament, seed=4)
    seen = session.version
    lifecycle.set_status(session, SessionStatus.PUBLISHED, expected_version=seen)
    with pytest.raises(ConflictError):
        lifecycle.set_status(session, SessionStatus.DRAFT, expected_version=seen)


def test_finishing_an_incomplete_session_is_refused_unless_forced(tournament):
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=4)
    lifecycle.start_session(tournament, 1)
    with pytest.raises(ConflictError, match="not complete"):
        lifecycle.finish_session(tournament, 1)
    with pytest.raises(ConflictError, match="not finished"):
        lifecycle.reopen_session(tournament, 1)
    assert lifecycle.finish_session(tournament, 1, force=True).status == SessionStatus.FINISHED
    with pytest.raises(ConflictError, match="reopen it"):
        lifecycle.start_session(tournament, 1)
