"""Security headers on every response, the no-store rule for logged-in pages, and the reverse-proxy setting.

The Content-Security-Policy allows scripts and styles from this site only: no inline <script>, no
on*="..." handlers and no style="..." attributes in the templates (put them in static/js and static/css).
"""

from __future__ import annotations

from flask import Flask, Response, current_app, request, session
from flask.sessions import SecureCookieSessionInterface
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
    # Logged in, as the session or the remember cookie says: loading the user would ask the database, which on
    # a page that needed none may be down (the answer must not fail after the view). A revoked login is no-store
    # too: no harm.
    return "_user_id" in session or current_app.config.get("REMEMBER_COOKIE_NAME", "remember_token") in request.cookies


def cookies_secure(app: Flask) -> bool:
    """Secure cookies for this request: forced by SECURE_COOKIES=1, or (the default) when it came over HTTPS."""
    return bool(app.config.get("SESSION_COOKIE_SECURE")) or (
        bool(app.config.get("SECURE_COOKIES_AUTO")) and request.is_secure)


class SchemeSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session whose Secure flag follows the request's scheme (see cookies_secure).

    It runs after every after_request function, Flask-Login's remember cookie included, so it marks that
    cookie Secure too."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return cookies_secure(app)

    def save_session(self, app, session, response) -> None:
        super().save_session(app, session, response)
        if app.config.get("REMEMBER_COOKIE_SECURE") or not cookies_secure(app):
            return
        name = app.config.get("REMEMBER_COOKIE_NAME", "remember_token") + "="
        cookies = response.headers.getlist("Set-Cookie")
        if not any(c.startswith(name) and "; Secure" not in c for c in cookies):
            return
        response.headers.remove("Set-Cookie")
        for cookie in cookies:
            response.headers.add("Set-Cookie", cookie + "; Secure" if cookie.startswith(name)
                                 and "; Secure" not in cookie else cookie)


def init_app(app: Flask) -> None:
    app.session_interface = SchemeSessionInterface()
    proxies = app.config.get("TRUSTED_PROXIES", 0)
    if proxies:
        # Behind nginx the client's address is in X-Forwarded-For: the login throttle counts per client, not
        # per proxy, and url_for builds https links. X-Forwarded-Host is not believed (issue 31): the site's
        # name is PUBLIC_URL's (tournament/web/public_url.py), else the Host nginx passes on as the client sent it.
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=0
        )

    @app.after_request
    def security_headers(response: Response) -> Response:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if cookies_secure(app):  # over HTTPS (or forced): browsers ignore it on plain HTTP anyway
            response.headers.setdefault("Strict-Transport-Security", "max-age=31536000")
        if _private():
            response.headers["Cache-Control"] = "no-store"
            response.headers.pop("Expires", None)
        return response
