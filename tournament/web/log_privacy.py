"""Players' link tokens (and invitation and password links') never reach a log: the access logs (gunicorn's,
the development server's) write a player's path as /p/… instead of /p/<token>. A token in a log would be as good
as the player's link."""

from __future__ import annotations

import logging
import re
from typing import Any

# /p/<token> and /api/v1/p/<token>: the token is the path segment after "p". Invitation and password links
# (/invitations/<token>, /reset-password/<token>) open an account: masked alike.
_LINK = re.compile(r"(/(?:p|invitations|reset-password)/)[A-Za-z0-9_\-]{8,}")
MASK = r"\1…"


def mask_link_tokens(text: str) -> str:
    return _LINK.sub(MASK, text)


class MaskLinkTokens(logging.Filter):
    """For the development server's request log (werkzeug): its request line is one of the record's args."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(mask_link_tokens(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.msg, str):
            record.msg = mask_link_tokens(record.msg)
        return True


def init_app(app: Any) -> None:
    logging.getLogger("werkzeug").addFilter(MaskLinkTokens())


try:  # gunicorn is the production server; the development server runs without it
    from gunicorn.glogging import Logger as _GunicornLogger
except ImportError:  # pragma: no cover
    _GunicornLogger = None  # type: ignore[assignment,misc]

if _GunicornLogger is not None:

    class GunicornLogger(_GunicornLogger):  # type: ignore[misc,valid-type]
        """gunicorn's logger with every text an access line may show masked: the request line, the path, the
        referrer, any header or environ variable a format names (deploy/gunicorn.conf.py: `logger_class`)."""

        def atoms(self, resp, req, environ, request_time):  # type: ignore[no-untyped-def]
            atoms = super().atoms(resp, req, environ, request_time)
            return {key: mask_link_tokens(value) if isinstance(value, str) else value
                    for key, value in atoms.items()}
