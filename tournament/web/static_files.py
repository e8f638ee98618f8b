"""Versioned static URLs (issue 21 item 13): url_for('static', filename=...) adds ?v=<12 hex digits of the
file's SHA-256>, and a request naming the file's current version may be kept for a year (immutable). After an
upgrade the pages name new URLs, so a phone fetches the new scripts at once instead of keeping the old ones
for days, and between upgrades it asks for nothing (no revalidation of 4-7 files per page). A request without
the version, or with an old one, is answered as before: no-cache, revalidated with its ETag."""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

from flask import Flask, Response, request, send_from_directory
from werkzeug.security import safe_join

YEAR = 365 * 24 * 3600


@lru_cache(maxsize=512)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    """Keyed by the file's time and size too: an edited file (in development) gets a new version."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


def static_version(folder: str | None, filename: str) -> str | None:
    path = safe_join(folder, filename) if folder else None
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return _digest(path, stat.st_mtime_ns, stat.st_size)


def init_app(app: Flask) -> None:
    @app.route("/favicon.ico")
    def favicon() -> Response:
        """static/img/favicon.ico (16, 32, 48 px: tools/make_icons.py) where browsers, bookmarks and feed readers
        look for it whatever the page names; kept a day (its name has no version)."""
        return send_from_directory(app.static_folder or "static", "img/favicon.ico",
                                   mimetype="image/vnd.microsoft.icon", max_age=24 * 3600)

    @app.route("/sw.js")
    def service_worker() -> Response:
        """The service worker (static/sw.js) from the site's root, so that its scope covers the players' pages
        and the referees' table pages it keeps for a network drop; asked for afresh on every check."""
        response = send_from_directory(app.static_folder or "static", "sw.js", mimetype="text/javascript",
                                       max_age=0)
        response.headers["Cache-Control"] = "no-cache"
        return response

    @app.url_defaults
    def version_static_urls(endpoint: str, values: dict) -> None:
        if endpoint == "static" and "filename" in values and "v" not in values:
            version = static_version(app.static_folder, values["filename"])
            if version:
                values["v"] = version

    @app.after_request
    def cache_versioned_static(response: Response) -> Response:
        if (request.endpoint == "static" and response.status_code in (200, 304) and request.args.get("v")
                and request.args["v"] == static_version(app.static_folder, (request.view_args or {})["filename"])):
            response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
        return response
