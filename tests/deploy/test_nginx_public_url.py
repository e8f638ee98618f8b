"""Links and names as deployed (issue 31): gunicorn with the shipped settings behind the shipped nginx site
(tests/deploy/servers.py names it 127.0.0.1, as deploy/README.md names it tournament.example.org), on the
test database, asked over plain HTTP with the headers an attacker chooses.

- With PUBLIC_URL, a player's link is PUBLIC_URL's whatever Host or X-Forwarded-Host the request names, straight
  to gunicorn or through nginx.
- nginx answers only its server_name: another Host, or none, gets no answer at all (444).
- Without PUBLIC_URL, nginx on a port of its own passes the Host with its port: links keep it.
- nginx's own 413 and 405 under /api/ are JSON like the app's errors there.
- deploy/README.md's steps and deploy/compose.yaml name the site as the shipped site expects.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess

import pytest

from tests.deploy.servers import DEPLOY, NGINX, SERVER_NAME_PLACEHOLDER, nginx
from tests.deploy.servers import app_gunicorn as gunicorn
from tests.helpers import add_players, make_tournament, make_user, token_for
from tournament.extensions import db

PUBLIC = "https://mahjong.example.org:8443"
EVIL = "evil.example"

needs_nginx = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")


def exchange(url: str, request: str) -> tuple[int, dict[str, str], bytes] | None:
    """Send a raw request to `url`'s port; its status, headers (lower-case names) and body, or None when the
    server closed the connection without a word (nginx's 444). Reads the answer only, not to the close: after
    a 413 nginx keeps the connection a while to drain the body it refused."""
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request.replace("\n", "\r\n").encode())
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        if not received:
            return None
        head, _, body = received.partition(b"\r\n\r\n")
        status_line, *lines = head.decode("latin-1").split("\r\n")
        headers = {name.strip().lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}
        while len(body) < int(headers.get("content-length", 0)):
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
        return int(status_line.split()[1]), headers, body


def link_of(url: str, path: str, token: str, **headers: str) -> str:
    """The player link the API gives to a GET of `path` with `headers` (Host: 127.0.0.1:<port> unless given)."""
    names = {"Host": url.removeprefix("http://"), "Authorization": f"Bearer {token}", "Connection": "close",
             **{name.replace("_", "-"): value for name, value in headers.items()}}
    answer = exchange(url, f"GET {path} HTTP/1.1\n" + "".join(f"{k}: {v}\n" for k, v in names.items()) + "\n")
    assert answer is not None and answer[0] == 200, answer
    return json.loads(answer[2])["url"]


def player_link() -> tuple[str, str]:
    """(the API path of a player's link, an organiser's API token) in a new tournament."""
    organiser = make_user("organiser@example.org", "organiser")
    t = make_tournament(organiser)
    player = add_players(t, 4)[0]
    db.session.commit()
    return f"/api/v1/tournaments/{t.id}/players/{player.id}/link", token_for(organiser)


@needs_nginx
def test_with_public_url_links_ignore_the_host_the_request_names(app, app_ctx, tmp_path):
    path, token = player_link()
    with gunicorn(app, tmp_path, PUBLIC_URL=PUBLIC) as (app_url, _):
        # Straight to gunicorn (a proxy that passes any Host on, or none in front): Host and X-Forwarded-Host.
        for headers in ({"Host": EVIL}, {"X_Forwarded_Host": EVIL}):
            assert link_of(app_url, path, token, **headers).startswith(f"{PUBLIC}/p/"), headers
        with nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
            assert link_of(url, path, token, X_Forwarded_Host=EVIL).startswith(f"{PUBLIC}/p/")
            assert link_of(url, path, token).startswith(f"{PUBLIC}/p/")
            # The forged Host does not even reach the app.
            assert exchange(url, f"GET {path} HTTP/1.1\nHost: {EVIL}\nAuthorization: Bearer {token}\n\n") is None


@needs_nginx
def test_behind_nginx_links_keep_its_port_and_other_names_get_no_answer(app, app_ctx, tmp_path):
    path, token = player_link()
    with gunicorn(app, tmp_path) as (app_url, _), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        # No PUBLIC_URL: the Host as the browser sent it, the port included (Docker's 8080, here the test's).
        assert link_of(url, path, token).startswith(f"{url}/p/")
        assert link_of(url, path, token, X_Forwarded_Host=EVIL).startswith(f"{url}/p/")
        for request in (f"GET /login HTTP/1.1\nHost: {EVIL}\n\n",
                        f"GET /login HTTP/1.1\nHost: {EVIL}:{url.rsplit(':', 1)[1]}\n\n",
                        "GET /login HTTP/1.0\n\n"):  # no Host at all
            assert exchange(url, request) is None, request
        assert exchange(url, "GET /login HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n")[0] == 200


@needs_nginx
def test_nginx_refuses_api_requests_in_the_apis_json(app, app_ctx, tmp_path):
    path, token = player_link()
    with gunicorn(app, tmp_path) as (app_url, _), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        host = f"Host: {url.removeprefix('http://')}\n"
        # Over client_max_body_size: refused by nginx from the announced length, before any upload.
        too_large = exchange(url, f"POST /api/v1/tournaments HTTP/1.1\n{host}Authorization: Bearer {token}\n"
                                  "Content-Type: application/json\nContent-Length: 5000000\n\n")
        # A TRACE is refused by nginx before the app; a DELETE where there is none by the app itself.
        trace = exchange(url, f"TRACE /api/v1/tournaments HTTP/1.1\n{host}Connection: close\n\n")
        delete = exchange(url, f"DELETE /api/v1/tournaments HTTP/1.1\n{host}Connection: close\n\n")
        # Elsewhere nginx's own page, as before.
        page = exchange(url, f"POST /login HTTP/1.1\n{host}Content-Length: 5000000\n\n")
    for answer, status in ((too_large, 413), (trace, 405), (delete, 405)):
        assert answer is not None and answer[0] == status, answer
        code, headers, body = answer
        assert headers["content-type"].startswith("application/json"), headers
        error = json.loads(body)
        assert set(error) == {"error"} and error["error"], error
        if status == 405:
            assert {"GET", "POST"} <= {m.strip() for m in headers["allow"].split(",")}, headers
    assert page is not None and page[0] == 413 and page[1]["content-type"] == "text/html"


# --- the steps that name the site ---------------------------------------------------------------------------


def test_the_readme_names_the_site_and_sets_public_url(tmp_path):
    readme = (DEPLOY / "README.md").read_text()
    site = tmp_path / "mcr-tournament"
    site.write_text((DEPLOY / "nginx-site.conf").read_text())
    [command] = [line for line in readme.splitlines() if line.startswith("sed -i") and "server_name" in line]
    assert SERVER_NAME_PLACEHOLDER.removeprefix("server_name ").rstrip(";") in command
    subprocess.run(command.replace("/etc/nginx/sites-available/mcr-tournament", str(site)), shell=True, check=True)
    named = site.read_text()
    assert "server_name tournament.example.org;" in named and SERVER_NAME_PLACEHOLDER not in named
    assert re.search(r"listen 80 default_server;\n(?:.*\n){0,2}?\s*return 444;", named)
    # The env file has the site's address; step 6 turns it to https.
    assert "\nPUBLIC_URL=http://tournament.example.org\n" in readme
    [to_https] = [line for line in readme.splitlines() if line.startswith("sed -i") and "PUBLIC_URL" in line]
    env = tmp_path / "mcr-tournament.env"
    env.write_text("SECRET_KEY=x\nPUBLIC_URL=http://tournament.example.org\n")
    subprocess.run(to_https.replace("/etc/mcr-tournament.env", str(env)), shell=True, check=True)
    assert env.read_text() == "SECRET_KEY=x\nPUBLIC_URL=https://tournament.example.org\n"


@pytest.mark.parametrize(("public_url", "name"), [
    (None, "localhost"),  # the default: http://localhost:8080
    ("http://192.168.1.10:8080", "192.168.1.10"),
    ("https://Mahjong.example.org", "Mahjong.example.org"),
])
def test_compose_names_the_site_after_public_url(tmp_path, public_url, name):
    yaml = pytest.importorskip("yaml")
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    app_env, nginx_service = compose["services"]["app"]["environment"], compose["services"]["nginx"]
    # The same address for the app's links and nginx's name, by default the published port 8080's.
    assert app_env["PUBLIC_URL"] == nginx_service["environment"]["PUBLIC_URL"] == "${PUBLIC_URL:-http://localhost:8080}"
    assert nginx_service["ports"] == ["${HTTP_PORT:-8080}:80"]
    assert "./nginx-site.conf:/srv/nginx-site.conf:ro" in nginx_service["volumes"]
    assert "./compose-nginx.sh:/srv/compose-nginx.sh:ro" in nginx_service["volumes"]
    # Its start command, run here with this checkout's site and a stand-in for the image's entrypoint.
    sh, script, verb = nginx_service["command"]
    assert script == "/srv/compose-nginx.sh" and verb == "start"
    text = (DEPLOY / "compose-nginx.sh").read_text().replace(
        "exec /docker-entrypoint.sh nginx -g 'daemon off;'", "echo started")
    env = {**os.environ, "PUBLIC_URL": public_url or "http://localhost:8080", "SITE": str(DEPLOY / "nginx-site.conf"),
           "OUT": str(tmp_path / "default.conf")}
    done = subprocess.run([shutil.which(sh) or sh, "-c", text, "compose-nginx.sh", verb], env=env,
                          capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "started"
    written = (tmp_path / "default.conf").read_text()
    assert f"server_name {name};" in written and SERVER_NAME_PLACEHOLDER not in written
