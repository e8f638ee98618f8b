"""One transaction per service call."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy.orm.exc import StaleDataError

from tournament.extensions import db
from tournament.services.errors import ConflictError


@contextmanager
def transaction() -> Iterator[None]:
    """Commit on success; roll back everything on any error so nothing is half-saved."""
    try:
        yield
        db.session.commit()
    except StaleDataError as exc:
        db.session.rollback()
        raise ConflictError(
            "Someone else changed this record while you were editing it. Reload the page and try again."
        ) from exc
    except BaseException:
        db.session.rollback()
        raise
