"""Password-reset links (services.people.password_resets): asked for by address (the same None for no account and
for too many requests), made by an organiser for their staff, single-use, expiring, ending every login."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest

from tests.helpers import PASSWORD, make_tournament, make_user
from tournament.extensions import db
from tournament.models._common import utcnow
from tournament.services.core.errors import ServiceError
from tournament.services.people import password_resets
from tournament.services.people import users as user_service
from tournament.services.people.account_links import LinkClosed, LinkUnknown
from tournament.services.people.tournaments import add_staff

NEW = "violet-lantern-harbour"


def test_a_request_for_an_account_gives_a_hashed_single_use_link_that_ends_every_login(app_ctx, referee):
    user_service.start_login(referee)
    user_service.create_api_token(referee, "tablet")
    user, token = password_resets.requested("  RAFAEL@example.org ")
    db.session.commit()
    assert user is referee and len(token) >= 43
    reset = password_resets.reset_for_token(token)
    assert reset.token_hash == hashlib.sha256(token.encode()).hexdigest() and reset.made_by_id is None
    assert reset.expires_at - utcnow() <= password_resets.RESET_LIFETIME

    user, ended, revoked = password_resets.use(token, NEW)
    db.session.commit()
    assert (ended, revoked) == (1, 1)
    assert user_service.authenticate(referee.email, NEW) is referee
    assert user_service.authenticate(referee.email, PASSWORD) is None
    with pytest.raises(LinkClosed) as used:
        password_resets.use(token, "another-lantern-harbour")
    assert used.value.reason == "used"


def test_no_account_a_disabled_one_and_a_fourth_request_in_an_hour_all_give_none(app_ctx, referee):
    assert password_resets.requested("nobody@example.org") is None
    assert password_resets.requested("not an address") is None
    for _ in range(password_resets.MAX_REQUESTS_PER_HOUR):
        assert password_resets.requested(referee.email) is not None
    assert password_resets.requested(referee.email) is None
    referee.active = False
    db.session.commit()
    assert password_resets.requested(make_user("x@example.org", "referee").email) is not None
    assert password_resets.requested(referee.email) is None


def test_using_one_link_spends_the_others_of_the_account(app_ctx, referee):
    _, first = password_resets.requested(referee.email)
    _, second = password_resets.requested(referee.email)
    password_resets.use(second, NEW)
    db.session.commit()
    with pytest.raises(LinkClosed):
        password_resets.reset_for_token(first)


def test_a_weak_password_keeps_the_link_and_the_old_password(app_ctx, referee):
    _, token = password_resets.requested(referee.email)
    db.session.commit()
    with pytest.raises(ServiceError) as weak:
        password_resets.use(token, "mahjong2025")
    assert weak.value.field == "password"
    db.session.rollback()
    assert password_resets.reset_for_token(token).used_at is None
    assert user_service.authenticate(referee.email, PASSWORD) is referee


def test_expired_and_unknown_links(app_ctx, referee):
    _, token = password_resets.requested(referee.email)
    password_resets.reset_for_token(token).expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    with pytest.raises(LinkClosed) as expired:
        password_resets.use(token, NEW)
    assert expired.value.reason == "expired" and expired.value.status_code == 410
    with pytest.raises(LinkUnknown):
        password_resets.reset_for_token(token[:20])


def test_an_organiser_makes_a_link_for_their_staff_only(tournament, organiser, referee):
    member = add_staff(tournament, referee.email, "referee")
    reset, token = password_resets.for_staff_member(tournament, member.id, organiser)
    assert reset.user_id == referee.id and reset.made_by_id == organiser.id
    assert password_resets.reset_for_token(token).user is referee
    own = next(m for m in tournament.staff if m.user_id == organiser.id)
    with pytest.raises(ServiceError, match="your own password"):
        password_resets.for_staff_member(tournament, own.id, organiser)
    other = make_tournament(organiser, name="Other Open")
    with pytest.raises(ServiceError) as missing:
        password_resets.for_staff_member(other, member.id, organiser)
    assert missing.value.status_code == 404
