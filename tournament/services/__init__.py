"""Operations on the tournament: plain arguments in, plain results out, writes flushed, committed once by the caller (the request or the command).

Services never read `request` or `session`; the web layer parses input, calls a service and renders.
"""

from tournament.services.core.errors import ConflictError, NotFound, PermissionDenied, ServiceError

__all__ = ["ConflictError", "NotFound", "PermissionDenied", "ServiceError"]
