"""Errors a service raises; the web layer turns them into messages next to the field or 4xx pages."""

from __future__ import annotations


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


class NotFound(ServiceError):
    status_code = 404


class PermissionDenied(ServiceError):
    status_code = 403


class ConflictError(ServiceError):
    """Someone else changed the record since it was loaded (optimistic locking)."""

    status_code = 409
