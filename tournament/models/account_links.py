"""Links that manage accounts from the browser: an invitation to a tournament's staff, a password reset.

Each link carries a random token of 256 bits; the database keeps only its SHA-256 (`hash_token`, as for API
tokens and logins), so a leaked database opens no account. A link works once and until it expires.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from tournament.extensions import db
from tournament.models._common import EnumText, utcnow
from tournament.models.users import Role, User


class Invitation(db.Model):
    """An organiser's invitation to join a tournament's staff, sent to an e-mail address (with or without an
    account yet): whoever opens the link chooses a name and a password, or logs in to the existing account."""

    __tablename__ = "invitations"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    role: Mapped[Role] = mapped_column(EnumText(Role, 20))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    invited_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime]
    accepted_at: Mapped[datetime | None]
    accepted_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    tournament: Mapped[Tournament] = relationship()  # noqa: F821 - resolved by SQLAlchemy's registry
    invited_by: Mapped[User | None] = relationship(foreign_keys=[invited_by_id])

    @validates("role")
    def _role_member(self, key: str, value: str) -> Role:
        return Role(value)

    @property
    def is_accepted(self) -> bool:
        return self.accepted_at is not None

    def is_expired(self, now: datetime | None = None) -> bool:
        return (now or utcnow()) >= self.expires_at


class PasswordReset(db.Model):
    """A link to choose a new password: asked for on the login page (mailed to the account) or made by an
    organiser for a member of their staff."""

    __tablename__ = "password_resets"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # The organiser who made it; None when the account's owner asked for it on the login page.
    made_by_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    expires_at: Mapped[datetime]
    used_at: Mapped[datetime | None]

    user: Mapped[User] = relationship(foreign_keys=[user_id])

    def is_expired(self, now: datetime | None = None) -> bool:
        return (now or utcnow()) >= self.expires_at
