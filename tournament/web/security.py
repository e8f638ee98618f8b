"""Security headers on every response, the no-store rule for logged-in pages, and the reverse-proxy setting.

The Content-Security-Policy allows scripts and styles from this site only: no inline <script>, no
on*="..." handlers and no style="..." attributes in the templates (put them in static/js and static/css).
"""

from __future__ import annotations

from flask import Flask, Response, request
from flask_login import current_user
from werkzeug.middleware.proxy_fix import ProxyFix

CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self'",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",  # frame-ancestors for browsers that predate it
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cross-Origin-Opener-Policy": "same-origin",
}

# Pages that are never stored by a browser or a proxy, logged in or not: the account page shows a new API
# token once, and the login page carries the session's CSRF token.
NEVER_CACHED_BLUEPRINTS = {"account", "auth"}


def _private() -> bool:
    """Whether the response is for one user only: their pages and anything sent with credentials."""
    if request.endpoint == "static":
        return False
    if request.blueprint in NEVER_CACHED_BLUEPRINTS or "Authorization" in request.headers:
        return True
    return current_user.is_authenticated


def init_app(app: Flask) -> None:
    proxies = app.config.get("TRUSTED_PROXIES", 0)
    if proxies:
        # Behind nginx the client's address is in X-Forwarded-For: the login throttle counts per client, not
        # per proxy, and url_for builds https links.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies
        )

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if app.config.get("SESSION_COOKIE_SECURE"):
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        if _private():
            response.headers["Cache-Control"] = "no-store"
            response.headers.pop("Expires", None)
        return response
