"""The live pages through deploy/nginx-site.conf's micro-cache (issue 23, many viewers): nginx keeps the copy the
app compressed and sends it as it is, without compressing the 170 KB standings page again for every answer; a
client without gzip gets the plain page from a copy of its own; an ETag never gets a 304 for the other copy."""

from __future__ import annotations

import gzip
import http.client
import json

import pytest

from tests.deploy.servers import NGINX, nginx
from tests.deploy.servers import app_gunicorn as gunicorn
from tournament.web.live import cache as live_cache

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")]

GZIP = {"Accept-Encoding": "gzip, deflate, br"}


def get(base: str, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request on a connection of its own, the body as sent (never unpacked). Without an Accept-Encoding
    of the caller's, http.client says "identity"."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def sent_by_the_app(body: bytes) -> bool:
    """Whether gzip bytes are the app's own (web/live/cache.gzipped: its level, no time in the header)."""
    return body == gzip.compress(gzip.decompress(body), compresslevel=live_cache.GZIP_LEVEL, mtime=0)


FROM_THE_COPY = ("HIT", "REVALIDATED")  # REVALIDATED: the 2 s were over, the app said 304, the copy was sent


def test_nginx_serves_the_apps_compressed_copy_as_it_is(app, in_play, tmp_path):
    with gunicorn(app, tmp_path) as (app_url, _), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        for page in ("standings", "live/standings.json"):
            check_page(url, f"/t/{in_play.id}/{page}", in_play.name)

        # The other pages are nginx's to compress, as before.
        status, headers, body = get(url, f"/t/{in_play.id}", GZIP)
        assert status == 200 and headers["content-encoding"] == "gzip" and "content-length" not in headers
        assert in_play.name.encode() in gzip.decompress(body)


def check_page(url: str, path: str, name: str) -> None:
    answers = [get(url, path, GZIP) for _ in range(3)]
    for status, headers, body in answers:
        assert status == 200 and headers["content-encoding"] == "gzip", path
        # nginx's own gzip sends no Content-Length (it compresses as the answer streams by) and weakens the
        # ETag (W/"..."): here the app's bytes and its strong ETag arrive as they are.
        assert int(headers["content-length"]) == len(body), path
        assert sent_by_the_app(body), path
        assert headers["etag"].endswith('-gzip"') and not headers["etag"].startswith("W/"), path
        assert "Accept-Encoding" in headers["vary"], path
    assert answers[0][1]["x-cache-status"] == "MISS"
    assert [headers["x-cache-status"] in FROM_THE_COPY for _, headers, _ in answers[1:]] == [True, True], path
    assert answers[0][2] == answers[1][2] == answers[2][2], path  # the same bytes, compressed once
    packed_tag = answers[0][1]["etag"]
    inside = gzip.decompress(answers[0][2])

    # A client without gzip: not the gzip copy, but a plain one of its own, kept too.
    status, headers, plain = get(url, path)
    assert status == 200 and headers["x-cache-status"] == "MISS" and "content-encoding" not in headers, path
    assert headers["etag"] != packed_tag
    status, headers, again = get(url, path)
    assert status == 200 and headers["x-cache-status"] in FROM_THE_COPY and "content-encoding" not in headers
    assert again == plain
    if path.endswith(".json"):
        assert json.loads(plain) == json.loads(inside)
    else:
        assert name.encode() in plain and name.encode() in inside
        assert plain.lstrip().startswith(b"<!") and inside.lstrip().startswith(b"<!")

    # The poll of the gzip copy's holder: a 304 from nginx's copy. The same ETag from a client that does not
    # take gzip is no 304: the plain page.
    status, headers, _ = get(url, path, {**GZIP, "If-None-Match": packed_tag})
    assert status == 304 and headers["x-cache-status"] in FROM_THE_COPY, path
    status, headers, body = get(url, path, {"If-None-Match": packed_tag})
    assert status == 200 and "content-encoding" not in headers and body == plain, path
