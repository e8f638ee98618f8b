"""The shared lookup (NotFound, a 404 at the edge) and version check (every edit names its version)."""

import pytest

from tests.helpers import make_user
from tournament.constants import MAX_ID
from tournament.extensions import db
from tournament.models import ApiToken, Tournament
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.core.records import expect_version, get_or_404
from tournament.services.people.users import create_api_token, revoke_api_token


@pytest.mark.parametrize("bad_id", [0, -1, MAX_ID + 1, "1", None, True])
def test_ids_that_cannot_exist_are_not_found_without_asking(tournament, bad_id):
    with pytest.raises(NotFound, match="No such tournament"):
        get_or_404(Tournament, bad_id, "No such tournament.")


def test_a_record_of_another_owner_is_not_found(tournament):
    assert get_or_404(Tournament, tournament.id, "x", created_by_id=tournament.created_by_id) is tournament
    with pytest.raises(NotFound):
        get_or_404(Tournament, tournament.id, "x", created_by_id=tournament.created_by_id + 1)


def test_version_check_refuses_a_missing_or_stale_version(tournament):
    expect_version(tournament, tournament.version, "stale")
    with pytest.raises(ConflictError, match="stale"):
        expect_version(tournament, tournament.version + 1, "stale")
    with pytest.raises(ServiceError, match="did not say which version") as exc:
        expect_version(tournament, None, "stale")
    assert exc.value.status_code == 400 and exc.value.field == "version"


def test_revoking_another_users_token_is_not_found_and_writes_nothing(organiser, app_ctx):
    token, _ = create_api_token(organiser, "laptop")
    db.session.commit()
    stranger = make_user("sam@example.org", "referee")
    with pytest.raises(NotFound):
        revoke_api_token(stranger, token.id)
    db.session.expire_all()
    assert db.session.get(ApiToken, token.id).revoked_at is None
