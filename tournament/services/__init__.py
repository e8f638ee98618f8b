"""Operations on the tournament: plain arguments in, plain results out, one transaction per call.

Services never read `request` or `session`; the web layer parses input, calls a service and renders.
"""

from tournament.services.errors import ConflictError, NotFound, PermissionDenied, ServiceError

__all__ = ["ConflictError", "NotFound", "PermissionDenied", "ServiceError"]
