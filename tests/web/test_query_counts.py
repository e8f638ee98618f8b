"""Every public page runs the same number of SQL queries for 8 players as for 64.

A page that loads one row per seat, player or hand (a lazy relationship in a loop) shows here as a count
that grows with the tournament: 35 queries for 34 seats was the seating page before this test.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event

from tests.helpers import UNDER_5, add_players, make_tournament
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.play import penalties, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import FalseMahjongData, HandData
from tournament.services.seating import draws, lifecycle

WIN = "123456789m123s5p5p"  # Pure Straight 16 + Concealed 2 + All Chows 2 + Mixed Double Chow 1 + Single Wait 1

PAGES = {
    "home": "/",
    "tournament": "/t/{t}",
    "players": "/t/{t}/players",
    "seating (latest)": "/t/{t}/seating",
    "seating by table and by name": "/t/{t}/seating/1",
    "seating projector by name": "/t/{t}/seating/2/projector",
    "seating projector by table": "/t/{t}/seating/2/projector?by=table",
    "a player's schedule": "/t/{t}/seating/player/{p}",
    "a player's page": "/t/{t}/players/{p}",
    "standings": "/t/{t}/standings",
    "session results": "/t/{t}/standings/sessions/1",
    "teams": "/t/{t}/standings/teams",
    "statistics": "/t/{t}/statistics",
    "projector loop": "/t/{t}/projector",
    "live standings": "/t/{t}/live/standings.json",
    "live seating": "/t/{t}/live/seating.json",
    "session clock": "/t/{t}/sessions/1/clock",
    "session clock data": "/t/{t}/sessions/1/clock.json",
    "hand checker": "/check?hand=" + WIN,
}


def _played_tournament(organiser, players: int, name: str) -> tuple[Tournament, int]:
    """`players` players in teams of 4; session 1 played (wins, draws, a false mahjong, a penalty),
    session 2 drawn and published."""
    t = make_tournament(organiser, name=name)
    roster = add_players(t, players, team=lambda i: f"Team {i // 4}")
    lifecycle.set_status(draws.draw_next(t, seed=1), "published")
    lifecycle.start_session(t, 1)
    session = play.get_session(t, 1)
    for table in range(1, players // 4 + 1):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_hand(t, 1, table, HandData(number=1, result="win", winner_id=ids[0], hand=WIN), None)
        scoring.enter_hand(t, 1, table, HandData(number=2, result="win", winner_id=ids[1], discarder_id=ids[2],
                                                 hand=WIN), None)
        scoring.enter_hand(t, 1, table, HandData(number=3, result="draw"), None)
    penalties.give_penalty(t, player_id=roster[0].id, session_number=1, amount=10, reason="slow", user=None)
    lifecycle.set_status(draws.draw_next(t, seed=2), "published")
    db.session.commit()
    return t, roster[-1].id


@contextmanager
def counting_queries() -> Iterator[list[str]]:
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(db.engine, "before_cursor_execute", count)


def _counts(client, t: Tournament, player_id: int) -> dict[str, tuple[int, int]]:
    """(cold, warm) query count per page: the first request, then the same again (caches filled)."""
    counts = {}
    for label, pattern in PAGES.items():
        url = pattern.format(t=t.id, p=player_id)
        runs = []
        for _ in range(2):
            with counting_queries() as statements:
                response = client.get(url)
            assert response.status_code == 200, (label, url, response.status_code)
            runs.append(len(statements))
        counts[label] = (runs[0], runs[1])
    return counts


def test_public_pages_run_as_many_queries_for_64_players_as_for_8(client, organiser, app_ctx):
    small, small_player = _played_tournament(organiser, 8, "Small Open")
    large, large_player = _played_tournament(organiser, 64, "Large Open")
    small_counts = _counts(client, small, small_player)
    large_counts = _counts(client, large, large_player)
    differ = [f"{label}: (cold, warm) {small_counts[label]} for 8 players, {large_counts[label]} for 64"
              for label in PAGES if small_counts[label] != large_counts[label]]
    assert not differ, "\n".join(differ)
    # And none of them is expensive: a page is a handful of queries, not one per row.
    assert max(cold for cold, _ in large_counts.values()) <= 25, large_counts


def test_staff_play_page_runs_as_many_queries_for_32_tables_as_for_8(organiser_client, organiser, app_ctx):
    """The page a referee keeps open during play lists every table with its scores and the session check:
    it read a score sheet per table, ~30 queries each (bench/play_page.py: 246 at 8 tables, 966 at 32, 3,726
    at 125 before this test; 13 after)."""
    counts = {}
    for tables in (8, 32):
        t, _ = _played_tournament(organiser, 4 * tables, f"Open {tables}")
        url = f"/manage/tournaments/{t.id}/play/1"
        with counting_queries() as statements:
            response = organiser_client.get(url)
        assert response.status_code == 200, url
        assert response.get_data(as_text=True).count('class="table-card') == tables
        counts[tables] = len(statements)
    assert counts[8] == counts[32], counts
    assert counts[32] <= 20, counts


def test_the_referees_table_page_runs_as_many_queries_for_16_hands_as_for_1(organiser_client, seated):
    """The table page read each hand's payments and false mahjongs one hand at a time (issue 31: 21 queries with
    no hand, 55 with 16). With hands, their confirmations, disputes, payments and false mahjongs are four
    queries in all, whatever their number; with none those four have nothing to ask."""
    t, ids = seated
    url = f"/manage/tournaments/{t.id}/play/1/tables/1"
    counts = {}
    for number in range(17):
        if number:
            false_mahjongs = (FalseMahjongData(player_id=ids[(number + 2) % 4], hand=UNDER_5),) if number % 3 == 0 else ()
            result = {"result": "draw"} if number % 5 == 0 else {
                "result": "win", "winner_id": ids[number % 4], "discarder_id": ids[(number + 1) % 4], "hand": WIN}
            scoring.enter_hand(t, 1, 1, HandData(number=number, false_mahjongs=false_mahjongs, **result), None)
            db.session.commit()
        if number in (0, 1, 16):
            organiser_client.get(url)  # the caches filled first: only the page's own reading is counted
            with counting_queries() as statements:
                response = organiser_client.get(url)
            assert response.status_code == 200
            assert response.get_data(as_text=True).count('class="hand-row hand-missing"') == 16 - number
            counts[number] = len(statements)
    assert counts[1] == counts[16] and counts[16] - counts[0] == 4, counts
    assert counts[16] <= 25, counts
