"""Static files on venue wifi (issue 21 item 13): versioned URLs cached for a year, unversioned ones
revalidated, and the live-update script only on the pages that update themselves."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

STATIC = Path(__file__).resolve().parents[2] / "static"


def static_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_pages_name_static_files_by_their_content(client):
    html = client.get("/check").get_data(as_text=True)
    urls = static_urls(html)
    assert urls and all("?v=" in u for u in urls), urls
    css = next(u for u in urls if u.startswith("/static/css/app.css"))
    digest = hashlib.sha256((STATIC / "css" / "app.css").read_bytes()).hexdigest()[:12]
    assert css == f"/static/css/app.css?v={digest}"


def test_a_versioned_file_is_kept_a_year_an_unversioned_one_revalidates(client):
    html = client.get("/").get_data(as_text=True)
    css = next(u for u in static_urls(html) if u.startswith("/static/css/app.css"))
    versioned = client.get(css)
    assert versioned.status_code == 200
    assert versioned.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    plain = client.get("/static/css/app.css")
    assert "immutable" not in plain.headers.get("Cache-Control", "")
    assert plain.headers.get("ETag")
    # An old version (a page from before an upgrade) is not cached for long either.
    old = client.get("/static/css/app.css?v=000000000000")
    assert "immutable" not in old.headers.get("Cache-Control", "")


def test_live_script_only_on_pages_that_update_themselves(client, played):
    t = played
    for url in ("/", "/check", "/login", f"/t/{t.id}"):
        assert "js/live.js" not in client.get(url).get_data(as_text=True), url
    for url in (f"/t/{t.id}/standings", f"/t/{t.id}/standings/sessions/1", f"/t/{t.id}/seating/1"):
        html = client.get(url).get_data(as_text=True)
        assert "data-live-region" in html and "js/live.js" in html, url
