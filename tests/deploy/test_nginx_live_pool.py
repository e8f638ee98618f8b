"""The public live pages' own gunicorn (deploy/mcr-tournament-live.service, issue 23): nginx sends the live
pages there and everything else to the main gunicorn; without it, the live pages fall back on the main one."""

from __future__ import annotations

import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.deploy.servers import DEPLOY, NGINX, gunicorn, nginx
from tests.helpers import token_for

served = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")


def _get(url: str, headers: dict[str, str] | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            answer.read()
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def _env(app, log: Path) -> dict[str, str]:
    return {"DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"], "SECRET_KEY": app.config["SECRET_KEY"],
            "INSTANCE_PATH": app.instance_path, "TRUSTED_PROXIES": "1", "GUNICORN_WORKERS": "1",
            "GUNICORN_THREADS": "2", "GUNICORN_ACCESS_LOG": str(log)}


def test_the_live_unit_listens_where_the_site_sends_the_live_pages_at_a_lower_priority():
    unit = (DEPLOY / "mcr-tournament-live.service").read_text()
    site = (DEPLOY / "nginx-site.conf").read_text()
    bind = re.search(r"^Environment=GUNICORN_BIND=(\S+)$", unit, re.M).group(1)
    live_upstream = re.search(r"upstream mcr_tournament_live \{(.*?)\}", site, re.S).group(1)
    assert f"server {bind} " in live_upstream
    assert "server 127.0.0.1:8000 backup;" in live_upstream  # the main gunicorn when this one is down
    assert int(re.search(r"^Nice=(\d+)$", unit, re.M).group(1)) > 0
    assert "db upgrade" not in unit  # the main unit migrates; two at once would race
    live_location = site[site.index("location ~ ^/t/"):]
    assert live_location[:live_location.index("}")].rstrip().endswith("proxy_pass http://mcr_tournament_live;")


@pytest.mark.slow
@served
def test_live_pages_reach_the_live_gunicorn_and_the_rest_the_main_one(app, live_tournament, organiser, tmp_path):
    t = live_tournament
    token = token_for(organiser)
    main_log, live_log = tmp_path / "main-access.log", tmp_path / "live-access.log"
    with gunicorn(_env(app, main_log)) as (main_port, _), gunicorn(_env(app, live_log)) as (live_port, _), \
            nginx(main_port, tmp_path, live_port=live_port) as url:
        assert _get(f"{url}/t/{t.id}/standings")[0] == 200
        assert _get(f"{url}/t/{t.id}/live/standings.json")[0] == 200
        status, _ = _get(f"{url}/api/v1/tournaments/{t.id}/standings", {"Authorization": f"Bearer {token}"})
        assert status == 200
    live, main = live_log.read_text(), main_log.read_text()
    assert f"GET /t/{t.id}/standings " in live and f"GET /t/{t.id}/live/standings.json " in live
    assert f"/t/{t.id}/standings " not in main and f"/t/{t.id}/live/" not in main
    assert f"GET /api/v1/tournaments/{t.id}/standings " in main and "/api/" not in live


@pytest.mark.slow
@served
def test_without_the_live_gunicorn_the_main_one_serves_the_live_pages(app, live_tournament, tmp_path):
    t = live_tournament
    main_log = tmp_path / "main-access.log"
    with gunicorn(_env(app, main_log)) as (main_port, _), nginx(main_port, tmp_path) as url:  # 8001: nobody
        for _ in range(3):  # the first finds the port refused, the next skip it for a while
            status, headers = _get(f"{url}/t/{t.id}/standings")
            assert status == 200
    assert main_log.read_text().count(f"GET /t/{t.id}/standings ") >= 1
