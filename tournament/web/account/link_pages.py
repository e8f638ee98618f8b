"""What the pages opened by an account link share: private answers, the throttle, a clear page when the link
does not work (never a 500, never a bare "404 Not Found"), and the view's shape (`link_page`)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import make_response, render_template
from flask_babel import gettext

from tournament.i18n.service_messages import translate
from tournament.services.core import throttle
from tournament.services.people.account_links import LinkClosed, LinkUnknown
from tournament.web.helpers import client_address
from tournament.web.unit import refuse

# What a link's service raises when the link does not work (any more): answered with the problem page.
LINK_REFUSED = (LinkUnknown, LinkClosed)

TITLES = {
    "unknown": "This link does not work",
    "used": "This link has been used",
    "expired": "This link has expired",
    "disabled": "This account is disabled",
    "throttled": "Too many attempts",
}


def private(response, status: int | None = None):
    """The token is in the address: never kept by a cache, never sent on in a Referer, never indexed."""
    response = make_response(response)
    if status is not None:
        response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def problem(kind: str, reason: str, message: str, status: int, retry_after: int | None = None):
    """The page saying why the link does not work and what to do (kind: "invitation" or "reset")."""
    response = private(render_template("account/link_problem.html", kind=kind, reason=reason,
                                       title=TITLES.get(reason, TITLES["unknown"]), message=translate(message)), status)
    if retry_after:
        response.headers["Retry-After"] = str(retry_after)
    return response


def throttled(kind: str):
    """The problem page (429) when this address has tried too many links or logins lately, else None."""
    found = throttle.address_throttled(client_address(), f"{kind} link")
    if found is None:
        return None
    return problem(kind, "throttled", gettext("Too many attempts from your network address. Wait %(time)s and try "
                                              "again.", time=translate(throttle.wait_text(found.retry_after))),
                   429, found.retry_after)


def refused(kind: str, exc: LinkUnknown | LinkClosed):
    """The problem page for a link the service refused; an unknown token counts against the address."""
    if isinstance(exc, LinkUnknown):
        throttle.count_for_address(client_address(), throttle.ACCOUNT_LINK_KEY)
        return problem(kind, "unknown", exc.message, 404)
    return problem(kind, exc.reason, exc.message, exc.status_code)


def link_page(kind: str, lookup: Callable[[str], Any]) -> Callable:
    """The shape of a link's page (kind: "invitation" or "reset"): `lookup(token)`, then for an unknown token the
    address's throttle (429); a link it refuses (unknown, used, expired) answers the problem page, and the view is called
    as view(token, found). A link found closed by the form post that uses it (the view lets LinkUnknown or
    LinkClosed out: used meanwhile by another sending) answers the same page, the request's changes rolled back."""

    def decorate(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(token: str):
            # The link is looked up first: a real one always opens, even from an address whose guesses (a venue
            # behind one NAT) are over its limit; only an unknown token meets the throttle (429, else 404).
            try:
                found = lookup(token)
            except LinkUnknown as exc:
                return throttled(kind) or refused(kind, exc)
            except LinkClosed as exc:
                return refused(kind, exc)
            try:
                return view(token, found)
            except LINK_REFUSED as exc:
                refuse()
                return refused(kind, exc)

        return wrapped

    return decorate
