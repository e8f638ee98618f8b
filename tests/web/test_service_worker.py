"""The service worker of the offline hand entry (issue 23) is served from the site's root, so that its scope covers
the players' pages (/p/...) and the referees' table pages (/manage/...), and is asked for afresh on every check: a
new version reaches the phones at their next page load."""

from __future__ import annotations

from tests.helpers import PASSWORD, login, players_of
from tournament.services.people import player_links


def test_the_service_worker_is_served_from_the_root_and_never_kept_stale(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in answer.headers
    script = answer.get_data(as_text=True)
    assert 'addEventListener("fetch"' in script and "/logout" in script  # the staff copies go at logout


def loads_the_queue(client, url: str) -> bool:
    answer = client.get(url)
    assert answer.status_code == 200, url
    return "js/offline-queue.js" in answer.get_data(as_text=True)


def test_only_the_pages_the_worker_keeps_load_the_offline_queue_that_registers_it(client, organiser, in_play):
    """The queue (and the worker's registration) only where hands are entered at a table: the other pages, the
    login among them, spare a phone on venue wifi 6 kB (issue 21 item 13). Logging in or out needs no script:
    the worker sees those POSTs whatever page sends them."""
    t = in_play
    player = players_of(t)[0]
    token = player_links.token_of(player_links.link_of(t, player.id))
    assert not loads_the_queue(client, "/login")
    assert not loads_the_queue(client, f"/t/{t.id}/standings")
    assert loads_the_queue(client, f"/p/{token}")
    login(client, organiser.email, PASSWORD)
    table = f"/manage/tournaments/{t.id}/play/1/tables/1"
    assert loads_the_queue(client, table) and loads_the_queue(client, table + "/hands/new")
    assert not loads_the_queue(client, "/manage")
    assert not loads_the_queue(client, f"/manage/tournaments/{t.id}/play/1")
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.headers["Cache-Control"] == "no-store"  # logged in: never stored
