"""What invitations and password-reset links share: their random tokens and why a link no longer works."""

from __future__ import annotations

import secrets

from tournament.models.users import hash_token
from tournament.services.core.errors import NotFound, ServiceError

# 256 random bits, written in URL-safe base64 (43 characters): far beyond guessing, even without the throttle.
TOKEN_BYTES = 32
MAX_TOKEN_LENGTH = 100  # anything longer is no token of ours: refused before it is hashed


def new_token() -> tuple[str, str]:
    """A fresh token and the digest the database keeps (the token itself is shown or mailed once)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    return token, hash_token(token)


def token_digest(token: str) -> str | None:
    """The digest to look a token up by, or None when it cannot be one of ours."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    return hash_token(token)


class LinkUnknown(NotFound):
    """No link has this token: mistyped, cut off by a mail program, withdrawn or replaced by a newer one."""


class LinkClosed(ServiceError):
    """The link was real but no longer works: used already, or expired. `reason` says which."""

    status_code = 410

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason
