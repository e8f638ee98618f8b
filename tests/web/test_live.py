"""Live public pages: the player page, statistics, projector, live JSON, and conditional GETs (ETag -> 304)."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from tests.helpers import add_players, login, make_tournament, rename_player, table_ids, win
from tournament.extensions import db
from tournament.services.play import penalties
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>")


def test_player_page_shows_tables_opponents_results_and_the_rank_chart(client, event_):
    t = event_
    e, s, w, n = table_ids(t, 1, 1)
    response = client.get(f"/t/{t.id}/players/{e}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "P" in html and "Rank after each session" in html
    chart = html[html.index('class="rank-chart"'):html.index("</figure>")]
    assert chart.count("<circle") == 2 and chart.count('class="chart-line"') == 1  # a point per session in play
    assert 'role="img"' in chart and "session 1:" in chart and "session 2:" in chart
    for opponent in (s, w, n):  # opponents of session 1 are links to their own pages
        assert f'href="/t/{t.id}/players/{opponent}"' in html
    assert re.search(r'id="session-1".*?Pure Straight|id="session-1"', html, re.S)
    assert "Pure Straight" in html  # the hand won, with its fans
    assert not INLINE_SCRIPT.search(html)


def test_player_page_for_a_missing_or_foreign_player_is_404(client, event_, organiser):
    other = make_tournament(organiser, name="Other")
    stranger = add_players(other, 1, start=50)[0]
    assert client.get(f"/t/{event_.id}/players/{stranger.id}").status_code == 404
    assert client.get(f"/t/{event_.id}/players/999999").status_code == 404
    assert client.get(f"/t/999999/players/{stranger.id}").status_code == 404
    huge = 2**70  # beyond any integer column: still a 404, never a database error
    assert client.get(f"/t/{event_.id}/players/{huge}").status_code == 404
    assert client.get(f"/t/{huge}/players/1").status_code == 404
    assert client.get(f"/t/{huge}/standings", headers={"If-None-Match": '"x"'}).status_code == 404


def test_standings_and_seating_link_player_pages(client, event_):
    t = event_
    player = table_ids(t, 2, 1)[0]
    for url in (f"/t/{t.id}/standings", f"/t/{t.id}/standings/sessions/2", f"/t/{t.id}/seating/2"):
        html = client.get(url).get_data(as_text=True)
        assert f'href="/t/{t.id}/players/{player}"' in html, url
        assert "data-live-region" in html and "js/live.js" in html


@pytest.mark.parametrize("path", ["standings", "standings/sessions/2", "standings/teams", "seating", "seating/2",
                                  "statistics", "live/standings.json", "live/seating.json", "players/{player}"])
def test_conditional_get_answers_304_until_something_changes(client, event_, path):
    t = event_
    url = f"/t/{t.id}/" + path.format(player=table_ids(t, 2, 1)[0])
    first = client.get(url)
    assert first.status_code == 200 and first.headers["ETag"]
    assert first.headers["Cache-Control"] == "public, max-age=0, s-maxage=2"  # nginx's micro-cache may share it
    etag = first.headers["ETag"]
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.headers["ETag"] == etag and not again.data
    # A hand entered elsewhere: the page is new.
    a, b, c, d = table_ids(t, 2, 2)
    win(t, 2, 2, 1, c, d)
    db.session.commit()
    changed = client.get(url, headers={"If-None-Match": etag})
    if "seating" in path:  # seating shows no score: a hand leaves it as it was, a renamed player does not
        assert changed.status_code == 304
        rename_player(t, c, "Renamed")
        changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_heavy_pages_are_recomputed_at_most_every_few_seconds(app, client, event_):
    t = event_
    app.config["LIVE_MIN_RECOMPUTE_SECONDS"] = 60
    url = f"/t/{t.id}/statistics"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert "<dt>Hands</dt><dd>3</dd>" in first.get_data(as_text=True)
    a, b, c, d = table_ids(t, 2, 2)
    win(t, 2, 2, 1, c, d)
    db.session.commit()
    # Within the window the earlier figures are served, under their own ETag: the client that has them
    # gets a 304, and the next poll after the window gets the new ones.
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    stale = client.get(url)
    assert stale.headers["ETag"] == etag and "<dt>Hands</dt><dd>3</dd>" in stale.get_data(as_text=True)
    app.config["LIVE_MIN_RECOMPUTE_SECONDS"] = 0
    fresh = client.get(url, headers={"If-None-Match": etag})
    assert fresh.status_code == 200 and fresh.headers["ETag"] != etag
    assert "<dt>Hands</dt><dd>4</dd>" in fresh.get_data(as_text=True)


def test_a_304_costs_one_small_query(client, event_):
    t = event_
    url = f"/t/{t.id}/standings"
    etag = client.get(url).headers["ETag"]
    statements: list[str] = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        response = client.get(url, headers={"If-None-Match": etag})
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert response.status_code == 304
    assert len(statements) == 1 and "max" in statements[0].lower()


def test_penalty_and_session_status_change_the_etag(client, event_):
    t = event_
    url = f"/t/{t.id}/standings"
    etag = client.get(url).headers["ETag"]
    penalties.give_penalty(t, player_id=table_ids(t, 2, 1)[3], session_number=2, amount=5, reason="noise",
                           user=None)
    db.session.commit()
    second = client.get(url, headers={"If-None-Match": etag})
    assert second.status_code == 200
    lifecycle.finish_session(t, 2, force=True)
    db.session.commit()
    assert client.get(url, headers={"If-None-Match": second.headers["ETag"]}).status_code == 200


def test_staff_and_public_get_different_etags(client, event_, organiser):
    url = f"/t/{event_.id}/standings"
    public = client.get(url).headers["ETag"]
    login(client, organiser.email)
    staff = client.get(url, headers={"If-None-Match": public})
    assert staff.status_code == 200 and staff.headers["ETag"] != public


def test_standings_json_for_the_projector(client, event_):
    t = event_
    data = client.get(f"/t/{t.id}/live/standings.json").get_json()
    assert data["session_numbers"] == [1, 2]
    assert len(data["rows"]) == 8
    assert [r["rank"] for r in data["rows"]] == sorted(r["rank"] for r in data["rows"])
    leader = data["rows"][0]
    assert set(leader) >= {"player_id", "rank_label", "name", "table_points", "score", "last"}
    from tournament.services.results.standings import standings

    assert [r["player_id"] for r in data["rows"]] == standings(t).player_ids


def test_seating_json_shows_the_next_session(client, event_):
    t = event_
    data = client.get(f"/t/{t.id}/live/seating.json").get_json()
    assert data["session"] == 2 and data["status"] == "in_play" and len(data["by_name"]) == 8
    assert data["clock_url"] == f"/t/{t.id}/sessions/2/clock.json" and data["in_play"] == 2  # its clock
    assert client.get(data["clock_url"]).status_code == 200
    draw_service.draw_next(t, seed=9)  # session 3 drawn but a draft: not shown
    db.session.commit()
    assert client.get(f"/t/{t.id}/live/seating.json").get_json()["session"] == 2
    lifecycle.set_status(play.get_session(t, 3), "published")
    db.session.commit()
    data = client.get(f"/t/{t.id}/live/seating.json").get_json()
    assert data["session"] == 3 and data["clock_url"] == f"/t/{t.id}/sessions/2/clock.json"
    names = [s["name"] for s in data["by_name"]]
    assert names == sorted(names)
    assert sorted(len(table["seats"]) for table in data["tables"]) == [4, 4]


def test_hidden_standings_stay_hidden_on_the_live_pages(client, event_, organiser):
    t = event_
    player = table_ids(t, 1, 1)[0]
    t.standings_hidden = True
    db.session.commit()
    assert client.get(f"/t/{t.id}/live/standings.json").status_code == 404
    html = client.get(f"/t/{t.id}/players/{player}").get_data(as_text=True)
    assert "<svg" not in html and "Rank after each session" not in html and "hidden" in html
    assert client.get(f"/t/{t.id}/projector").status_code == 200  # the seating still loops
    login(client, organiser.email)
    assert client.get(f"/t/{t.id}/live/standings.json").status_code == 200
    assert "<svg" in client.get(f"/t/{t.id}/players/{player}").get_data(as_text=True)


def test_statistics_page(client, event_):
    t = event_
    html = client.get(f"/t/{t.id}/statistics").get_data(as_text=True)
    assert "Highest-scoring hands" in html and "Pure Straight" in html and "Best hand of each session" in html
    assert html.count('class="fan-bar"') >= 5
    assert f'href="/t/{t.id}/players/' in html
    assert not INLINE_SCRIPT.search(html)


def test_statistics_before_any_hand(client, tournament):
    add_players(tournament, 4)
    assert "No hand has been entered yet" in client.get(f"/t/{tournament.id}/statistics").get_data(as_text=True)


def test_projector_page_has_its_data_sources_and_no_inline_script(client, event_):
    t = event_
    html = client.get(f"/t/{t.id}/projector?rows=7&seconds=1").get_data(as_text=True)
    assert f'data-standings-url="/t/{t.id}/live/standings.json"' in html
    assert 'data-rows="7"' in html and 'data-seconds="3"' in html  # at least 3 s a page
    assert "js/projector.js" in html and not INLINE_SCRIPT.search(html)
    assert client.get(f"/t/{t.id}/projector?rows=abc&seconds=-4").status_code == 200
    assert client.get("/t/999999/projector").status_code == 404


def test_the_live_data_is_one_copy_for_every_language(client, event_):
    # names, numbers and codes only: no Vary on the language and one ETag, so that a shared cache keeps one copy
    # (the standings page itself stays one copy per language)
    t = event_
    for path in ("live/standings.json", "live/seating.json"):
        fi = client.get(f"/t/{t.id}/{path}", headers={"Accept-Language": "fi"})
        zh = client.get(f"/t/{t.id}/{path}", headers={"Accept-Language": "zh"})
        assert fi.status_code == zh.status_code == 200 and fi.get_data() == zh.get_data()
        assert fi.headers["ETag"] == zh.headers["ETag"]
        assert "Accept-Language" not in fi.headers.get("Vary", "")
        again = client.get(f"/t/{t.id}/{path}", headers={"Accept-Language": "sv", "If-None-Match": fi.headers["ETag"]})
        assert again.status_code == 304
    page_fi = client.get(f"/t/{t.id}/standings", headers={"Accept-Language": "fi"})
    page_zh = client.get(f"/t/{t.id}/standings", headers={"Accept-Language": "zh"})
    assert page_fi.headers["ETag"] != page_zh.headers["ETag"] and "Accept-Language" in page_fi.headers["Vary"]
