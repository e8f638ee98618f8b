"""The two idioms every service shares: finding a record (or NotFound, a 404 at the edge) and refusing an
edit made from a stale page (or from one that did not say which version it edits)."""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from tournament.constants import is_id
from tournament.extensions import db
from tournament.services.core.errors import ConflictError, NotFound, ServiceError

M = TypeVar("M")

MISSING_VERSION = "The form did not say which version it changes. Reload the page and try again."


class Versioned(Protocol):
    version: int


def get_or_404(model: type[M], record_id: Any, message: str, **owner: Any) -> M:
    """The `model` row with this id that also has the `owner` values (e.g. tournament_id=t.id)."""
    record = db.session.get(model, record_id) if is_id(record_id) else None
    if record is None or any(getattr(record, name) != value for name, value in owner.items()):
        raise NotFound(message)
    return record


def expect_version(record: Versioned, expected_version: int | None, stale_message: str) -> None:
    """Refuse the edit unless it names the version it was made from, and that is still the current one."""
    if expected_version is None:
        raise ServiceError(MISSING_VERSION, field="version")
    if expected_version != record.version:
        raise ConflictError(stale_message)
