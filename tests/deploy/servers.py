"""The app served as deployed, for the deploy tests: gunicorn with deploy/gunicorn.conf.py on a free loopback
port, started with the environment a test gives and stopped at the end."""

from __future__ import annotations

import http.client
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
GUNICORN = Path(sys.executable).with_name("gunicorn")
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def free_port_is(port: int) -> bool:
    """Whether `port` is free on 127.0.0.1 (and ::1 where there is IPv6)."""
    families = [(socket.AF_INET, "127.0.0.1")] + ([(socket.AF_INET6, "::1")] if ipv6_loopback() else [])
    for family, address in families:
        with socket.socket(family) as probe:
            try:
                probe.bind((address, port))
            except OSError:
                return False
    return True


def answers(port: int, path: str = "/login") -> bool:
    """Whether something answers HTTP on the port (any status)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", path)
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def wait_until_up(port: int, process: subprocess.Popen, what: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + 30
    while not answers(port):
        if time.monotonic() > deadline or process.poll() is not None:
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{what} did not start. {tail}")
        time.sleep(0.2)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@contextmanager
def gunicorn(env: dict[str, str], log: Path | None = None) -> Iterator[tuple[int, subprocess.Popen]]:
    """gunicorn with the shipped settings and `env` added to this environment (DATABASE_URL, SECRET_KEY,
    GUNICORN_WORKERS ...); its own log goes to `log` (or nowhere). Yields (port, master process) once it
    answers."""
    port = free_port()
    stderr: IO | int = log.open("w") if log else subprocess.DEVNULL
    try:
        process = subprocess.Popen(
            [str(GUNICORN), "-c", str(DEPLOY / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}", "app:app"],
            cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=stderr)
    finally:
        if log:
            stderr.close()  # type: ignore[union-attr]
    try:
        wait_until_up(port, process, "gunicorn", log)
        yield port, process
    finally:
        stop(process)


# --- the app behind the shipped nginx site ----------------------------------------------------------------


# The shipped site's placeholder for its name (deploy/README.md step 5 replaces it), here the loopback address
# the tests and benches ask (any other Host is dropped with a 444, as on a server).
SERVER_NAME_PLACEHOLDER = "server_name mcr-tournament.invalid;"


def ipv6_loopback() -> bool:
    """Whether this machine can listen on ::1 (a container without IPv6 cannot)."""
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


def render_site(app_port: int, nginx_port: int, cache: Path, live_port: int | None = None) -> str:
    """The shipped site with loopback ports and name, this checkout's static folder and the micro-cache in
    `cache`; each value must be found as often as expected (once, the access log twice: the dropping default
    server's and the site's), so that the test notices when the site file changes shape. Its IPv6 listens go
    to ::1 on the same port (dropped where the machine has no IPv6).
    `live_port`: the live pages' own gunicorn (mcr-tournament-live.service), else a port nothing listens
    on, so that the live pages fall back on the main one as on a server without that service."""
    site = (DEPLOY / "nginx-site.conf").read_text()
    v6 = f"listen [::1]:{nginx_port}" if ipv6_loopback() else f"# no IPv6 here: [::1]:{nginx_port}"
    for shipped, here, count in (
        ("listen 80 default_server;", f"listen 127.0.0.1:{nginx_port} default_server;", 1),
        ("listen [::]:80 default_server;", f"{v6} default_server;", 1),
        ("listen 80;", f"listen 127.0.0.1:{nginx_port};", 1),
        ("listen [::]:80;", f"{v6};", 1),
        (SERVER_NAME_PLACEHOLDER, "server_name 127.0.0.1;", 1),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{app_port};", 1),
        ("server 127.0.0.1:8001 ", f"server 127.0.0.1:{live_port or free_port()} ", 1),
        ("server 127.0.0.1:8000 backup;", f"server 127.0.0.1:{app_port} backup;", 1),
        ("alias /srv/mcr-tournament/static/;", f"alias {ROOT / 'static'}/;", 1),
        ("proxy_cache_path /var/cache/nginx-mcr-live ", f"proxy_cache_path {cache} ", 1),
        ("access_log /var/log/nginx/access.log mcr_private;",
         f"access_log {cache.parent / 'site-access.log'} mcr_private;", 2),
    ):
        assert site.count(shipped) == count, f"deploy/nginx-site.conf no longer has {shipped!r} {count} time(s)"
        site = site.replace(shipped, here)
    return site


@contextmanager
def app_gunicorn(app, tmp_path: Path, **settings: str) -> Iterator[tuple[str, Path]]:
    """The test's app (its database, secret key, instance) in gunicorn as deployed behind nginx (one trusted
    proxy), with `settings` added to its environment (PUBLIC_URL ...)."""
    access_log = tmp_path / "gunicorn-access.log"
    env = {"DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": app.config["SECRET_KEY"],
           "INSTANCE_PATH": app.instance_path, "TRUSTED_PROXIES": "1", "GUNICORN_WORKERS": "1",
           "GUNICORN_THREADS": "2", "GUNICORN_ACCESS_LOG": str(access_log), **settings}
    with gunicorn(env) as (port, _):
        yield f"http://127.0.0.1:{port}", access_log


@contextmanager
def nginx(app_port: int, tmp_path: Path, live_port: int | None = None,
          edit: Callable[[str], str] | None = None) -> Iterator[str]:
    """nginx with the shipped site rendered for loopback (render_site), changed by `edit` if given (what
    certbot does to it ...); yields its http:// address once it answers."""
    port = free_port()
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    site = render_site(app_port, port, prefix / "cache", live_port)
    (prefix / "site.conf").write_text(edit(site) if edit else site)
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
        wait_until_up(port, process, "nginx")
        yield url
    finally:
        stop(process)
