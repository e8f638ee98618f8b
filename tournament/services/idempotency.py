"""Idempotency keys: a write sent twice with the same key is carried out once, and the second sending gets
the first answer.

The key is claimed by inserting its row in the request's own transaction, before the write. On PostgreSQL a
second request with the same key then waits on the unique index until the first transaction ends: if the
first committed, its row holds the answer to replay; if it rolled back (it failed, so nothing was stored),
the second goes ahead as if it were first. Answers are kept for `KEEP`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError

from tournament.extensions import db
from tournament.models import IdempotencyKey
from tournament.models._common import utcnow
from tournament.services.errors import ConflictError, ServiceError

KEEP = timedelta(hours=24)
# Printable ASCII without spaces: UUIDs, the forms' URL-safe tokens, anything a client library sends.
KEY_PATTERN = re.compile(r"[\x21-\x7e]{1,100}")


class KeyReused(ServiceError):
    """The key was already used for a different request (another path or body)."""

    status_code = 422


@dataclass(frozen=True)
class Replay:
    """The answer stored for the first request with the key."""

    status_code: int
    body: str | None
    content_type: str
    location: str


def check_key(key: str) -> str:
    if not KEY_PATTERN.fullmatch(key):
        raise ServiceError("An idempotency key is 1 to 100 printable ASCII characters without spaces.",
                           field="Idempotency-Key")
    return key


def claim(user_id: int, key: str, fingerprint: str) -> IdempotencyKey | Replay:
    """The key's new row (the caller records the answer on it with `record`), or the first request's answer.

    Waits, on PostgreSQL, while another transaction holds the same key."""
    check_key(key)
    # Also what makes SQLite (pysqlite) open its transaction before the savepoint below: a savepoint
    # opened outside one would commit the claim when released.
    db.session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < utcnow() - KEEP))
    row = IdempotencyKey(user_id=user_id, key=key, fingerprint=fingerprint)
    try:
        with db.session.begin_nested():
            db.session.add(row)
    except IntegrityError:
        stored = db.session.scalar(
            select(IdempotencyKey)
            .where(IdempotencyKey.user_id == user_id, IdempotencyKey.key == key)
            .execution_options(populate_existing=True)
        )
        if stored is None:  # the holder rolled back and another took it meanwhile: rare, retry once
            return claim(user_id, key, fingerprint)
        if stored.fingerprint != fingerprint:
            raise KeyReused("This idempotency key was already used for a different request. Send a new key "
                            "(or reload the form) for a new request.") from None
        if stored.status_code is None:  # cannot be committed without an answer; kept for safety
            raise ConflictError("The first request with this idempotency key has not finished.") from None
        return Replay(stored.status_code, stored.body, stored.content_type, stored.location)
    return row


def record(row: IdempotencyKey, status_code: int, body: str | None, content_type: str, location: str) -> None:
    """The request's answer, committed with its write."""
    row.status_code = status_code
    row.body = body
    row.content_type = content_type[:200]
    row.location = location[:2000]
    db.session.flush()


def release(row: IdempotencyKey) -> None:
    """Nothing to remember (the request wrote nothing final, e.g. a form shown again): free the key."""
    db.session.delete(row)
    db.session.flush()
