"""Login throttle: too many failed logins for one account, or from one client address, in a sliding window.

Failures live in the database (login_attempts), so the limit holds across gunicorn workers and restarts.
A failure is written in its own short transaction: the request that reports "wrong password" answers 401,
and the web edge rolls a 4xx request back, but the failure must stay counted. Concurrent guesses can
overshoot a limit by at most the number of requests in flight at once (each checks, then records).
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import delete, func, insert, select

from tournament.extensions import db
from tournament.models._common import utcnow
from tournament.models.users import LoginAttempt

log = logging.getLogger("tournament.auth")


@dataclass(frozen=True)
class Throttled:
    """Logins refused for now: why, and how many seconds until the window lets one through."""

    reason: str
    retry_after: int

    @property
    def message(self) -> str:
        minutes = max(1, math.ceil(self.retry_after / 60))
        return (f"Too many failed logins {self.reason}. Wait {minutes} minute{'s' if minutes > 1 else ''} "
                "and try again.")


def _window() -> timedelta:
    return current_app.config["LOGIN_THROTTLE_WINDOW"]


def _retry_after(column, value: str, limit: int, now: datetime) -> int | None:
    """Seconds until fewer than `limit` failures for `value` remain in the window; None when not throttled."""
    since = now - _window()
    recent = (select(LoginAttempt.created_at)
              .where(column == value, LoginAttempt.created_at > since)
              .order_by(LoginAttempt.created_at.desc()))
    # The limit-th most recent failure: once it leaves the window, one more attempt is allowed.
    boundary = db.session.scalar(recent.offset(limit - 1).limit(1))
    if boundary is None:
        return None
    return max(1, math.ceil((boundary + _window() - now).total_seconds()))


def check(email: str, address: str) -> Throttled | None:
    """Throttled when the account or the address has reached its limit of failures in the window."""
    config = current_app.config
    now = utcnow()
    email = email.strip().lower()
    wait = _retry_after(LoginAttempt.email, email, config["LOGIN_FAILURES_PER_ACCOUNT"], now)
    if wait is not None:
        log.warning("login throttled: account %s (from %s), retry after %ss", email, address, wait)
        return Throttled("for this account", wait)
    wait = _retry_after(LoginAttempt.address, address, config["LOGIN_FAILURES_PER_ADDRESS"], now)
    if wait is not None:
        log.warning("login throttled: address %s (account %s), retry after %ss", address, email, wait)
        return Throttled("from your network address", wait)
    return None


def record_failure(email: str, address: str) -> None:
    """Count a failed login, committed at once on a connection of its own (see the module docstring)."""
    now = utcnow()
    email = email.strip().lower()[:254]
    log.info("failed login for %s from %s", email, address)
    with db.engine.begin() as conn:
        conn.execute(insert(LoginAttempt).values(email=email, address=address[:64], created_at=now))
        # Older failures can never count again: keep the table the size of one window.
        conn.execute(delete(LoginAttempt).where(LoginAttempt.created_at < now - _window()))


def clear_account(email: str) -> None:
    """A successful login forgets the account's failures (part of the request's unit of work)."""
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == email.strip().lower()))


def failures(email: str) -> int:
    """Failures for `email` in the current window (for tests and the logs)."""
    since = utcnow() - _window()
    return db.session.scalar(
        select(func.count()).select_from(LoginAttempt)
        .where(LoginAttempt.email == email.strip().lower(), LoginAttempt.created_at > since)
    ) or 0
