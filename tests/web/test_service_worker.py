"""The service worker of the offline hand entry (issue 23) is served from the site's root, so that its scope covers
the players' pages (/p/...) and the referees' table pages (/manage/...), and is asked for afresh on every check: a
new version reaches the phones at their next page load."""

from __future__ import annotations

from tests.helpers import PASSWORD, login


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in answer.headers
    script = answer.get_data(as_text=True)
    assert 'addEventListener("fetch"' in script and "/logout" in script  # the staff copies go at logout


def test_pages_load_the_offline_queue_that_registers_it(client, organiser):
    assert "js/offline-queue.js" in client.get("/login").get_data(as_text=True)
    login(client, organiser.email, PASSWORD)
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"  # logged in: never stored
