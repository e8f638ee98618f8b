"""Accounts: organisers and referees, with per-user API tokens for the JSON API."""

from __future__ import annotations

import hashlib
from datetime import datetime
from enum import StrEnum

from flask import current_app, has_app_context
from flask_login import UserMixin
from sqlalchemy import ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates
from werkzeug.security import check_password_hash, generate_password_hash

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow


class Role(StrEnum):
    """An account's role, and the same words for a place on a tournament's staff."""

    ORGANISER = "organiser"
    REFEREE = "referee"


class User(UserMixin, db.Model):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254), unique=True)
    name: Mapped[str] = mapped_column(String(120), default="")
    password_hash: Mapped[str] = mapped_column(String(256))
    role: Mapped[Role] = mapped_column(EnumText(Role, 20), default=Role.REFEREE)
    active: Mapped[bool] = mapped_column(default=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_login_at: Mapped[datetime | None]  # the organisers see their staff's last activity
    # The language the account reads the pages in (a code of tournament.constants.LANGUAGES); None: the browser's.
    language: Mapped[str | None] = mapped_column(String(8))

    tokens: Mapped[list[ApiToken]] = relationship(
        back_populates="user", cascade="all, delete-orphan", order_by="ApiToken.id"
    )

    @validates("role")
    def _role_member(self, key: str, value: str) -> Role:
        return Role(value)

    def set_password(self, password: str) -> None:
        # PASSWORD_HASH_METHOD lets the tests pick a cheap hash; production keeps werkzeug's default.
        method = current_app.config.get("PASSWORD_HASH_METHOD") if has_app_context() else None
        if method:
            self.password_hash = generate_password_hash(password, method=method)
        else:
            self.password_hash = generate_password_hash(password)

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    # The token of the login session this object was loaded for (set by services.people.users.start_login /
    # user_for_login): Flask-Login keeps it as the "user id" in the session and remember cookies, so a cookie
    # names one revocable row of login_sessions, never the bare account id.
    # A plain attribute, not a column (hence no annotation).
    login_token = None

    def get_id(self) -> str:
        if not self.login_token:
            raise RuntimeError("Log in through services.people.users.start_login, which opens a login session.")
        return self.login_token

    @property
    def is_active(self) -> bool:  # Flask-Login refuses inactive accounts
        return self.active

    @property
    def is_organiser(self) -> bool:
        return self.role == Role.ORGANISER

    @property
    def display_name(self) -> str:
        return self.name or self.email

    def __repr__(self) -> str:
        return f"<User {self.email} {self.role}>"


def hash_token(token: str) -> str:
    """API tokens are stored as SHA-256 digests: a leaked database does not leak tokens."""
    return hashlib.sha256(token.encode()).hexdigest()


class ApiToken(db.Model):
    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(80))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    prefix: Mapped[str] = mapped_column(String(12))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    last_used_at: Mapped[datetime | None]
    revoked_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(back_populates="tokens")

    @property
    def is_revoked(self) -> bool:
        return self.revoked_at is not None


class LoginSession(db.Model):
    """One login on one device. Deleting the row ends it everywhere (all gunicorn workers, session and
    remember cookies alike): logout deletes one, a password change or "log out everywhere" all of a user's."""

    __tablename__ = "login_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)  # SHA-256 of the cookie's token
    remember: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)

    user: Mapped[User] = relationship()


class LoginAttempt(db.Model):
    """A failed login, kept for the throttle's sliding window (per account and per client address)."""

    __tablename__ = "login_attempts"
    __table_args__ = (
        Index("ix_login_attempts_email_created_at", "email", "created_at"),
        Index("ix_login_attempts_address_created_at", "address", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(254))
    address: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
