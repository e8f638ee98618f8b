"""services.core.idempotency (issue 22 item 14): a stored answer is replayed only under rights that cover the
rights the request was first carried out with."""

from __future__ import annotations

import pytest

from tournament.extensions import db
from tournament.services.core import idempotency
from tournament.services.core.errors import PermissionDenied
from tournament.services.core.idempotency import Replay, Rights, claim, record

pytestmark = pytest.mark.postgres

REFEREE_ON_STAFF = Rights(account=0, staff=1)


def first_answer(user, key: str, rights: Rights) -> None:
    row = claim(user.id, key, "digest", rights)
    record(row, 201, "{}", "application/json", "")
    db.session.commit()


@pytest.mark.parametrize("now, replayed", [
    (Rights(0, 1), True),    # unchanged
    (Rights(0, 2), True),    # promoted to organiser on the staff
    (Rights(1, 2), True),    # and the account too
    (Rights(0, 0), False),   # removed from the staff
    (Rights(1, 0), False),   # an organiser account, but no longer on this staff
])
def test_a_replay_needs_the_rights_of_the_first_sending(organiser, now, replayed):
    first_answer(organiser, "k", REFEREE_ON_STAFF)
    if replayed:
        assert isinstance(claim(organiser.id, "k", "digest", now), Replay)
    else:
        with pytest.raises(PermissionDenied):
            claim(organiser.id, "k", "digest", now)


def test_an_account_demoted_to_referee_gets_no_replay_of_an_organisers_request(organiser):
    first_answer(organiser, "create", Rights(account=1, staff=None))  # e.g. POST /tournaments
    with pytest.raises(PermissionDenied):
        claim(organiser.id, "create", "digest", Rights(account=0, staff=None))


def test_another_request_with_the_key_is_still_a_422(organiser):
    first_answer(organiser, "k", REFEREE_ON_STAFF)
    with pytest.raises(idempotency.KeyReused):
        claim(organiser.id, "k", "other digest", REFEREE_ON_STAFF)


def test_rights_read_the_staff_role_of_the_tournament_named(organiser, referee, tournament):
    assert idempotency.rights(organiser, tournament) == Rights(1, 2)
    assert idempotency.rights(referee, tournament) == Rights(0, 0)
    assert idempotency.rights(referee, None) == Rights(0, None)
