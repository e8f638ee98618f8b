"""Only the next session can be drawn through the API: the rule is the service's (draws.require_next)."""

from __future__ import annotations

import pytest

from tournament.services import ConflictError
from tournament.services.seating import draws as draw_service


def test_only_the_next_session(tournament):
    draw_service.require_next(tournament, 1)
    with pytest.raises(ConflictError, match="Session 2 cannot be drawn now: session 1 is the next one to draw."):
        draw_service.require_next(tournament, 2)


def test_none_past_the_last(tournament):
    tournament.session_count = 0
    with pytest.raises(ConflictError, match="all 0 sessions are drawn") as refused:
        draw_service.require_next(tournament, 1)
    assert refused.value.field == "number"
