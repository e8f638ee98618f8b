"""deploy/ as shipped: gunicorn (deploy/gunicorn.conf.py) behind nginx (deploy/nginx-site.conf) on loopback.

Issue 13: three clients that send half a request froze the three sync workers for 30 s. Here gunicorn gets
fewer threads (1 worker x 2) than there are slow clients, so only nginx's request buffering can keep a
normal request fast; a control run shows the same slow clients do freeze gunicorn when nothing is in front.
"""

from __future__ import annotations

import socket
import time
import urllib.error
import urllib.request

import pytest

from tests.deploy import servers

ROOT, DEPLOY, NGINX = servers.ROOT, servers.DEPLOY, servers.NGINX
gunicorn, nginx = servers.app_gunicorn, servers.nginx

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (Debian package nginx; `make browser-deps` installs it)"
)


def half_requests(url: str) -> list[socket.socket]:
    """Three clients that stop halfway: one mid-headers, two mid-body (a login form of 2000 bytes)."""
    host, port = url.removeprefix("http://").split(":")
    starts = [
        b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Ag",
        b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 2000\r\n\r\nemail=slow",
        b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 2000\r\n\r\nemail=slower",
    ]
    clients = []
    for start in starts:
        client = socket.create_connection((host, int(port)), timeout=5)
        client.sendall(start)
        clients.append(client)
    time.sleep(0.5)  # let the server pick them up (and, without nginx, block on them)
    return clients


def seconds_to_answer(url: str, limit: float) -> float | None:
    """Time for a normal GET of the home page, or None if it did not answer within the limit."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(url + "/", timeout=limit) as response:
            assert response.status == 200
            response.read()
    except TimeoutError:
        return None
    except urllib.error.URLError as error:
        if isinstance(error.reason, TimeoutError):
            return None
        raise
    return time.monotonic() - started


def test_slow_clients_freeze_bare_gunicorn_but_not_nginx_in_front(app, tmp_path):
    with gunicorn(app, tmp_path) as (app_url, access_log):
        # Control: straight to gunicorn, the half requests hold both threads and the home page waits.
        clients = half_requests(app_url)
        try:
            assert seconds_to_answer(app_url, limit=2) is None, "bare gunicorn was expected to freeze"
        finally:
            for client in clients:
                client.close()
        assert seconds_to_answer(app_url, limit=5) is not None  # threads freed once the clients leave

        app_port = int(app_url.rsplit(":", 1)[1])
        with nginx(app_port, tmp_path) as url:
            assert seconds_to_answer(url, limit=5) is not None
            clients = half_requests(url)
            try:
                for _ in range(3):  # repeatedly, while all three still hang
                    elapsed = seconds_to_answer(url, limit=2)
                    assert elapsed is not None and elapsed < 2, "a slow client blocked a normal request"
            finally:
                for client in clients:
                    client.close()

            # Static files come from nginx itself: the same bytes, and gunicorn never sees the request.
            with urllib.request.urlopen(url + "/static/css/app.css", timeout=5) as response:
                assert response.read() == (ROOT / "static" / "css" / "app.css").read_bytes()
                assert response.headers["X-Content-Type-Options"] == "nosniff"

            # Over the app's 4 MB limit: refused by nginx from the announced length, before any upload.
            with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1])), timeout=5) as big:
                big.sendall(b"POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5000000\r\n\r\n")
                assert big.recv(100).startswith(b"HTTP/1.1 413")

            # A backup import of the same size passes nginx and reaches the app (here: 401, no token).
            backup = b'{"format_version": 1, "padding": "' + b"x" * 5_000_000 + b'"}'
            request = urllib.request.Request(url + "/api/v1/tournaments/import", data=backup, method="POST",
                                             headers={"Content-Type": "application/json"})
            with pytest.raises(urllib.error.HTTPError) as refused:
                urllib.request.urlopen(request, timeout=30)
            assert refused.value.code == 401
    logged = access_log.read_text()
    assert "GET / HTTP" in logged
    assert "/static/" not in logged
