"""Absolute links from PUBLIC_URL, never from the Host a client sends (issue 31).

A player's link and its QR code, a staff invitation, a password-reset mail, a calendar's address: each is
built with `url_for(..., _external=True)`. Flask takes the host and scheme of such a link from the request,
so a "forgot password" asked with `Host: evil.example` would mail the victim a valid reset link to the
attacker's site. With PUBLIC_URL set, every URL adapter (`TournamentFlask.create_url_adapter`) builds with
PUBLIC_URL's scheme and host instead, whatever the request says: the views keep calling `url_for` and cannot
forget. Routing still follows the request (unlike Flask's SERVER_NAME, which would also decide which hosts
are served): a health check on 127.0.0.1:8000 answers as before. The rest of what a link is made of (the
path, its values) is Flask's as usual.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Request, current_app, request
from werkzeug.routing import MapAdapter


class TournamentFlask(Flask):
    """Flask whose links are built from PUBLIC_URL when it is set (see the module)."""

    def create_url_adapter(self, request: Request | None) -> MapAdapter | None:
        adapter = super().create_url_adapter(request)
        public = self.config.get("PUBLIC_URL")
        if not public:
            return adapter
        scheme, _, host = public.partition("://")
        if adapter is None:  # outside a request (a command): links can be built all the same
            return self.url_map.bind(host, url_scheme=scheme)
        # The request's own path and script root (what routing matches), PUBLIC_URL's host and scheme.
        return self.url_map.bind(host, script_name=adapter.script_name, subdomain=adapter.subdomain,
                                 url_scheme=scheme, default_method=adapter.default_method,
                                 path_info=adapter.path_info, query_args=adapter.query_args)


def site_url() -> str:
    """The site's address, no trailing slash: PUBLIC_URL, else (unset) the request's scheme and host."""
    return current_app.config.get("PUBLIC_URL") or request.host_url.rstrip("/")


def configured_public_url() -> str | None:
    """PUBLIC_URL as configured (canonical), None when unset: what the calendars' UIDs end with."""
    return current_app.config.get("PUBLIC_URL")


def site_host() -> str:
    """The site's host name, no port (a default mail sender's domain)."""
    return urlsplit(site_url()).hostname or "localhost"


def init_app(app: Flask) -> None:
    if app.config.get("PUBLIC_URL") or app.debug or app.testing:
        return
    app.logger.warning(
        "PUBLIC_URL is not set: links (players' links, invitations, password-reset mails, calendars) are "
        "built from the Host each request names. Set PUBLIC_URL to the site's address, e.g. "
        "PUBLIC_URL=https://tournament.example.org, in the environment (deploy/README.md).")
