"""Password-reset links: asked for on the login page (mailed to the account's address), or made by an
organiser for a member of their tournament's staff. A link works once, for RESET_LIFETIME; setting the new
password ends every login and API token of the account, like a password change."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import func, select, update

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import ApiToken, Role, Tournament, TournamentStaff, User
from tournament.models._common import utcnow
from tournament.models.account_links import PasswordReset
from tournament.services.core.db import changes
from tournament.services.core.errors import PermissionDenied, ServiceError
from tournament.services.core.records import get_or_404
from tournament.services.people import users as user_service
from tournament.services.people.account_links import LinkClosed, LinkUnknown, new_token, token_digest

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
    changes one's own password). Mailed to the member's own address, or, when `shown` (no mail server), shown
    to the organiser to hand over: then only for an account the organiser's tournament alone has ever used
    (see `link_may_be_shown`); any other resets by mail or `flask users password`."""
    member = get_or_404(TournamentStaff, member_id, "No such staff member.", tournament_id=t.id)
    if member.user_id == organiser.id:
        raise ServiceError(msg("Change your own password on your account page."))
    if shown:
        refusal = link_may_be_shown(t, member)
        if refusal is not None:
            raise PermissionDenied(refusal)
    if not member.user.active:
        raise ServiceError(msg("The account of %(email)s is disabled.", email=member.user.email))
    return _make(member.user, organiser)


def link_may_be_shown(t: Tournament, member: TournamentStaff) -> str | None:
    """Why an organiser may not be shown a password link for this staff member, or None when they may.

    A shown link sets the account's password, so it is only for an account that is this tournament's alone
    and not yet anyone's own: never an organiser's (it may run other tournaments), never one that has logged
    in or used an API token (its owner has a password they use), never one on another tournament's staff
    (that tournament's organisers did not agree). Those reset through their own mailbox or the command line."""
    user = member.user
    mailbox_only = msg("Their password link goes only to their own mailbox: set up mail (MAIL_SERVER), they use"
                       " 'Forgot your password?', or an administrator runs 'flask users password'.")
    if user.role == Role.ORGANISER or member.role == Role.ORGANISER:
        return msg("%(email)s is an organiser. %(rest)s", email=user.email, rest=mailbox_only)
    used_token = db.session.scalar(select(func.count()).select_from(ApiToken).where(
        ApiToken.user_id == user.id, ApiToken.last_used_at.is_not(None)))
    if user.last_login_at is not None or used_token:
        return msg("%(email)s has logged in to their account before. %(rest)s", email=user.email, rest=mailbox_only)
    elsewhere = db.session.scalar(select(func.count()).select_from(TournamentStaff).where(
        TournamentStaff.user_id == user.id, TournamentStaff.tournament_id != t.id))
    if elsewhere:
        return msg("%(email)s is on the staff of another tournament. %(rest)s", email=user.email, rest=mailbox_only)
    return None


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
