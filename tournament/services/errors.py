"""Errors a service raises; the web layer turns them into messages next to the field or 4xx pages."""

from __future__ import annotations

from collections.abc import Callable

# Called with every refusal as it is raised: the web edge listens so that a request in which any
# service refused anything is rolled back as a whole, even when the view shows the error with a 200.
refusal_listeners: list[Callable[[ServiceError], None]] = []


class ServiceError(ValueError):
    """Bad input: `field` names the form field it belongs to, when there is one."""

    status_code = 400

    def __init__(self, message: str, field: str | None = None, errors: dict[str, str] | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.errors = dict(errors or {})
        if field and field not in self.errors:
            self.errors[field] = message
        for listener in refusal_listeners:
            listener(self)


class NotFound(ServiceError):
    status_code = 404


class PermissionDenied(ServiceError):
    status_code = 403


class ConflictError(ServiceError):
    """Someone else changed the record since it was loaded (optimistic locking)."""

    status_code = 409
