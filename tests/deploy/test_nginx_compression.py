"""deploy/nginx-site.conf on venue wifi (issue 21 item 13): pages, CSS, JS and JSON go gzip-compressed, and a
static file named with its version is kept for good while an unversioned one is kept an hour."""

from __future__ import annotations

import gzip
import re
import urllib.request

import pytest

from tests.deploy.servers import NGINX, nginx
from tests.deploy.servers import app_gunicorn as gunicorn

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")


def fetch(url: str, gzip_ok: bool = True):
    headers = {"Accept-Encoding": "gzip"} if gzip_ok else {}
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=10) as answer:
        body = answer.read()
        return answer.headers, (gzip.decompress(body) if answer.headers.get("Content-Encoding") == "gzip"
                                else body), len(body)


def test_nginx_compresses_and_caches_versioned_static_files(app, tmp_path):
    with gunicorn(app, tmp_path) as (app_url, _), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        headers, html, sent = fetch(url + "/check")
        assert headers["Content-Encoding"] == "gzip" and sent < len(html) / 2, (sent, len(html))
        page = html.decode()
        for kind in ("css/app.css", "js/tile-picker.js"):
            versioned = re.search(rf'"(/static/{re.escape(kind)}\?v=[0-9a-f]+)"', page).group(1)
            headers, body, sent = fetch(url + versioned)
            assert headers["Content-Encoding"] == "gzip" and sent < len(body) / 2, (kind, sent, len(body))
            assert "max-age=315360000" in headers["Cache-Control"], headers["Cache-Control"]  # nginx's "max"
            headers, _, _ = fetch(url + f"/static/{kind}")
            assert "max-age=3600" in headers["Cache-Control"], headers["Cache-Control"]
        headers, body, sent = fetch(url + "/check/score.json?hand=123456789m123s5p5p&self_drawn=1")
        assert headers["Content-Type"].startswith("application/json")
        assert headers["Content-Encoding"] == "gzip" and sent < len(body), (sent, len(body))
        headers, _, _ = fetch(url + "/static/manifest.json")
        assert headers["Content-Type"].startswith("application/json")
