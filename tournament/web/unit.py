"""The web edge of the unit of work: one commit per request, after the view succeeded.

Views call services, which only flush. A response below 400 commits everything the request changed;
an error response (a 4xx, the 500 page) rolls it all back, and so does any request marked refused
(`refuse`): a view that shows a service's refusal on a 200 page or a redirect marks it, through
`helpers.show_service_error` or `helpers.form_post`.
"""

from __future__ import annotations

from flask import Flask, Response, g, make_response
from sqlalchemy.exc import DBAPIError

from tournament.services import ConflictError
from tournament.services.core.db import commit


def refuse() -> None:
    """A service refused something in this request: what it flushed before refusing is not committed,
    whatever the status of the answer."""
    g.unit_refused = True


def init_app(app: Flask) -> None:
    from tournament.web.errors import (
        CONFLICT_MESSAGE,
        concurrent_conflict,
        database_down_response,
        database_unreachable,
        error_response,
        first_line,
        safe_rollback,
    )

    @app.before_request
    def begin_unit_of_work() -> None:
        # `g` lives on the app context, which a test (or a CLI command) may share between requests.
        g.unit_refused = False

    @app.after_request
    def end_unit_of_work(response: Response) -> Response:
        if response.status_code >= 400 or g.get("unit_refused"):
            safe_rollback(app)  # never a second error on top of the one being answered
            return response
        try:
            commit()
        except ConflictError as exc:
            return make_response(error_response(409, "Changed meanwhile", exc.message))
        except DBAPIError as exc:
            if concurrent_conflict(exc):
                safe_rollback(app)
                return make_response(error_response(409, "Changed meanwhile", CONFLICT_MESSAGE))
            if not database_unreachable(exc):
                raise
            safe_rollback(app)
            app.logger.warning("The database was unreachable at commit: %s", first_line(exc.orig or exc))
            return make_response(database_down_response())
        return response
