"""The web edge of the unit of work: one commit per request, after the view succeeded.

Views call services, which only flush. A response below 400 commits everything the request changed;
an error response (a 4xx, the 500 page) rolls it all back, and so does any request in which a service
refused something, even when the view shows the refusal on a 200 page.
"""

from __future__ import annotations

from flask import Flask, Response, g, has_request_context, make_response
from sqlalchemy.exc import OperationalError

from tournament.services import ConflictError
from tournament.services.db import commit, rollback
from tournament.services.errors import ServiceError, refusal_listeners


def _note_refusal(error: ServiceError) -> None:
    if has_request_context():
        g.unit_refused = True


def init_app(app: Flask) -> None:
    from tournament.web.errors import error_response

    if _note_refusal not in refusal_listeners:
        refusal_listeners.append(_note_refusal)

    @app.before_request
    def begin_unit_of_work() -> None:
        # `g` lives on the app context, which a test (or a CLI command) may share between requests.
        g.unit_refused = False

    @app.after_request
    def end_unit_of_work(response: Response) -> Response:
        if response.status_code >= 400 or g.get("unit_refused"):
            rollback()
            return response
        try:
            commit()
        except ConflictError as exc:
            return make_response(error_response(409, "Changed meanwhile", exc.message))
        except OperationalError:
            app.logger.exception("The database refused the commit")
            return make_response(
                error_response(503, "Database unavailable", "Nothing was saved. Try again in a moment.")
            )
        return response
