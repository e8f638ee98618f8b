"""Login throttle: too many failed logins for one account, or from one client address, in a sliding window.

Failures live in the database (login_attempts), so the limit holds across gunicorn workers and restarts.
Each attempt is counted *before* the password is checked, in a short transaction of its own: committed at
once (the request that answers "wrong password" is a 401, which the web edge rolls back, but the failure
must stay counted); a success takes it back. Attempts on one account or from one address are counted one
at a time (PostgreSQL advisory locks; SQLite writes one at a time anyway), so concurrent guesses on
several workers cannot get past the limit either.
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import current_app
from sqlalchemy import Connection, delete, func, insert, select, text

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


def _key(email: str) -> str:
    return email.strip().lower()[:254]


def _retry_after(conn: Connection, column, value: str, limit: int, now: datetime) -> int | None:
    """Seconds until fewer than `limit` failures for `value` remain in the window; None when not throttled."""
    recent = (select(LoginAttempt.created_at)
              .where(column == value, LoginAttempt.created_at > now - _window())
              .order_by(LoginAttempt.created_at.desc()))
    # The limit-th most recent failure: once it leaves the window, one more attempt is allowed.
    boundary = conn.scalar(recent.offset(limit - 1).limit(1))
    if boundary is None:
        return None
    return max(1, math.ceil((boundary + _window() - now).total_seconds()))


def _throttled(conn: Connection, email: str, address: str, now: datetime) -> Throttled | None:
    config = current_app.config
    for column, value, limit, reason in (
        (LoginAttempt.email, email, config["LOGIN_FAILURES_PER_ACCOUNT"], "for this account"),
        (LoginAttempt.address, address, config["LOGIN_FAILURES_PER_ADDRESS"], "from your network address"),
    ):
        wait = _retry_after(conn, column, value, limit, now)
        if wait is not None:
            log.warning("login throttled %s: account %s, address %s, retry after %ss",
                        reason, email, address, wait)
            return Throttled(reason, wait)
    return None


def begin_attempt(email: str, address: str) -> Throttled | None:
    """Throttled when the account or the address has reached its limit in the window (nothing is counted
    then: a lock-out ends with the window). Otherwise the attempt is counted as a failure at once, until
    `succeeded` takes it back."""
    email, address, now = _key(email), address[:64], utcnow()
    with db.engine.connect() as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            # One attempt at a time per account and per address, always in this order (no deadlock).
            for key in (f"login-account:{email}", f"login-address:{address}"):
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": key})
        # Older failures can never count again: the table stays the size of one window. Writing first also
        # makes SQLite take its write lock before counting.
        conn.execute(delete(LoginAttempt).where(LoginAttempt.created_at <= now - _window()))
        throttled = _throttled(conn, email, address, now)
        if throttled is None:
            conn.execute(insert(LoginAttempt).values(email=email, address=address, created_at=now))
    return throttled


def failed(email: str, address: str) -> None:
    """The attempt failed: it stays counted; logged for whoever watches the logs."""
    log.info("failed login for %s from %s", _key(email), address)


def succeeded(email: str) -> None:
    """A successful login forgets the account's failures, this attempt's included (in the request's unit of
    work: should the request fail after all, they stay counted)."""
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == _key(email)))


def failures(email: str) -> int:
    """Failures for `email` in the current window."""
    return db.session.scalar(
        select(func.count()).select_from(LoginAttempt)
        .where(LoginAttempt.email == _key(email), LoginAttempt.created_at > utcnow() - _window())
    ) or 0
