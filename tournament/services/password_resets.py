"""Password-reset links: asked for on the login page (mailed to the account's address), or made by an
organiser for a member of their tournament's staff. A link works once, for RESET_LIFETIME; setting the new
password ends every login and API token of the account, like a password change."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import Role, Tournament, TournamentStaff, User
from tournament.models._common import utcnow
from tournament.models.account_links import PasswordReset
from tournament.services import users as user_service
from tournament.services.account_links import LinkClosed, LinkUnknown, new_token, token_digest
from tournament.services.db import changes
from tournament.services.errors import PermissionDenied, ServiceError
from tournament.services.records import get_or_404

RESET_LIFETIME = timedelta(hours=1)
# Links mailed to one account on request within an hour: enough for a typo'd mailbox, not a mail bomb.
MAX_REQUESTS_PER_HOUR = 3


def _make(user: User, made_by: User | None) -> tuple[PasswordReset, str]:
    token, digest = new_token()
    now = utcnow()
    with changes():
        reset = PasswordReset(user_id=user.id, token_hash=digest, made_by_id=made_by.id if made_by else None,
                              created_at=now, expires_at=now + RESET_LIFETIME)
        db.session.add(reset)
    return reset, token


def for_staff_member(t: Tournament, member_id: int, organiser: User, *,
                     shown: bool = False) -> tuple[PasswordReset, str]:
    """An organiser's reset link for a member of the tournament's staff (not themselves: the account page
    changes one's own password). `shown`: the link is shown to the organiser (no mail server) rather than
    mailed to the member; then only for a referee's account, never another organiser's, whose account may run
    other tournaments and would be theirs to take over."""
    member = get_or_404(TournamentStaff, member_id, "No such staff member.", tournament_id=t.id)
    if member.user_id == organiser.id:
        raise ServiceError(msg("Change your own password on your account page."))
    if shown and (member.user.role == Role.ORGANISER or member.role == Role.ORGANISER):
        raise PermissionDenied(msg("%(email)s is an organiser: their password link goes only to their own"
                                   " mailbox. Set up mail (MAIL_SERVER), or they use 'Forgot your "
                                   "password?'.", email=member.user.email))
    if not member.user.active:
        raise ServiceError(msg("The account of %(email)s is disabled.", email=member.user.email))
    return _make(member.user, organiser)


def requested(email: str) -> tuple[User, str] | None:
    """"Forgot your password?": the account and a new link's token, or None when there is no active account
    for the address or it had MAX_REQUESTS_PER_HOUR links already (the page answers the same either way)."""
    user = user_service.find_user_by_email(email or "")
    if user is None or not user.active:
        return None
    since = utcnow() - timedelta(hours=1)
    recent = db.session.scalar(select(func.count()).select_from(PasswordReset).where(
        PasswordReset.user_id == user.id, PasswordReset.made_by_id.is_(None), PasswordReset.created_at > since))
    if recent >= MAX_REQUESTS_PER_HOUR:
        return None
    _, token = _make(user, None)
    return user, token


def reset_for_token(token: str) -> PasswordReset:
    """The reset the link names, if it may still be used; else LinkUnknown (404) or LinkClosed (410)."""
    digest = token_digest(token)
    reset = db.session.scalar(select(PasswordReset).where(PasswordReset.token_hash == digest)) if digest else None
    if reset is None:
        raise LinkUnknown(msg("This password link is not valid: it may be mistyped or cut short."))
    if reset.used_at is not None:
        raise LinkClosed(msg("This password link has already been used: each link works once."), reason="used")
    if reset.is_expired():
        raise LinkClosed(msg("This password link expired at %(expires_at)s UTC: links work for %(minutes)s minutes.",
                             expires_at=f"{reset.expires_at:%Y-%m-%d %H:%M}",
                             minutes=int(RESET_LIFETIME.total_seconds() // 60)), reason="expired")
    if not reset.user.active:
        raise LinkClosed(msg("This account is disabled."), reason="disabled")
    return reset


def use(token: str, new_password: str) -> tuple[User, int, int]:
    """Set the new password through the link: the link and every other open link of the account are spent,
    every login and API token of the account ends. (user, logins ended, tokens revoked)."""
    reset = reset_for_token(token)
    user = reset.user
    user_service.check_new_password(new_password or "", user.email)
    now = utcnow()
    with changes():
        spent = db.session.execute(
            update(PasswordReset).where(PasswordReset.id == reset.id, PasswordReset.used_at.is_(None))
            .values(used_at=now).execution_options(synchronize_session=False))
        if spent.rowcount != 1:
            raise LinkClosed(msg("This password link has already been used: each link works once."), reason="used")
        # Any other link of the account (an older mail, an organiser's) stops working too.
        db.session.execute(
            update(PasswordReset).where(PasswordReset.user_id == user.id, PasswordReset.used_at.is_(None))
            .values(used_at=now).execution_options(synchronize_session=False))
    ended, revoked = user_service.reset_password(user, new_password)
    return user, ended, revoked
