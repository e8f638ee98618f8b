"""The session people look for their seat in: one rule for the seating pages and the projector."""

from __future__ import annotations

from types import SimpleNamespace

from tournament.models import SessionStatus
from tournament.services.play.session import session_to_find


def sessions(*statuses: SessionStatus) -> list[SimpleNamespace]:
    return [SimpleNamespace(number=n, status=s, is_published=s != SessionStatus.DRAFT)
            for n, s in enumerate(statuses, start=1)]


def found(found_session) -> int | None:
    return found_session.number if found_session else None


D, P, IN, F = SessionStatus.DRAFT, SessionStatus.PUBLISHED, SessionStatus.IN_PLAY, SessionStatus.FINISHED


def test_the_session_in_play_then_the_next_published_then_the_last():
    assert found(session_to_find(sessions(F, IN, P))) == 2
    assert found(session_to_find(sessions(F, P, P))) == 2  # was 3 on the seating page: the last published
    assert found(session_to_find(sessions(F, F, D))) == 2
    assert found(session_to_find(sessions(D))) is None
    assert found(session_to_find([])) is None


def test_the_projector_shows_the_coming_session_first():
    assert found(session_to_find(sessions(F, IN, P), coming_first=True)) == 3
    assert found(session_to_find(sessions(F, IN, D), coming_first=True)) == 2
    assert found(session_to_find(sessions(F, P, P), coming_first=True)) == 2
    assert found(session_to_find(sessions(F, F), coming_first=True)) == 2
