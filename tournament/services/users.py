"""Accounts, login checks and API tokens."""

from __future__ import annotations

import secrets

from email_validator import EmailNotValidError, validate_email
from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import ApiToken, Role, User
from tournament.models._common import utcnow
from tournament.models.users import hash_token
from tournament.services.db import changes
from tournament.services.errors import NotFound, ServiceError

MIN_PASSWORD_LENGTH = 8


def normalise_email(email: str) -> str:
    try:
        return validate_email(email.strip(), check_deliverability=False).normalized.lower()
    except EmailNotValidError as exc:
        raise ServiceError(f"Not a valid email address: {exc}", field="email") from exc


def find_user_by_email(email: str) -> User | None:
    return db.session.scalar(select(User).where(func.lower(User.email) == email.strip().lower()))


def create_user(email: str, password: str, role: str = Role.REFEREE, name: str = "") -> User:
    email = normalise_email(email)
    if role not in {r.value for r in Role}:
        raise ServiceError(f"Unknown role {role!r}: use organiser or referee.", field="role")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise ServiceError(
            f"The password needs at least {MIN_PASSWORD_LENGTH} characters.", field="password"
        )
    if find_user_by_email(email):
        raise ServiceError(f"An account for {email} already exists.", field="email")
    with changes():
        user = User(email=email, role=str(role), name=name.strip())
        user.set_password(password)
        db.session.add(user)
    return user


def authenticate(email: str, password: str) -> User | None:
    """The user when email and password match an active account, else None (same answer for both)."""
    user = find_user_by_email(email)
    if user is None or not user.active or not user.check_password(password):
        return None
    return user


def create_api_token(user: User, name: str) -> tuple[ApiToken, str]:
    """A new token for `user`; the plain token is returned once and never stored."""
    name = name.strip()
    if not name:
        raise ServiceError("Give the token a name, e.g. the device that will use it.", field="name")
    if len(name) > 80:
        raise ServiceError("Token names are at most 80 characters.", field="name")
    plain = "mcr_" + secrets.token_urlsafe(32)
    with changes():
        token = ApiToken(user_id=user.id, name=name, token_hash=hash_token(plain), prefix=plain[:10])
        db.session.add(token)
    return token, plain


def revoke_api_token(user: User, token_id: int) -> None:
    token = db.session.get(ApiToken, token_id)
    if token is None or token.user_id != user.id:
        raise NotFound("No such token.")
    with changes():
        token.revoked_at = token.revoked_at or utcnow()


def user_for_token(plain: str) -> User | None:
    token = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(plain)))
    if token is None or token.is_revoked or not token.user.active:
        return None
    with changes():
        token.last_used_at = utcnow()
    return token.user
