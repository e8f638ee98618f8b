"""Invitations to a tournament's staff (services.people.invitations): random single-use tokens kept hashed, an
expiry, one open invitation per address, a new account or an existing one joining the staff."""

from __future__ import annotations

import hashlib
from datetime import timedelta

import pytest
from sqlalchemy import select

from tests.helpers import PASSWORD, make_tournament, make_user
from tournament.extensions import db
from tournament.models import Role, User
from tournament.models._common import utcnow
from tournament.models.account_links import Invitation
from tournament.services.core.errors import PermissionDenied, ServiceError
from tournament.services.people import invitations
from tournament.services.people.account_links import LinkClosed, LinkUnknown
from tournament.services.people.tournaments import staff_role
from tournament.services.people.users import authenticate


def test_an_invitation_has_a_long_random_token_kept_only_as_its_digest(tournament, organiser):
    invitation, token = invitations.invite(tournament, " Rita@Example.org ", "referee", organiser)
    db.session.commit()
    assert len(token) >= 43  # 32 random bytes in URL-safe base64: 256 bits, above the 128 asked
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    stored = db.session.execute(select(Invitation.__table__)).one()._asdict()
    assert token not in {str(v) for v in stored.values()}
    assert invitation.email == "rita@example.org" and invitation.role == Role.REFEREE
    assert invitation.tournament_id == tournament.id and invitation.invited_by_id == organiser.id
    assert timedelta(days=6, hours=23) < invitation.expires_at - utcnow() <= invitations.INVITATION_LIFETIME
    # Two invitations never share a token.
    _, other = invitations.invite(tournament, "sam@example.org", "referee", organiser)
    assert other != token


def test_a_new_account_is_made_with_the_invited_role_and_joins_the_staff(tournament, organiser):
    _, token = invitations.invite(tournament, "rita@example.org", "organiser", organiser)
    user, member = invitations.accept_with_new_account(token, " Rita Referee ", "violet-lantern-harbour")
    db.session.commit()
    assert user.name == "Rita Referee" and user.role == Role.ORGANISER
    assert member.role == Role.ORGANISER and staff_role(user, tournament) == Role.ORGANISER
    assert authenticate("rita@example.org", "violet-lantern-harbour") is user
    # The link works once.
    with pytest.raises(LinkClosed) as used:
        invitations.invitation_for_token(token)
    assert used.value.reason == "used" and used.value.status_code == 410


@pytest.mark.parametrize(("name", "password", "field"), [
    ("Rita", "short", "password"),
    ("Rita", "mahjong2025!", "password"),
    ("Rita", "rita@example.org", "password"),
    ("   ", "violet-lantern-harbour", "name"),
    ("R" * 121, "violet-lantern-harbour", "name"),
])
def test_a_refused_name_or_password_makes_no_account_and_keeps_the_link(tournament, organiser, name, password,
                                                                          field):
    _, token = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    db.session.commit()
    with pytest.raises(ServiceError) as refused:
        invitations.accept_with_new_account(token, name, password)
    assert refused.value.field == field
    db.session.rollback()
    assert db.session.scalar(select(User).where(User.email == "rita@example.org")) is None
    assert invitations.invitation_for_token(token).email == "rita@example.org"


def test_unknown_cut_short_and_expired_links_are_refused_clearly(tournament, organiser):
    invitation, token = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    for bad in ("", token[:-1], token + "x", "x" * 5000):
        with pytest.raises(LinkUnknown) as unknown:
            invitations.invitation_for_token(bad)
        assert unknown.value.status_code == 404
    invitation.expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    with pytest.raises(LinkClosed) as expired:
        invitations.accept_with_new_account(token, "Rita", "violet-lantern-harbour")
    assert expired.value.reason == "expired" and "expired" in expired.value.message


def test_inviting_again_replaces_the_link_and_renewing_or_withdrawing_ends_it(tournament, organiser):
    _, first = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    invitation, second = invitations.invite(tournament, "RITA@example.org", "referee", organiser)
    db.session.commit()
    with pytest.raises(LinkUnknown):
        invitations.invitation_for_token(first)
    assert [i.id for i in invitations.open_invitations(tournament)] == [invitation.id]

    invitation.expires_at = utcnow() - timedelta(days=1)
    renewed, third = invitations.renew(tournament, invitation.id)
    db.session.commit()
    with pytest.raises(LinkUnknown):
        invitations.invitation_for_token(second)
    assert invitations.invitation_for_token(third).id == renewed.id and not renewed.is_expired()

    invitations.withdraw(tournament, renewed.id)
    db.session.commit()
    with pytest.raises(LinkUnknown):
        invitations.invitation_for_token(third)
    assert invitations.open_invitations(tournament) == []


def test_an_existing_account_joins_through_the_link_and_only_that_account(tournament, organiser, referee):
    _, token = invitations.invite(tournament, referee.email, "referee", organiser)
    other = make_user("someone@example.org", "referee")
    assert invitations.account_for(invitations.invitation_for_token(token)) is referee
    with pytest.raises(PermissionDenied):
        invitations.accept_with_account(token, other)
    member = invitations.accept_with_account(token, referee)
    db.session.commit()
    assert member.user_id == referee.id and staff_role(referee, tournament) == Role.REFEREE
    assert authenticate(referee.email, PASSWORD) is referee  # the password is untouched
    with pytest.raises(LinkClosed):
        invitations.accept_with_account(token, referee)


def test_an_account_made_meanwhile_must_log_in_instead(tournament, organiser):
    _, token = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    make_user("rita@example.org", "referee")
    with pytest.raises(ServiceError) as refused:
        invitations.accept_with_new_account(token, "Rita", "violet-lantern-harbour")
    assert refused.value.status_code == 409 and "log in" in refused.value.message


@pytest.mark.parametrize(("email", "role", "field"), [
    ("not-an-address", "referee", "email"),
    ("", "referee", "email"),
    ("rita@example.org", "admin", "role"),
    ("olivia@example.org", "referee", "email"),  # already on the staff
    ("rafael@example.org", "organiser", "role"),  # a referee account cannot organise
])
def test_bad_invitations_are_refused_naming_the_field(tournament, organiser, referee, email, role, field):
    with pytest.raises(ServiceError) as refused:
        invitations.invite(tournament, email, role, organiser)
    assert refused.value.field == field
    assert invitations.open_invitations(tournament) == []


def test_invitations_belong_to_their_tournament(tournament, organiser):
    other = make_tournament(organiser, name="Other Open")
    invitation, _ = invitations.invite(other, "rita@example.org", "referee", organiser)
    with pytest.raises(ServiceError) as missing:
        invitations.withdraw(tournament, invitation.id)
    assert missing.value.status_code == 404
    assert invitations.open_invitations(tournament) == [] and len(invitations.open_invitations(other)) == 1
