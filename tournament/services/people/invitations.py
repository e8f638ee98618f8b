"""Invitations to a tournament's staff by e-mail address.

An organiser invites an address as referee or organiser; the invitation's link (a random token, kept only as
its SHA-256) works once, for INVITATION_LIFETIME. Whoever opens it:
- with no account for the address yet: chooses a name and a password, and the account is made with the
  invitation's role;
- with an account already: logs in to it through the link (or, logged in already, confirms), and joins.
Either way they join the tournament's staff in the same transaction that spends the link.
One invitation per address and tournament is open at a time: inviting again replaces the link.

Nobody joins a staff without its owner's consent: adding an existing account is an invitation too, which its
owner accepts or declines on their "My events" page (logged in as themselves) or through the link (with their
own password). Until then the account sees none of the tournament's staff pages.
"""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import delete, select, update

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import Role, Tournament, TournamentStaff, User
from tournament.models._common import utcnow
from tournament.models.account_links import Invitation
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, PermissionDenied, ServiceError
from tournament.services.core.records import get_or_404
from tournament.services.people import users as user_service
from tournament.services.people.account_links import LinkClosed, LinkUnknown, new_token, token_digest
from tournament.services.people.tournaments import staff_role

INVITATION_LIFETIME = timedelta(days=7)
MAX_NAME_LENGTH = 120
ROLE_CHOICE = msg("Choose organiser or referee.")


def _check_role(role: str) -> Role:
    if role not in {r.value for r in Role}:
        raise ServiceError(ROLE_CHOICE, field="role")
    return Role(role)


def _check_account_may_join(t: Tournament, user: User, role: Role) -> None:
    if staff_role(user, t):
        raise ServiceError(msg("%(email)s is already on the staff.", email=user.email), field="email")
    if role == Role.ORGANISER and user.role != Role.ORGANISER:
        raise ServiceError(msg("%(email)s is a referee account and cannot organise.", email=user.email), field="role")


def invite(t: Tournament, email: str, role: str, invited_by: User | None) -> tuple[Invitation, str]:
    """A new invitation and its token (the link's last part: shown or mailed once, never stored)."""
    role_ = _check_role(role)
    email = user_service.normalise_email(email or "")
    existing = user_service.find_user_by_email(email)
    if existing is not None:
        _check_account_may_join(t, existing, role_)
    token, digest = new_token()
    now = utcnow()
    # Two organisers inviting the same address at once: the tournament's row lock makes the second wait, so it
    # replaces the first's invitation instead of leaving two open links.
    db.session.execute(select(Tournament.id).where(Tournament.id == t.id).with_for_update())
    with changes():
        # Inviting the same address again replaces the open invitation: only the newest link works.
        db.session.execute(delete(Invitation).where(
            Invitation.tournament_id == t.id, Invitation.email == email, Invitation.accepted_at.is_(None)))
        invitation = Invitation(tournament_id=t.id, email=email, role=role_, token_hash=digest,
                                invited_by_id=invited_by.id if invited_by else None,
                                created_at=now, expires_at=now + INVITATION_LIFETIME)
        db.session.add(invitation)
    return invitation, token


def open_invitations(t: Tournament) -> list[Invitation]:
    """The tournament's invitations not accepted yet (expired ones too: the organiser may send a new link)."""
    return list(db.session.scalars(
        select(Invitation).where(Invitation.tournament_id == t.id, Invitation.accepted_at.is_(None))
        .order_by(Invitation.created_at.desc(), Invitation.id.desc())))


def _open_invitation(t: Tournament, invitation_id: int) -> Invitation:
    invitation = get_or_404(Invitation, invitation_id, "No such invitation.", tournament_id=t.id)
    if invitation.is_accepted:
        raise ConflictError(msg("%(email)s has already accepted this invitation.", email=invitation.email))
    return invitation


def renew(t: Tournament, invitation_id: int) -> tuple[Invitation, str]:
    """A new link for an open invitation, valid for INVITATION_LIFETIME from now; the old link stops working."""
    invitation = _open_invitation(t, invitation_id)
    token, digest = new_token()
    now = utcnow()
    with changes():
        invitation.token_hash = digest
        invitation.created_at = now
        invitation.expires_at = now + INVITATION_LIFETIME
    return invitation, token


def withdraw(t: Tournament, invitation_id: int) -> Invitation:
    """Withdraw an open invitation: its link stops working. The invitation as it was."""
    invitation = _open_invitation(t, invitation_id)
    with changes():
        db.session.delete(invitation)
    return invitation


def _still_open(invitation: Invitation) -> Invitation:
    """The invitation, unless it was accepted already or has expired (LinkClosed, 410)."""
    if invitation.is_accepted:
        raise LinkClosed(msg("This invitation has already been used: each link works once."), reason="used")
    if invitation.is_expired():
        raise LinkClosed(msg("This invitation expired on %(expires_at)s UTC.", expires_at=f"{invitation.expires_at:%Y-%m-%d %H:%M}"),
                         reason="expired")
    return invitation


def invitation_for_token(token: str) -> Invitation:
    """The invitation the link names, if it may still be accepted; else LinkUnknown (404) or LinkClosed (410)."""
    digest = token_digest(token)
    invitation = db.session.scalar(select(Invitation).where(Invitation.token_hash == digest)) if digest else None
    if invitation is None:
        raise LinkUnknown(msg("This invitation link is not valid: it may be mistyped or cut short, or the"
                              " invitation was withdrawn or replaced by a newer one."))
    return _still_open(invitation)


def account_for(invitation: Invitation) -> User | None:
    """The account of the invited address, if there is one (it logs in instead of choosing a password)."""
    return user_service.find_user_by_email(invitation.email)


def _spend(invitation: Invitation, user: User) -> None:
    """Mark the invitation accepted, unless another request did it first (the link works once)."""
    with changes():
        spent = db.session.execute(
            update(Invitation).where(Invitation.id == invitation.id, Invitation.accepted_at.is_(None))
            .values(accepted_at=utcnow(), accepted_by_id=user.id).execution_options(synchronize_session=False))
    if spent.rowcount != 1:
        raise LinkClosed(msg("This invitation has already been used: each link works once."), reason="used")
    db.session.refresh(invitation)


def _join(invitation: Invitation, user: User) -> TournamentStaff:
    t = invitation.tournament
    # Already on the staff (added by an organiser meanwhile): the link is spent, nothing else to do.
    member = next((m for m in t.staff if m.user_id == user.id), None)
    if member is not None:
        return member
    if invitation.role == Role.ORGANISER and user.role != Role.ORGANISER:
        raise ServiceError(msg("%(email)s is a referee account and cannot organise: ask the organiser to "
                               "invite you as a referee.", email=user.email))
    with changes():
        member = TournamentStaff(tournament_id=t.id, user_id=user.id, role=invitation.role)
        db.session.add(member)
    db.session.refresh(t)
    return member


def accept_with_new_account(token: str, name: str, password: str) -> tuple[User, TournamentStaff]:
    """Make the invited address's account (the invitation's role, the name and password chosen) and join."""
    invitation = invitation_for_token(token)
    if account_for(invitation) is not None:
        raise ConflictError(msg("An account for %(email)s exists now: log in to it to accept.", email=invitation.email))
    name = (name or "").strip()
    if not name:
        raise ServiceError(msg("Enter your name as the other staff will see it."), field="name")
    if len(name) > MAX_NAME_LENGTH:
        raise ServiceError(msg("A name has at most %(max_name_length)s characters.", max_name_length=MAX_NAME_LENGTH), field="name")
    user_service.check_new_password(password or "", invitation.email)
    try:
        user = user_service.create_user(invitation.email, password, invitation.role, name=name)
    except ServiceError as exc:
        if exc.field != "email":
            raise
        # The same link sent twice at once: the other sending made the account a moment ago.
        raise ConflictError(msg("An account for %(email)s exists now: log in to it to accept.", email=invitation.email)) from None
    _spend(invitation, user)
    return user, _join(invitation, user)


def pending_for(user: User) -> list[Invitation]:
    """The invitations waiting for this account's answer (open and not expired), newest first."""
    return list(db.session.scalars(
        select(Invitation).where(Invitation.email == user.email.strip().lower(),
                                 Invitation.accepted_at.is_(None), Invitation.expires_at > utcnow())
        .order_by(Invitation.created_at.desc(), Invitation.id.desc())))


def _owned_invitation(invitation_id: int, user: User) -> Invitation:
    """An open invitation addressed to this account; any other reads as unknown (no one learns of it)."""
    invitation = get_or_404(Invitation, invitation_id, "No such invitation.")
    if invitation.email != user.email.strip().lower():
        raise NotFound(msg("No such invitation."))
    return _still_open(invitation)


def accept(invitation_id: int, user: User) -> TournamentStaff:
    """The account's owner, logged in, accepts an invitation addressed to them (their "My events" page)."""
    invitation = _owned_invitation(invitation_id, user)
    _spend(invitation, user)
    return _join(invitation, user)


def decline(invitation_id: int, user: User) -> Invitation:
    """The account's owner declines: the invitation and its link are gone, as if withdrawn. The invitation."""
    invitation = _owned_invitation(invitation_id, user)
    _ = invitation.tournament  # loaded before the row goes: the page names the tournament declined
    with changes():
        gone = db.session.execute(delete(Invitation).where(Invitation.id == invitation.id,
                                                           Invitation.accepted_at.is_(None)))
    if gone.rowcount != 1:
        raise LinkClosed(msg("This invitation has already been used: each link works once."), reason="used")
    return invitation


def accept_with_account(token: str, user: User) -> TournamentStaff:
    """The invited address's account (logged in, or its password just checked) joins the staff."""
    invitation = invitation_for_token(token)
    if user.email.strip().lower() != invitation.email:
        raise PermissionDenied(msg("This invitation is for %(email)s, not for %(other)s.", email=invitation.email, other=user.email))
    _spend(invitation, user)
    return _join(invitation, user)
