"""Referee penalties: given, listed, cancelled with a reason and kept."""

from __future__ import annotations

import pytest

from tournament.models import ScoreAction
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.play import penalties, scoring


def test_give_and_cancel_a_penalty_keeps_it_with_the_reason(seated, referee):  # noqa: F811
    t, ids = seated
    p = penalties.give_penalty(t, player_id=ids[1], session_number=1, amount=10, reason="  late   arrival ",
                               user=referee, hand_number=3)
    assert (p.amount, p.reason, p.hand_number, p.given_by_id, p.is_cancelled) == (10, "late arrival", 3,
                                                                                   referee.id, False)
    penalties.cancel_penalty(t, p.id, "wrong player", referee)
    assert p.is_cancelled and p.cancel_reason == "wrong player" and p.cancelled_by_id == referee.id
    assert penalties.penalties_of(t, 1) == [p]  # kept, shown struck through
    with pytest.raises(ConflictError):
        penalties.cancel_penalty(t, p.id, "again", referee)
    assert [c.action for c in scoring.history(t, 1)] == [ScoreAction.PENALTY_CANCELLED, ScoreAction.PENALTY_GIVEN]


@pytest.mark.parametrize("kwargs, field", [
    ({"amount": -5}, "amount"),
    ({"foul": "Sneezing"}, "foul"),
    ({"foul": 7}, "foul"),
    ({"amount": True}, "amount"),
    ({"amount": "10"}, "amount"),
    ({"reason": "   "}, "reason"),
    ({"reason": "x" * 501}, "reason"),
    ({"hand_number": 17}, "hand"),
    ({"player_id": 10**6}, "player_id"),
    ({"session_number": "1"}, "session"),
])
def test_bad_penalties_are_refused(seated, referee, kwargs, field):  # noqa: F811
    t, ids = seated
    args = {"player_id": ids[0], "session_number": 1, "amount": 10, "reason": "noise", "user": referee, **kwargs}
    with pytest.raises(ServiceError) as exc:
        penalties.give_penalty(t, **args)
    assert exc.value.field == field
    assert penalties.penalties_of(t) == []


def test_unknown_penalty_and_session(seated, referee):  # noqa: F811
    t, ids = seated
    with pytest.raises(NotFound):
        penalties.cancel_penalty(t, 2**40, "x", referee)
    with pytest.raises(NotFound):
        penalties.give_penalty(t, player_id=ids[0], session_number=9, amount=5, reason="x", user=referee)
