"""Issue 25: a weekend drawn session by session through the JSON API (separation, withdraw, finish, swiss)."""

from __future__ import annotations

from itertools import combinations

from tournament.extensions import db
from tournament.services.play import scoring
from tournament.services.play import session as play


def _tournament(post_api, sessions: int, **settings) -> int:
    response = post_api("/tournaments", {"name": "Weekend Open", "session_count": sessions, **settings})
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def _add(post_api, tid: int, count: int, team=None, substitute=False, start=0) -> list[int]:
    ids = []
    for i in range(start, start + count):
        body = {"first_name": f"P{i}", "last_name": f"Player{i}", "country": "FI", "substitute": substitute,
                "team": team(i) if team else ""}
        response = post_api(f"/tournaments/{tid}/players", body)
        assert response.status_code == 201, response.get_json()
        pid = response.get_json()["id"]
        assert post_api(f"/tournaments/{tid}/players/{pid}/checkin").status_code == 200
        ids.append(pid)
    return ids


def _score_totals(tid: int, number: int) -> None:
    """Every table scored by its four totals (the paper sheet), as a referee would at the end."""
    from tournament.models import Tournament

    t = db.session.get(Tournament, tid)
    session = play.get_session(t, number)
    for table in play.table_numbers(session):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(t, number, table, dict(zip(ids, [30, 10, -15, -25], strict=True)), None)
    db.session.commit()


def _play(post_api, tid: int, number: int, body: dict) -> list[list[int]]:
    drawn = post_api(f"/tournaments/{tid}/sessions/{number}/draw", body)
    assert drawn.status_code == 201, drawn.get_json()
    assert post_api(f"/tournaments/{tid}/sessions/{number}/start").status_code == 200
    _score_totals(tid, number)
    finished = post_api(f"/tournaments/{tid}/sessions/{number}/finish")
    assert finished.status_code == 200, finished.get_json()
    assert finished.get_json()["status"] == "finished"
    return [[s["player_id"] for s in table["seats"]] for table in drawn.get_json()["tables"]]


def test_draw_separation_on_create(post_api):
    default = post_api("/tournaments", {"name": "A"})
    assert default.get_json()["draw_separation"] == "team"
    club = post_api("/tournaments", {"name": "B", "draw_separation": "club"}).get_json()["draw_separation"]
    assert club == "club"
    none = post_api("/tournaments", {"name": "C", "draw_separation": "none"}).get_json()["draw_separation"]
    assert none == "none"
    bad = post_api("/tournaments", {"name": "D", "draw_separation": "family"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "draw_separation"


def test_finish_refuses_an_incomplete_session_with_its_problems(post_api):
    tid = _tournament(post_api, 2)
    _add(post_api, tid, 8)
    assert post_api(f"/tournaments/{tid}/sessions/1/draw", {"seed": 1}).status_code == 201
    assert post_api(f"/tournaments/{tid}/sessions/1/start").status_code == 200
    refused = post_api(f"/tournaments/{tid}/sessions/1/finish")
    assert refused.status_code == 409
    assert "table 1: nothing entered yet" in refused.get_json()["error"]
    _score_totals(tid, 1)
    assert post_api(f"/tournaments/{tid}/sessions/1/finish").status_code == 200
    assert post_api(f"/tournaments/{tid}/sessions/1/finish").status_code == 200  # again: still 200


def test_weekend_session_by_session_teams_apart_no_repeats_winds_balanced(post_api):
    # issue 25 defects 1 and 2: 32 players in 8 teams of 4, 7 sessions, a new seed for every session
    sessions = 7
    tid = _tournament(post_api, sessions)
    ids = _add(post_api, tid, 32, team=lambda i: f"Team {i // 4}")
    team = {pid: i // 4 for i, pid in enumerate(ids)}
    played = [_play(post_api, tid, k, {"seed": 11 + 97 * k}) for k in range(1, sessions + 1)]
    met = set()
    counts = {pid: [0, 0, 0, 0] for pid in ids}
    for tables in played:
        for table in tables:
            assert len({team[p] for p in table}) == 4, "teammates at one table"
            for pair in combinations(sorted(table), 2):
                assert pair not in met, "a pair met twice"
                met.add(pair)
            for w, p in enumerate(table):
                counts[p][w] += 1
    assert all(1 <= c <= 2 for cs in counts.values() for c in cs)  # floor/ceil of 7/4


def test_withdraw_late_arrival_and_swiss(post_api):
    tid = _tournament(post_api, 4)
    ids = _add(post_api, tid, 16)
    first = _play(post_api, tid, 1, {"seed": 5})
    gone = ids[3]
    withdrawn = post_api(f"/tournaments/{tid}/players/{gone}/withdraw", {"note": "ill"})
    assert withdrawn.status_code == 200 and withdrawn.get_json()["status"] == "withdrawn"
    assert post_api(f"/tournaments/{tid}/players/{gone}/withdraw").status_code == 200  # again: still 200
    late = _add(post_api, tid, 1, start=100)[0]
    second = _play(post_api, tid, 2, {"seed": 6})
    seated = {p for t in second for p in t}
    assert gone not in seated and late in seated and len(seated) == 16
    assert {p for t in first for p in t} - seated == {gone}
    swiss = post_api(f"/tournaments/{tid}/sessions/3/draw", {"seed": 7, "method": "swiss"})
    assert swiss.status_code == 201
    from tournament.models import Tournament
    from tournament.services.seating import draws as draw_service

    ranking = draw_service.swiss_ranking(db.session.get(Tournament, tid), 7)
    tables = [{s["player_id"] for s in t["seats"]} for t in swiss.get_json()["tables"]]
    order = [p for p in ranking if p != gone]
    assert tables[0] == set(order[:4]) and tables[1] == set(order[4:8])


def test_withdraw_replans_sessions_drawn_ahead(post_api, app_ctx):
    from tournament.models import Tournament
    from tournament.services.seating import draws as draw_service

    tid = _tournament(post_api, 4)
    ids = _add(post_api, tid, 16)
    _add(post_api, tid, 1, substitute=True, start=200)
    t = db.session.get(Tournament, tid)
    draw_service.plan_all(t, seed=3)
    db.session.commit()
    response = post_api(f"/tournaments/{tid}/players/{ids[0]}/withdraw")
    assert response.status_code == 200
    for session in draw_service.drawn_sessions(t):
        assert ids[0] not in {seat.player_id for seat in session.seats}
        assert len(session.seats) == 16


def test_withdraw_a_disqualified_player_is_a_conflict_and_a_failed_replan_keeps_the_withdrawal(post_api,
                                                                                                 app_ctx):
    from tournament.models import Tournament
    from tournament.services.people import registration
    from tournament.services.seating import draws as draw_service

    tid = _tournament(post_api, 3)
    ids = _add(post_api, tid, 8)
    t = db.session.get(Tournament, tid)
    draw_service.plan_all(t, seed=1)
    registration.disqualify(registration.get_player(t, ids[7]), "cheating")
    db.session.commit()
    assert post_api(f"/tournaments/{tid}/players/{ids[7]}/withdraw").status_code == 409
    # 7 players left and no substitute: the plan cannot be made again, the withdrawal still stands
    response = post_api(f"/tournaments/{tid}/players/{ids[0]}/withdraw")
    assert response.status_code == 200 and response.get_json()["status"] == "withdrawn"
