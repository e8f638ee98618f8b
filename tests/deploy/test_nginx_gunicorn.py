"""deploy/ as shipped: gunicorn (deploy/gunicorn.conf.py) behind nginx (deploy/nginx-site.conf) on loopback.

Issue 13: three clients that send half a request froze the three sync workers for 30 s. Here gunicorn gets
fewer threads (1 worker x 2) than there are slow clients, so only nginx's request buffering can keep a
normal request fast; a control run shows the same slow clients do freeze gunicorn when nothing is in front.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.deploy import servers

ROOT, DEPLOY = servers.ROOT, servers.DEPLOY
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)

pytestmark = pytest.mark.skipif(
    NGINX is None, reason="nginx is not installed (Debian package nginx; `make browser-deps` installs it)"
)


def render_site(app_port: int, nginx_port: int) -> str:
    """The shipped site with loopback ports and this checkout's static folder; each value must be found
    exactly once, so that the test notices when the site file changes shape."""
    site = (DEPLOY / "nginx-site.conf").read_text()
    for shipped, here in (
        ("listen 80;", f"listen 127.0.0.1:{nginx_port};"),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{app_port};"),
        ("alias /srv/mcr-tournament/static/;", f"alias {ROOT / 'static'}/;"),
    ):
        assert site.count(shipped) == 1, f"deploy/nginx-site.conf no longer has {shipped!r} once"
        site = site.replace(shipped, here)
    return site


@contextmanager
def gunicorn(app, tmp_path: Path) -> Iterator[tuple[str, Path]]:
    access_log = tmp_path / "gunicorn-access.log"
    env = {"DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": app.config["SECRET_KEY"],
           "INSTANCE_PATH": app.instance_path, "TRUSTED_PROXIES": "1", "GUNICORN_WORKERS": "1",
           "GUNICORN_THREADS": "2", "GUNICORN_ACCESS_LOG": str(access_log)}
    with servers.gunicorn(env) as (port, _):
        yield f"http://127.0.0.1:{port}", access_log


@contextmanager
def nginx(app_port: int, tmp_path: Path) -> Iterator[str]:
    port = servers.free_port()
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    (prefix / "site.conf").write_text(render_site(app_port, port))
    temp_paths = "\n".join(f"    {kind}_temp_path {prefix / kind};"
                           for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    # As root, nginx's workers would drop to nobody, who cannot read this checkout or the temp folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    (prefix / "nginx.conf").write_text(
        f"{user}daemon off;\nworker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\n"
        "events { worker_connections 256; }\n"
        f"http {{\n    include /etc/nginx/mime.types;\n    access_log {prefix / 'access.log'};\n"
        f"{temp_paths}\n    include {prefix / 'site.conf'};\n}}\n")
    command = [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
    check = subprocess.run([*command, "-t"], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        servers.wait_until_up(port, process, "nginx")
        yield url
    finally:
        servers.stop(process)


def half_requests(url: str) -> list[socket.socket]:
    """Three clients that stop halfway: one mid-headers, two mid-body (a login form of 2000 bytes)."""
    host, port = url.removeprefix("http://").split(":")
    starts = [
        b"GET / HTTP/1.1\r\nHost: x\r\nUser-Ag",
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        b"Content-Length: 2000\r\n\r\nemail=slow",
        b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
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
                big.sendall(b"POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\n")
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
