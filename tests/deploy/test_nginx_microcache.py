"""deploy/nginx-site.conf's micro-cache of the public live pages (issue 23, many viewers): served as deployed
(gunicorn behind the shipped site), a cached public page never serves staff content, staff and token
requests never go through the cache, and a hand entered shows on the public page within the cache time."""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from tests.deploy.servers import DEPLOY, NGINX, nginx
from tests.deploy.servers import app_gunicorn as gunicorn
from tests.helpers import CSRF_RE, PASSWORD, VALID_22, token_for
from tournament.extensions import db
from tournament.services.play import session as play
from tournament.services.results.visibility import set_standings_hidden
from tournament.web.live.routes import LIVE_ENDPOINTS

# The tests that start gunicorn and nginx.
served = pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")

STAFF_NAME = "Olivia Organiser"  # the `organiser` fixture's name


class Browser:
    """A client with its own cookies, as a phone or the staff's laptop would be."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, str]:
        request = urllib.request.Request(self.base + path, headers=headers or {})
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, dict(answer.headers), answer.read().decode()
        except urllib.error.HTTPError as error:  # 304 and 404 land here
            return error.code, dict(error.headers), error.read().decode()

    def post(self, path: str, data: bytes, headers: dict[str, str]) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, data=data, headers=headers, method="POST")
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def log_in(self, email: str) -> None:
        _, _, form = self.get("/login")
        token = CSRF_RE.search(form).group(1)
        status, page = self.post("/login", urllib.parse.urlencode(
            {"csrf_token": token, "email": email, "password": PASSWORD}).encode(),
            {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 200 and STAFF_NAME in page, "the login did not land on a logged-in page"


@pytest.mark.slow
@served
def test_public_copies_never_carry_staff_content(app, live_tournament, organiser, tmp_path):
    t = live_tournament
    token = token_for(organiser)
    with gunicorn(app, tmp_path) as (app_url, access_log), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        public, staff = Browser(url), Browser(url)
        staff.log_in(organiser.email)

        # The public fills the cache, then the staff ask for the same page: they go past it, to the app.
        page = f"/t/{t.id}/standings"
        status, headers, body = public.get(page)
        assert status == 200 and headers["X-Cache-Status"] == "MISS" and STAFF_NAME not in body
        status, headers, _ = public.get(page)
        assert status == 200 and headers["X-Cache-Status"] == "HIT"
        status, headers, body = staff.get(page)
        assert status == 200 and headers["X-Cache-Status"] == "BYPASS" and STAFF_NAME in body
        assert headers["Cache-Control"] == "no-store"
        status, headers, body = public.get(page)
        assert headers["X-Cache-Status"] == "HIT" and STAFF_NAME not in body

        # The staff first, on pages nobody asked for yet: nothing of theirs is kept, the public's first
        # request goes to the app.
        for first in (f"/t/{t.id}/standings/sessions/1", f"/t/{t.id}/live/standings.json"):
            status, headers, body = staff.get(first)
            assert status == 200 and headers["X-Cache-Status"] == "BYPASS", first
            status, headers, body = public.get(first)
            assert status == 200 and headers["X-Cache-Status"] == "MISS" and STAFF_NAME not in body, first

        # A token, or the remember-me cookie alone, goes past the cache too.
        status, headers, _ = public.get(f"/t/{t.id}/live/standings.json", {"Authorization": f"Bearer {token}"})
        assert status == 200 and headers["X-Cache-Status"] == "BYPASS" and headers["Cache-Control"] == "no-store"
        status, headers, _ = public.get(page, {"Cookie": "remember_token=1|abc"})
        assert headers["X-Cache-Status"] == "BYPASS"

        # Standings hidden: the staff still see them; the public's cached copy gives way to a 404 within the
        # cache time, even while the public keeps asking.
        set_standings_hidden(t, True)
        db.session.commit()
        assert staff.get(page)[0] == 200
        deadline = time.monotonic() + 3.5
        while public.get(page)[0] != 404:
            assert time.monotonic() < deadline, "the hidden standings were still served from the cache"
            time.sleep(0.1)
    assert "GET /t/" in access_log.read_text()


@pytest.mark.slow
@served
def test_a_hand_shows_on_the_public_page_within_the_cache_time(app, live_tournament, organiser, tmp_path):
    t = live_tournament
    token = token_for(organiser)
    table = play.table_players(play.get_session(t, 1), 1)
    east, south = table[0].player_id, table[1].player_id
    with gunicorn(app, tmp_path) as (app_url, _), nginx(int(app_url.rsplit(":", 1)[1]), tmp_path) as url:
        viewer, scorer = Browser(url), Browser(url)
        path = f"/t/{t.id}/live/standings.json"

        def east_score(headers: dict[str, str] | None = None) -> tuple[int, dict, int | None]:
            status, answer, body = viewer.get(path, headers)
            if status != 200:
                return status, answer, None
            return status, answer, next(row["score"] for row in json.loads(body)["rows"] if row["player_id"] == east)

        status, headers, before = east_score()
        assert status == 200 and before == 0
        etag = headers["ETag"]
        # The live script's poll: the ETag it holds answers 304, from nginx's copy.
        status, headers, _ = east_score({"If-None-Match": etag})
        assert status == 304 and headers["X-Cache-Status"] == "HIT"

        status, body = scorer.post(
            f"/api/v1/tournaments/{t.id}/sessions/1/tables/1/hands",
            json.dumps({"number": 1, "result": "win", "winner_id": east, "discarder_id": south,
                        "hand": VALID_22}).encode(),
            {"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
        assert status == 201, body
        entered = time.monotonic()
        statuses = []
        while True:
            status, headers, score = east_score({"If-None-Match": etag})
            statuses.append(headers.get("X-Cache-Status"))
            if status == 200:
                break
            assert time.monotonic() - entered < 3.5, f"the hand did not show within the cache time: {statuses}"
            time.sleep(0.1)
        shown = time.monotonic() - entered
        assert score > 0 and headers["ETag"] != etag
        assert shown <= 3.5, shown
        # While the copy was fresh, nginx answered alone.
        assert "HIT" in statuses, statuses


def test_the_cached_location_is_exactly_the_live_pages(app):
    """The site's cached location matches every address of the app's live pages (their ETags and
    Cache-Control come from tournament/web/live) and no other page: elsewhere a client's If-None-Match must
    reach the app unchanged, and nothing else is meant to be shared."""
    site = (DEPLOY / "nginx-site.conf").read_text()
    cached = re.findall(r"^\s*location ~ (\S+) \{\n((?:.*\n)*?)\s*\}", site, re.M)
    assert len(cached) == 1 and "proxy_cache mcr_live;" in cached[0][1], "one regex location, the cached one"
    pattern = re.compile(cached[0][0])
    live, others = [], []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        path = re.sub(r"<(?:[^:>]+:)?[^>]+>", "7", rule.rule)
        (live if rule.endpoint in LIVE_ENDPOINTS else others).append(path)
    assert len(live) == len(LIVE_ENDPOINTS)
    assert [p for p in live if not pattern.search(p)] == []
    assert [p for p in others if pattern.search(p)] == []
    assert not pattern.search("/t/7/standings/extra") and not pattern.search("/x/t/7/standings")
