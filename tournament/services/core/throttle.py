"""Login throttle: slows guessing down instead of locking accounts out.

- Per account: the first `LOGIN_FREE_FAILURES` failures in the window cost nothing; after that each attempt
  must wait 1, 2, 4, 8 ... seconds (at most `LOGIN_MAX_DELAY`) after the account's last failure. An attempt
  inside the delay is refused (429 with the seconds left) and not counted; the right password gets in as soon
  as the delay is over, so an attacker keeps the owner out for minutes at most, never for a fixed lock-out.
- Per device (OWASP "device cookies"): a device that has logged in to the account before (the web edge
  checks its signed cookie) is judged by its own failures instead of the account's, so an attacker
  hammering the account elsewhere does not slow its owner's phone or laptop down.
- Per client address: a sliding-window limit on failures, generous enough for a venue of 300 players behind one
  NAT, so that only a run spraying guesses over many accounts from one address meets it. It slows wrong
  passwords only: over the limit the password is still checked (the account's or device's delay still applies
  first), so a staff member at a venue whose address someone else used up still gets in, while every failure
  is answered 429 as before. Same answer and same work for an unknown email, a wrong password and a disabled
  account, so the limit tells nothing about who has an account.
- Players' private links have a per-address limit of their own: guessing links does not use up the logins'.

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
from tournament.messages import msg, msg_n
from tournament.models._common import utcnow
from tournament.models.users import LoginAttempt

log = logging.getLogger("tournament.auth")


# A trusted device's failures are counted under this prefix and its random id in `login_attempts.email`,
# apart from its account's (an email typed as "device:..." names no device unless it knows a device's secret id).
DEVICE_PREFIX = "device:"


def wait_text(seconds: int) -> str:
    if seconds < 120:
        return msg_n("%(num)d second", "%(num)d seconds", seconds)
    return msg_n("%(num)d minute", "%(num)d minutes", math.ceil(seconds / 60))


@dataclass(frozen=True)
class Throttled:
    """Logins refused for now: why, and how many seconds until one is let through."""

    reason: str
    retry_after: int

    @property
    def message(self) -> str:
        wait = wait_text(self.retry_after)
        if self.reason == "for this account":
            return msg("Too many failed logins for this account. Wait %(time)s and try again.", time=wait)
        if self.reason == "from this device":
            return msg("Too many failed logins from this device. Wait %(time)s and try again.", time=wait)
        return msg("Too many failed logins from your network address. Wait %(time)s and try again.", time=wait)


def _window() -> timedelta:
    return current_app.config["LOGIN_THROTTLE_WINDOW"]


def _key(email: str, device: str | None = None) -> str:
    """The counter an attempt is judged by: the device's when it is trusted for the account, else the account's."""
    if device:
        return (DEVICE_PREFIX + device)[:254]
    return email.strip().lower()[:254]


def delay_after(failures: int) -> int:
    """Seconds an account (or device) waits after its last failure, with `failures` in the window."""
    config = current_app.config
    over = failures - config["LOGIN_FREE_FAILURES"]
    if over < 0:
        return 0
    cap = int(config["LOGIN_MAX_DELAY"].total_seconds())
    return cap if over >= cap.bit_length() else min(cap, 2 ** over)


def _account_wait(conn: Connection, key: str, now: datetime) -> int | None:
    """Seconds left of the delay its recent failures put on `key`; None when an attempt may go ahead."""
    failures, last = conn.execute(
        select(func.count(), func.max(LoginAttempt.created_at))
        .where(LoginAttempt.email == key, LoginAttempt.created_at > now - _window())
    ).one()
    delay = delay_after(failures)
    if not delay or last is None:
        return None
    left = math.ceil((last + timedelta(seconds=delay) - now).total_seconds())
    return left if left > 0 else None


def _address_wait(conn: Connection, address: str, now: datetime, links: bool = False) -> int | None:
    """Seconds until fewer than the limit of failures from `address` remain in its window; None when under.
    `links`: the players' links' own counter, else the logins' (and the account links', the reset requests')."""
    config = current_app.config
    window = config["LOGIN_ADDRESS_WINDOW"]
    counter = LoginAttempt.email == LINK_KEY if links else LoginAttempt.email != LINK_KEY
    limit = config["PLAYER_LINK_FAILURES_PER_ADDRESS" if links else "LOGIN_FAILURES_PER_ADDRESS"]
    recent = (select(LoginAttempt.created_at)
              .where(LoginAttempt.address == address, counter, LoginAttempt.created_at > now - window)
              .order_by(LoginAttempt.created_at.desc()))
    # The limit-th most recent failure: once it leaves the window, one more attempt is allowed.
    boundary = conn.scalar(recent.offset(limit - 1).limit(1))
    if boundary is None:
        return None
    return max(1, math.ceil((boundary + window - now).total_seconds()))


def _oldest(now: datetime) -> datetime:
    """Failures at or before this can never count again."""
    return now - max(_window(), current_app.config["LOGIN_ADDRESS_WINDOW"])


@dataclass(frozen=True)
class Attempt:
    """A login attempt: `refused` when it may not even be checked now (nothing counted); otherwise it is
    counted as a failure until `succeeded`, and `over_address_limit` is the address's limit when it has been
    reached: the password is checked all the same, and a failure is answered with it."""

    refused: Throttled | None = None
    over_address_limit: Throttled | None = None


def begin_login(email: str, address: str, device: str | None = None, *, check_over_address_limit: bool = True,
                ) -> Attempt:
    """Refused while the account's (or the trusted device's) delay runs. Otherwise the attempt is counted as a
    failure at once, until `succeeded` takes it back; an address over its limit does not refuse it (a correct
    password still logs in) unless `check_over_address_limit` is False.

    `device`: the id of a device the web edge found trusted for this account (its signed cookie says it has
    logged in to it before); the attempt is then judged and counted by the device's failures instead, and the
    address's limit does not apply to it."""
    key, address, now = _key(email, device), address[:64], utcnow()
    with db.engine.connect() as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            # One attempt at a time per account (or device) and per address, always in this order (no deadlock).
            for lock in (f"login-account:{key}", f"login-address:{address}"):
                conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:key))"), {"key": lock})
        # Older failures can never count again: the table stays the size of one window. Writing first also
        # makes SQLite take its write lock before counting.
        conn.execute(delete(LoginAttempt).where(LoginAttempt.created_at <= _oldest(now)))
        wait = _account_wait(conn, key, now)
        if wait is not None:
            reason = "from this device" if device else "for this account"
            log.warning("login throttled %s: %s, address %s, retry after %ss", reason, key, address, wait)
            return Attempt(refused=Throttled(reason, wait))
        over = None
        # A trusted device has proved itself on this account before: a venue's shared address does not hold it up.
        if not device and (address_wait := _address_wait(conn, address, now)) is not None:
            over = Throttled("from your network address", address_wait)
            log.warning("login throttled from your network address: %s, address %s, retry after %ss%s", key,
                        address, address_wait, " (the password is checked)" if check_over_address_limit else "")
            if not check_over_address_limit:
                return Attempt(refused=over)
        conn.execute(insert(LoginAttempt).values(email=key, address=address, created_at=now))
    return Attempt(over_address_limit=over)


def begin_attempt(email: str, address: str, device: str | None = None) -> Throttled | None:
    """Throttled while the account's delay runs or the address is at its limit (nothing is counted then).
    Otherwise the attempt is counted as a failure at once, until `succeeded` takes it back."""
    return begin_login(email, address, device, check_over_address_limit=False).refused


def failed(email: str, address: str, device: str | None = None) -> int:
    """The attempt failed: it stays counted; logged for whoever watches the logs. Returns the seconds to
    wait before the next attempt (0: none)."""
    key = _key(email, device)
    log.info("failed login for %s from %s%s", _key(email), address, " (trusted device)" if device else "")
    with db.engine.connect() as conn:
        return _account_wait(conn, key, utcnow()) or 0


def succeeded(email: str, device: str | None = None) -> None:
    """A successful login forgets the failures it was judged by, this attempt's included (in the request's
    unit of work: should the request fail after all, they stay counted). Through a trusted device, those of
    the device only: guesses at the account from elsewhere keep slowing the elsewhere down."""
    db.session.execute(delete(LoginAttempt).where(LoginAttempt.email == _key(email, device)))


# Players' private links (services.people.player_links) have a per-address budget of their own, the same size as the
# logins': a run guessing link tokens from one address meets it, a venue behind one NAT stays well under it, and
# neither uses up the other's (a valid link is looked up before the throttle is asked: it always opens).
LINK_KEY = "player-link"


def link_throttled(address: str) -> Throttled | None:
    """Guessing links from this address is refused for now (nothing is counted then)."""
    with db.engine.connect() as conn:
        wait = _address_wait(conn, address[:64], utcnow(), links=True)
    if wait is None:
        return None
    log.warning("player link throttled: address %s, retry after %ss", address[:64], wait)
    return Throttled("from your network address", wait)


def link_failed(address: str) -> None:
    """An unknown or renewed link token was tried: counted at once, in a transaction of its own (the 404 that
    answers it rolls the request back). The token itself is never written anywhere."""
    now = utcnow()
    with db.engine.connect() as conn, conn.begin():
        conn.execute(delete(LoginAttempt).where(LoginAttempt.created_at <= _oldest(now)))
        conn.execute(insert(LoginAttempt).values(email=LINK_KEY, address=address[:64], created_at=now))


# Invitation and password-reset links, and "Forgot your password?" requests, share the per-address budget too:
# a run guessing their tokens or mailing reset links from one address meets the limit of one guessing passwords.
ACCOUNT_LINK_KEY = "account-link"
RESET_REQUEST_KEY = "password-reset"


def address_throttled(address: str, what: str) -> Throttled | None:
    """Requests of this kind (`what`, for the log) from this address are refused for now (nothing counted)."""
    with db.engine.connect() as conn:
        wait = _address_wait(conn, address[:64], utcnow())
    if wait is None:
        return None
    log.warning("%s throttled: address %s, retry after %ss", what, address[:64], wait)
    return Throttled("from your network address", wait)


def count_for_address(address: str, key: str) -> None:
    """Count a request against the address's budget at once, in a transaction of its own (the answer may be an
    error that rolls the request back; the count must stay). Nothing of the request itself is written."""
    with db.engine.connect() as conn, conn.begin():
        conn.execute(insert(LoginAttempt).values(email=key, address=address[:64], created_at=utcnow()))
