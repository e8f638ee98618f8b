"""One unit of work per request or command.

Services only *flush* their changes (so constraint violations and stale versions surface inside the
service, as clear errors) and never commit: services can then call each other and the whole request is one
transaction. The edge commits once: the web layer after a successful response (`tournament.web.unit`), a CLI
command when it is done (`commit`). Any error rolls the whole unit back, so nothing is half-saved.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError

from tournament.extensions import db
from tournament.services.core.errors import ConflictError

STALE_MESSAGE = "Someone else changed this record while you were editing it. Reload the page and try again."
DUPLICATE_MESSAGE = "This was saved by someone else at the same moment. Reload the page to see it."


@contextmanager
def _unit_or_rollback() -> Iterator[None]:
    """What `changes` and `commit` share: any error rolls the unit back; a stale version or a duplicate key (a
    lost race) becomes a ConflictError with the message a person can act on."""
    try:
        yield
    except StaleDataError as exc:
        db.session.rollback()
        raise ConflictError(STALE_MESSAGE) from exc
    except IntegrityError as exc:
        db.session.rollback()
        raise ConflictError(DUPLICATE_MESSAGE) from exc
    except BaseException:
        db.session.rollback()
        raise


@contextmanager
def changes() -> Iterator[None]:
    """A service's writes: flushed at the end, not committed. On any error the unit is rolled back."""
    with _unit_or_rollback():
        yield
        db.session.flush()


def commit() -> None:
    """End the unit of work (the edge calls this once); a late conflict becomes a ConflictError."""
    with _unit_or_rollback():
        db.session.commit()


def rollback() -> None:
    db.session.rollback()
