"""Device cookies (OWASP "device cookies"): a device that has logged in to an account keeps a signed cookie
saying so, and its later logins to that account are judged by the device's own failures, not the account's.

The cookie holds a random device id and, per account, a digest of the email salted with that id (not the
address itself), signed with SECRET_KEY: it cannot be forged or moved to another account, and it only spares
a device the account's delay; the password is still needed.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import Response, current_app, request
from itsdangerous import BadSignature, URLSafeTimedSerializer

COOKIE = "mcr_device"
LIFETIME = timedelta(days=365)
# A shared laptop at the registration desk logs in to a few staff accounts; the most recent ones are kept.
MAX_ACCOUNTS = 10


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="login-device")


def _digest(device: str, email: str) -> str:
    return hashlib.sha256(f"{device}\n{email.strip().lower()}".encode()).hexdigest()[:32]


def _read() -> tuple[str, list[str]] | None:
    value = request.cookies.get(COOKIE)
    if not value:
        return None
    try:
        data = _serializer().loads(value, max_age=int(LIFETIME.total_seconds()))
        device, accounts = data["d"], data["a"]
    except (BadSignature, KeyError, TypeError):
        return None
    if not isinstance(device, str) or not isinstance(accounts, list):
        return None
    return device, [a for a in accounts if isinstance(a, str)]


def trusted_device(email: str) -> str | None:
    """The id of this device if it has logged in to `email`'s account before, else None."""
    found = _read()
    if found is None:
        return None
    device, accounts = found
    return device if _digest(device, email) in accounts else None


def remember_device(response: Response, email: str) -> None:
    """After a successful login: this device is trusted for the account from now on (for LIFETIME)."""
    device, accounts = _read() or (secrets.token_urlsafe(16), [])
    digest = _digest(device, email)
    accounts = [a for a in accounts if a != digest][-(MAX_ACCOUNTS - 1):] + [digest]
    config = current_app.config
    response.set_cookie(COOKIE, _serializer().dumps({"d": device, "a": accounts}),
                        max_age=int(LIFETIME.total_seconds()), path="/login", httponly=True, samesite="Lax",
                        secure=bool(config.get("SESSION_COOKIE_SECURE")))
