"""Issue 33 through the JSON API: "Plan all sessions" as a route, a change of the field mending the sessions
drawn ahead moving as few players as it must (at most 4 a session when a table is lost), the way back for a
no-show (reinstate), Swiss draws that keep teammates apart, ties at a Swiss cut by lot, and `draw_priority`."""

from __future__ import annotations

import pytest

from tests.helpers import Api
from tournament.extensions import db
from tournament.models import DrawAction, Tournament
from tournament.services.people import registration
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service


def _tournament(api: Api, sessions: int = 7, **settings) -> int:
    return api.post("/tournaments", {"name": "Shape Open", "session_count": sessions, **settings},
                    expect=201).get_json()["id"]


def _add(api: Api, tid: int, count: int, *, start: int = 0, substitute: bool = False, team=None,
         check_in: bool = True) -> list[int]:
    ids = []
    for i in range(start, start + count):
        body = {"first_name": f"P{i}", "last_name": f"Shape{i:03d}", "country": "FI", "substitute": substitute,
                "team": team(i) if team else ""}
        pid = api.post(f"/tournaments/{tid}/players", body, expect=201).get_json()["id"]
        if check_in:
            api.post(f"/tournaments/{tid}/players/{pid}/checkin", expect=200)
        ids.append(pid)
    return ids


def _tables(api: Api, tid: int, number: int) -> list[list[int]]:
    session = api.get(f"/tournaments/{tid}/sessions/{number}", expect=200).get_json()
    return [[s["player_id"] for s in t["seats"]] for t in session["tables"]]


def _play(api: Api, tid: int, number: int, scores=(30, 10, -15, -25)) -> None:
    """Start session `number` and score every table by its totals, then finish it."""
    api.post(f"/tournaments/{tid}/sessions/{number}/start", expect=200)
    t = db.session.get(Tournament, tid)
    session = play.get_session(t, number)
    for table in play.table_numbers(session):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(t, number, table, dict(zip(ids, scores, strict=True)), None)
    db.session.commit()
    api.post(f"/tournaments/{tid}/sessions/{number}/finish", expect=200)


def _moved(before: list[list[int]], after: list[list[int]], subs: set[int]) -> list[int]:
    """Regular players seated in both who sit at another table number."""
    was = {p: i for i, t in enumerate(before) for p in t}
    now = {p: i for i, t in enumerate(after) for p in t}
    return sorted(p for p in was.keys() & now.keys() if was[p] != now[p] and p not in subs)


def test_plan_route_plans_every_session_not_started(api, app_ctx):
    tid = _tournament(api, 4)
    ids = _add(api, tid, 16, check_in=False)  # registered, not here yet: a plan seats them
    answer = api.post(f"/tournaments/{tid}/draws/plan", {"seed": 77}, expect=201).get_json()
    assert [s["session"] for s in answer["sessions"]] == [1, 2, 3, 4]
    for planned in answer["sessions"]:
        assert planned["status"] == "draft" and planned["seed"] == 77
        seated = sorted(s["player_id"] for t in planned["tables"] for s in t["seats"])
        assert seated == sorted(ids)
        shown = api.get(f"/tournaments/{tid}/sessions/{planned['session']}", expect=200).get_json()
        assert shown["tables"] == planned["tables"]
    _play(api, tid, 1)
    again = api.post(f"/tournaments/{tid}/draws/plan", expect=201).get_json()  # no seed: a random one
    assert [s["session"] for s in again["sessions"]] == [2, 3, 4]  # the session in play is kept
    bad = api.post(f"/tournaments/{tid}/draws/plan", {"seed": "seven"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "seed"


def test_a_withdrawal_that_loses_a_table_moves_at_most_four_players_a_session(api, app_ctx):
    # the weekend: 41 players and 3 substitutes (11 tables), one withdrawal after session 2: 10 tables
    tid = _tournament(api, 7)
    ids = _add(api, tid, 41)
    subs = set(_add(api, tid, 3, start=900, substitute=True))
    api.post(f"/tournaments/{tid}/draws/plan", {"seed": 2026}, expect=201)
    _play(api, tid, 1)
    _play(api, tid, 2)
    before = {n: _tables(api, tid, n) for n in range(3, 8)}
    gone = ids[7]
    api.post(f"/tournaments/{tid}/players/{gone}/withdraw", {"note": "ill"}, expect=200)
    t = db.session.get(Tournament, tid)
    events = [e for e in draw_service.draw_events(t) if e.action == DrawAction.MENDED]
    assert [e.session_number for e in events] == [3, 4, 5, 6, 7]
    for n in range(3, 8):
        after = _tables(api, tid, n)
        assert len(after) == 10 and sorted(p for x in after for p in x) == sorted(set(ids) - {gone})
        moved = _moved(before[n], after, subs)
        assert len(moved) <= 4, (n, moved)
        names = {p.id: p.full_name for p in registration.players_of(t)}
        detail = next(e.detail for e in events if e.session_number == n)
        assert all(names[p] in detail for p in moved)  # the history names who changes table


def test_a_withdrawal_that_keeps_the_table_count_moves_nobody_else(api, app_ctx):
    tid = _tournament(api, 5)
    ids = _add(api, tid, 40)
    subs = set(_add(api, tid, 3, start=900, substitute=True))
    api.post(f"/tournaments/{tid}/draws/plan", {"seed": 5}, expect=201)
    _play(api, tid, 1)
    before = {n: _tables(api, tid, n) for n in range(2, 6)}
    api.post(f"/tournaments/{tid}/players/{ids[0]}/withdraw", expect=200)
    for n in range(2, 6):
        after = _tables(api, tid, n)
        assert ids[0] not in {p for x in after for p in x} and len(subs & {p for x in after for p in x}) == 1
        assert _moved(before[n], after, subs) == []


def test_a_late_registration_and_check_in_are_seated_in_the_sessions_ahead(api, app_ctx):
    tid = _tournament(api, 5)
    ids = _add(api, tid, 40)
    subs = set(_add(api, tid, 3, start=900, substitute=True))
    api.post(f"/tournaments/{tid}/draws/plan", {"seed": 9}, expect=201)
    before = {n: _tables(api, tid, n) for n in range(1, 6)}
    (late,) = _add(api, tid, 1, start=500, check_in=False)  # a new registration: the plan seats it
    for n in range(1, 6):
        after = _tables(api, tid, n)
        seated = {p for x in after for p in x}
        assert late in seated and set(ids) <= seated and len(after) == 11  # a table opened with substitutes
        assert len(_moved(before[n], after, subs)) <= 3


def test_reinstate_brings_a_no_show_back(api, app_ctx):
    tid = _tournament(api, 4)
    ids = _add(api, tid, 16)
    subs = set(_add(api, tid, 1, start=900, substitute=True))
    api.post(f"/tournaments/{tid}/draws/plan", {"seed": 3}, expect=201)
    planned = {n: _tables(api, tid, n) for n in range(1, 5)}
    no_show = ids[4]
    api.post(f"/tournaments/{tid}/players/{no_show}/withdraw", expect=200)
    refused = api.post(f"/tournaments/{tid}/players/{no_show}/checkin")
    assert refused.status_code == 400 and "/reinstate" in refused.get_json()["error"]
    back = api.post(f"/tournaments/{tid}/players/{no_show}/reinstate", expect=200).get_json()
    assert back["id"] == no_show and back["status"] == "registered"
    assert api.post(f"/tournaments/{tid}/players/{no_show}/reinstate", expect=200).get_json()["status"] == \
        "registered"  # again: still 200
    api.post(f"/tournaments/{tid}/players/{no_show}/checkin", expect=200)
    for n in range(1, 5):
        after = _tables(api, tid, n)
        assert no_show in {p for x in after for p in x} and not subs & {p for x in after for p in x}
        assert _moved(planned[n], after, subs) == []  # back at the seats the substitute kept for them
    api.post(f"/tournaments/{tid}/players/{ids[5]}/disqualify", {"reason": "cheating"}, expect=200)
    conflict = api.post(f"/tournaments/{tid}/players/{ids[5]}/reinstate")
    assert conflict.status_code == 409
    assert api.post(f"/tournaments/{tid}/players/99999/reinstate").status_code == 404


def test_draw_priority_on_create(api, app_ctx):
    assert api.post("/tournaments", {"name": "A"}, expect=201).get_json()["draw_priority"] == "repeats_first"
    teams = api.post("/tournaments", {"name": "B", "draw_priority": "teams_first"}, expect=201).get_json()
    assert teams["draw_priority"] == "teams_first"
    bad = api.post("/tournaments", {"name": "C", "draw_priority": "friends_first"})
    assert bad.status_code == 400 and bad.get_json()["field"] == "draw_priority"


@pytest.mark.slow
def test_teams_first_seats_no_teammates_over_seven_sessions_drawn_one_at_a_time(api, app_ctx):
    tid = _tournament(api, 7, draw_priority="teams_first")
    _add(api, tid, 24, team=lambda i: f"Team {i // 4}")
    team = {p.id: p.team for p in registration.players_of(db.session.get(Tournament, tid))}
    for n in range(1, 8):
        drawn = api.post(f"/tournaments/{tid}/sessions/{n}/draw", {"seed": 300 + n}, expect=201).get_json()
        assert drawn["quality"]["teammate_tables"] == []
        for table in drawn["tables"]:
            assert len({team[s["player_id"]] for s in table["seats"]}) == 4
        _play(api, tid, n)


def test_swiss_keep_apart_seats_no_teammates_when_a_team_tops_the_standings(api, app_ctx):
    tid = _tournament(api, 4)
    ids = _add(api, tid, 24, team=lambda i: f"Team {i // 4}")
    top = set(ids[:4])  # Team 0
    for n in (1, 2):
        api.post(f"/tournaments/{tid}/sessions/{n}/draw", {"seed": 60 + n}, expect=201)
        api.post(f"/tournaments/{tid}/sessions/{n}/start", expect=200)
        t = db.session.get(Tournament, tid)
        session = play.get_session(t, n)
        for table in play.table_numbers(session):
            seated = [sp.player_id for sp in play.table_players(session, table)]
            # Team 0 wins every table it sits at; the others share what is left
            order = sorted(seated, key=lambda p: (p not in top, p))
            scoring.enter_totals(t, n, table, dict(zip(order, (60, 10, -30, -40), strict=True)), None)
        db.session.commit()
        api.post(f"/tournaments/{tid}/sessions/{n}/finish", expect=200)
    t = db.session.get(Tournament, tid)
    ranking = draw_service.swiss_ranking(t, 7)
    assert set(ranking[:4]) == top
    strict = api.post(f"/tournaments/{tid}/sessions/3/draw", {"seed": 7, "method": "swiss"}, expect=201).get_json()
    assert {s["player_id"] for s in strict["tables"][0]["seats"]} == top  # a final: the top four together
    assert strict["quality"]["teammate_tables"]
    # drawn again (the last session, not in play) keeping apart
    db.session.delete(play.get_session(t, 3))
    db.session.commit()
    apart = api.post(f"/tournaments/{tid}/sessions/3/draw", {"seed": 7, "method": "swiss", "keep_apart": True},
                     expect=201).get_json()
    assert apart["quality"]["teammate_tables"] == []
    team = {p.id: p.team for p in registration.players_of(t)}
    for table in apart["tables"]:
        assert len({team[s["player_id"]] for s in table["seats"]}) == 4
    assert top & {s["player_id"] for s in apart["tables"][0]["seats"]}  # table 1 is still the top table
    assert api.post(f"/tournaments/{tid}/sessions/4/draw", {"method": "swiss", "keep_apart": "yes"}).status_code \
        == 422


def test_the_quality_replan_says_first_whom_it_moves(api, app_ctx):
    tid = _tournament(api, 7)
    ids = _add(api, tid, 41)
    _add(api, tid, 3, start=900, substitute=True)
    api.post(f"/tournaments/{tid}/draws/plan", {"seed": 12}, expect=201)
    _play(api, tid, 1)
    api.post(f"/tournaments/{tid}/players/{ids[2]}/withdraw", expect=200)
    mended = {n: _tables(api, tid, n) for n in range(2, 8)}
    preview = api.post(f"/tournaments/{tid}/draws/replan", expect=200).get_json()
    assert preview["applied"] is False and [s["session"] for s in preview["sessions"]] == list(range(2, 8))
    assert {n: _tables(api, tid, n) for n in range(2, 8)} == mended  # a preview changes nothing
    assert preview["moved"] == len({p for s in preview["sessions"] for p in s["moved"]})
    stale = api.post(f"/tournaments/{tid}/draws/replan", {"apply": True, "expected_moved": preview["moved"] + 1})
    assert stale.status_code == 409
    done = api.post(f"/tournaments/{tid}/draws/replan", {"apply": True, "expected_moved": preview["moved"]},
                    expect=200).get_json()
    assert done["applied"] is True and done["moved"] == preview["moved"]
    for s in done["sessions"]:
        assert _moved(mended[s["session"]], _tables(api, tid, s["session"]), set()) == s["moved"]
