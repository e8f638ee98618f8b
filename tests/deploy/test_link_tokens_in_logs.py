"""Players' private link tokens never reach a log as deployed (issue 23): requests through the shipped nginx site
to gunicorn with the shipped settings, to a player's page and the player's API, then both access logs read."""

from __future__ import annotations

import time
import urllib.error
import urllib.request

import pytest

from tests.deploy.servers import NGINX, nginx
from tests.deploy.servers import app_gunicorn as gunicorn
from tests.helpers import add_players, make_tournament, make_user
from tournament.extensions import db
from tournament.services.people import player_links

pytestmark = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")


def _get(url: str, referer: str = "") -> int:
    request = urllib.request.Request(url, headers={"Referer": referer} if referer else {})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_tokens_are_masked_in_nginx_and_gunicorn_logs(app, app_ctx, tmp_path):
    t = make_tournament(make_user("organiser@example.org", "organiser"))
    player = add_players(t, 4)[0]
    token = player_links.token_of(player_links.link_of(t, player.id))
    db.session.commit()
    with gunicorn(app, tmp_path) as (app_url, access_log), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        assert _get(f"{url}/p/{token}", referer=f"{url}/p/{token}") == 200
        assert _get(f"{url}/api/v1/p/{token}?x=1") == 200
        assert _get(f"{url}/p/{'z' * 43}") == 404
        time.sleep(0.5)  # gunicorn and nginx write their lines after answering
    nginx_log = (tmp_path / "nginx" / "site-access.log").read_text()
    gunicorn_log = access_log.read_text()
    assert "/p/... " in nginx_log and "/api/v1/p/...?x=1" in nginx_log, nginx_log
    assert "/p/…" in gunicorn_log, gunicorn_log
    for log in (nginx_log, gunicorn_log):
        assert token not in log and "z" * 43 not in log
