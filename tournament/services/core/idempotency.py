"""Idempotency keys: a write sent twice with the same key is carried out once, and the second sending gets
the first answer.

The key is claimed by inserting its row in the request's own transaction, before the write. On PostgreSQL a
second request with the same key then waits on the unique index until the first transaction ends: if the
first committed, its row holds the answer to replay; if it rolled back (it failed, so nothing was stored),
the second goes ahead as if it were first. Answers are kept for `KEEP`.

A stored answer is given again only to a user who still holds the rights the request was first carried out
with (`Rights`: the account's role and the staff role on the tournament it names): the rights are part of
the stored fingerprint, so a user removed from the staff, or demoted, since gets a 403, not the old 201.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import weakref
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import delete, select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import IdempotencyKey, Role, Tournament, User
from tournament.models._common import utcnow
from tournament.services.core.errors import ConflictError, PermissionDenied, ServiceError

KEEP = timedelta(hours=24)
# Expired keys are swept at most this often per process (a DELETE per write request cost the hand entry one
# statement of its ~20).
SWEEP_EVERY = timedelta(minutes=1)
_swept_at: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> when this process last swept
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


ACCOUNT_RANK = {Role.REFEREE: 0, Role.ORGANISER: 1}
STAFF_RANK = {None: 0, Role.REFEREE: 1, Role.ORGANISER: 2}


@dataclass(frozen=True)
class Rights:
    """What a user may do, as far as a request's authorisation depends on it: the account's role, and the
    staff role on the tournament the request names (None: it names none). Each only ever grants more."""

    account: int
    staff: int | None

    def covers(self, then: Rights) -> bool:
        """Everything `then` allowed is still allowed."""
        return self.account >= then.account and (self.staff or 0) >= (then.staff or 0)

    def all_alike(self) -> list[Rights]:
        """Every value rights may take on a request of the same kind (naming a tournament or not)."""
        staff_ranks = [None] if self.staff is None else sorted(set(STAFF_RANK.values()))
        return [Rights(a, s) for a, s in itertools.product(sorted(set(ACCOUNT_RANK.values())), staff_ranks)]


# A player's link carries the same rights as long as it opens at all (a renewed link answers 404 first).
PLAYER_RIGHTS = Rights(0, None)


def rights(user: User, t: Tournament | None) -> Rights:
    """The user's rights now, on the tournament a request names (None for none, or one that does not exist:
    the view answers 404 and nothing is recorded). Its staff are read through `t`, and then stay loaded for
    the request's view."""
    account = ACCOUNT_RANK.get(user.role, 0)
    if t is None:
        return Rights(account, None)
    role = next((member.role for member in t.staff if member.user_id == user.id), None)
    return Rights(account, STAFF_RANK.get(role, 0))


def _fingerprint(request_digest: str, rights: Rights) -> str:
    return hashlib.sha256(f"{request_digest}\n{rights.account}/{rights.staff}".encode()).hexdigest()


def check_key(key: str) -> str:
    if not KEY_PATTERN.fullmatch(key):
        raise ServiceError(msg("An idempotency key is 1 to 100 printable ASCII characters without spaces."),
                           field="Idempotency-Key")
    return key


def claim(user_id: int | None, key: str, request_digest: str, now: Rights, *,
          player_id: int | None = None) -> IdempotencyKey | Replay:
    """The key's new row (the caller records the answer on it with `record`), or the first request's answer.
    The key is the staff account's (`user_id`) or, sent from a player's private link, the player's (`player_id`).

    `request_digest` says what the request asks for (method, path, body), `now` the user's rights now: the
    first answer is given again only for the same request by a user who still has the rights it was first
    carried out with (else 403). Waits, on PostgreSQL, while another transaction holds the same key."""
    check_key(key)
    fingerprint = _fingerprint(request_digest, now)
    _sweep_expired()
    # One statement: the key's row, or none when the key is taken (PostgreSQL waits while another transaction
    # holds it, and answers once that one commits or rolls back). A savepoint around a plain INSERT cost two more.
    row = db.session.scalar(
        _insert()(IdempotencyKey)
        .values(user_id=user_id, player_id=player_id, key=key, fingerprint=fingerprint)
        .on_conflict_do_nothing()
        .returning(IdempotencyKey)
    )
    if row is None:
        owner = IdempotencyKey.user_id == user_id if player_id is None else IdempotencyKey.player_id == player_id
        stored = db.session.scalar(
            select(IdempotencyKey)
            .where(owner, IdempotencyKey.key == key)
            .execution_options(populate_existing=True)
        )
        if stored is None:  # the holder rolled back and another took it meanwhile: rare, retry once
            return claim(user_id, key, request_digest, now, player_id=player_id)
        if stored.created_at < utcnow() - KEEP:  # expired, not swept yet: forgotten all the same
            db.session.delete(stored)
            db.session.flush()
            return claim(user_id, key, request_digest, now, player_id=player_id)
        if stored.fingerprint != fingerprint:
            # The same request under other rights? Then it is answered again only if nothing was taken away.
            then = next((r for r in now.all_alike() if _fingerprint(request_digest, r) == stored.fingerprint), None)
            if then is not None and now.covers(then):
                return _replay(stored)
            if then is not None:
                raise PermissionDenied(msg("Your rights (your account's role or your place on the "
                                           "tournament's staff) have changed since this request was first"
                                           " sent: it is not carried out or answered again.")) from None
            raise KeyReused(msg("This idempotency key was already used for a different request. Send a "
                                "new key (or reload the form) for a new request.")) from None
        return _replay(stored)
    return row


def _insert():
    """The INSERT with ON CONFLICT of the database in use (PostgreSQL, SQLite)."""
    return sqlite_insert if db.engine.dialect.name == "sqlite" else postgresql_insert


def _sweep_expired() -> None:
    """Delete the keys older than `KEEP`, at most once per `SWEEP_EVERY` in a process."""
    now = utcnow()
    engine = db.engine
    last = _swept_at.get(engine)
    if last is not None and now - last < SWEEP_EVERY:
        return
    db.session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < now - KEEP))
    _swept_at[engine] = now


def _replay(stored: IdempotencyKey) -> Replay:
    if stored.status_code is None:  # cannot be committed without an answer; kept for safety
        raise ConflictError(msg("The first request with this idempotency key has not finished."))
    return Replay(stored.status_code, stored.body, stored.content_type, stored.location)


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
