"""Error pages: every failure is a clear page (HTML) or JSON message, never a bare 500."""

from __future__ import annotations

from flask import Flask, current_app, g, jsonify, make_response, render_template, request
from flask_babel import gettext
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import HTTPException

from tournament.extensions import db, login_manager
from tournament.i18n import N_
from tournament.i18n.service_messages import translate
from tournament.messages import Message
from tournament.services import ServiceError


def wants_json() -> bool:
    # A ".json" address (the live data a page polls) answers JSON whatever the Accept header says.
    return (request.path.startswith("/api/") or request.path.endswith(".json")
            or request.accept_mimetypes.best == "application/json")


def error_response(status: int, title: str, message: str):
    if request.path.startswith("/api/"):  # the JSON API's error format: {"error"} (+ "field")
        return jsonify({"error": message}), status
    if wants_json():
        return jsonify({"error": message, "status": status}), status
    try:
        page = render_template("errors/error.html", status=status, title=shown(title), message=shown(message))
    except DBAPIError as exc:  # base.html asks for the logged-in user: the database is down too
        if not database_unreachable(exc):
            raise
        safe_rollback(current_app)
        current_app.logger.warning("Database unreachable on %s: %s", request.path, first_line(exc.orig or exc))
        return make_response(database_down_response()), 503
    return page, status


# The titles and messages the pages show in the reader's language (the JSON keeps the English): werkzeug's
# names of the statuses a reader meets, and the messages below; any other text (a service's refusal) as it is.
PAGE_TEXTS = (N_("Bad Request"), N_("Forbidden"), N_("Not Found"), N_("Method Not Allowed"), N_("Too Many Requests"),
              N_("Request Entity Too Large"), N_("Unauthorized"))


def shown(text: str) -> str:
    """A title or message of an error page, translated when the catalogues have it (a service's message
    through its template and values)."""
    if isinstance(text, Message):
        return translate(text)
    return gettext(text) if text else text


DATABASE_DOWN_TITLE = N_("Service unavailable")
DATABASE_DOWN_MESSAGE = N_("The database cannot be reached just now. Nothing was saved. Try again in a moment.")
RETRY_AFTER_SECONDS = "5"


def concurrent_conflict(exc: BaseException) -> bool:
    """A deadlock or serialization failure (SQLSTATE class 40): another request won; retrying is safe."""
    sqlstate = getattr(getattr(exc, "orig", None), "sqlstate", None) or ""
    return isinstance(exc, DBAPIError) and sqlstate.startswith("40")


CONFLICT_MESSAGE = N_("Another change to the same records was being saved at the same moment. Nothing was saved: try again.")


def database_unreachable(exc: BaseException) -> bool:
    """A lost or refused database connection (server down or restarting), not a bad query."""
    if concurrent_conflict(exc):
        return False
    return isinstance(exc, OperationalError) or (
        isinstance(exc, DBAPIError) and exc.connection_invalidated
    )


def first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def safe_rollback(app: Flask) -> None:
    """Roll the unit back; on a dead connection that can fail too, and must not hide the first error."""
    try:
        db.session.rollback()
    except Exception as exc:  # noqa: BLE001 - the connection is gone; the pool drops it on next checkout
        app.logger.warning("Rollback failed (database unreachable?): %s", first_line(exc))


def database_down_response():
    """503 with Retry-After, asking nothing more of the database that is down (another failure in an error
    handler would be a bare 500): the rest of the request takes the reader as anonymous (Flask-Login would
    load the user again for every template, a query), its language from the address, cookie or browser alone
    (`i18n.select_locale`), and the page is stand-alone (base.html shows the user's menu)."""
    g.database_down = True
    login_manager._update_request_context_with_user()  # no argument: the anonymous user, the loader not asked
    headers = {"Retry-After": RETRY_AFTER_SECONDS, "Cache-Control": "no-store"}
    if wants_json():
        return (*error_response(503, DATABASE_DOWN_TITLE, DATABASE_DOWN_MESSAGE), headers)
    page = render_template("errors/unavailable.html", status=503, title=shown(DATABASE_DOWN_TITLE),
                           message=shown(DATABASE_DOWN_MESSAGE))
    return page, 503, headers


def init_app(app: Flask) -> None:
    @app.before_request
    def database_up() -> None:
        # `g` lives on the app context, which a test (or a CLI command) may share between requests.
        g.pop("database_down", None)

    @app.errorhandler(CSRFError)
    def csrf_error(exc: CSRFError):
        return error_response(
            400,
            N_("Form expired"),
            N_("The form's security token was missing or out of date. Go back, reload the page and submit again."),
        )

    @app.errorhandler(ServiceError)
    def service_error(exc: ServiceError):
        # A 4xx answer: the unit of work (web/unit.py, which imports this module) rolls the request back too.
        db.session.rollback()
        title = N_("Not Found") if exc.status_code == 404 else N_("Request refused")
        # A throttle's refusal (429) says how long to wait.
        retry = {"Retry-After": str(exc.retry_after)} if getattr(exc, "retry_after", None) else {}
        return (*error_response(exc.status_code, title, exc.message), retry)

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        message = exc.description or ""
        if exc.code == 404 and "requested URL was not found" in message:
            message = N_("There is no page at this address.")
        if exc.code == 403 and "don't have the permission" in message:
            message = N_("You do not have access to this page.")
        # A 405 names the methods that are allowed (RFC 9110), as werkzeug's own response does.
        allowed = {"Allow": ", ".join(exc.valid_methods)} if getattr(exc, "valid_methods", None) else {}
        return (*error_response(exc.code or 500, exc.name, message), allowed)

    @app.errorhandler(DBAPIError)
    def database_error(exc: DBAPIError):
        safe_rollback(app)
        if concurrent_conflict(exc):
            app.logger.warning("Concurrent write refused on %s: %s", request.path, first_line(exc.orig or exc))
            return error_response(409, N_("Changed meanwhile"), CONFLICT_MESSAGE)
        if database_unreachable(exc):
            # Expected while the database restarts: one line, not a traceback per request.
            app.logger.warning("Database unreachable on %s: %s", request.path, first_line(exc.orig or exc))
            return database_down_response()
        app.logger.exception("Unhandled database error on %s", request.path)
        return error_response(
            500, N_("Something went wrong"), N_("The error was logged. Nothing was saved from this request.")
        )

    @app.errorhandler(Exception)
    def unexpected_error(exc: Exception):
        safe_rollback(app)
        app.logger.exception("Unhandled error on %s", request.path)
        return error_response(
            500, N_("Something went wrong"), N_("The error was logged. Nothing was saved from this request.")
        )
