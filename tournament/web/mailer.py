"""E-mail from the web edge (Flask-Mail, when MAIL_SERVER is set).

A view queues its messages; they are sent only when the request's unit of work has committed (a link in a
mail always names a saved invitation or reset), and only once the answer has gone to the browser: a slow mail
server does not hold the page up, and "Forgot your password?" answers as fast for an unknown address as for an
account's. A failure to send is logged, never shown as an error: the link is on the organiser's page anyway,
and a reset can be asked for again.
"""

from __future__ import annotations

from contextlib import nullcontext
from functools import partial

from flask import Flask, Response, current_app, g, render_template
from flask_babel import force_locale
from flask_mail import Message

from tournament.extensions import mail
from tournament.web.public_url import site_host


def configured() -> bool:
    """Whether this installation sends e-mail (MAIL_SERVER is set)."""
    return bool(current_app.config.get("MAIL_SERVER"))


def queue(to: str, subject, template: str, language: str | None = None, **context) -> None:
    """A plain-text mail rendered from `template`, sent after the request committed (see the module); in
    `language` (the recipient's, else the page's), its `subject` a lazy_gettext text."""
    if not configured():
        return
    # Without MAIL_DEFAULT_SENDER (or MAIL_USERNAME), the mail comes from no-reply at the site's own name.
    sender = current_app.config.get("MAIL_DEFAULT_SENDER") or f"no-reply@{site_host()}"
    with force_locale(language) if language else nullcontext():
        message = Message(subject=str(subject), recipients=[to], body=render_template(template, **context),
                          sender=sender)
    g.setdefault("mail_outbox", []).append(message)


def _deliver(app: Flask, outbox: list[Message]) -> None:
    with app.app_context():
        for message in outbox:
            try:
                mail.send(message)
            except Exception:  # an SMTP refusal, a server away: logged, the page has long been answered
                app.logger.exception("could not send %r to %s", message.subject, ", ".join(message.recipients))


def init_app(app: Flask) -> None:
    """Register before the unit of work (tournament.web.unit): after_request functions run last-registered
    first, so this one sees the answer the commit left (a 409 or 503 when the commit failed)."""

    @app.after_request
    def send_after_commit(response: Response) -> Response:
        outbox = g.pop("mail_outbox", None)
        if outbox and response.status_code < 400 and not g.get("unit_refused"):
            response.call_on_close(partial(_deliver, app, outbox))
        return response
