"""The clock's JSON API contract (issue 11): the clock's keys and types, the buttons and their 409s, extra
time, time called at a table and its effect on hand entry under both end rules, public reading."""

from __future__ import annotations

from datetime import datetime

from tests.helpers import Api, add_players, make_user, token_for
from tournament.extensions import db
from tournament.models import ClockEvent
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service

CLOCK_KEYS = {"state", "duration_seconds", "remaining_seconds", "ends_at", "warning", "server_time", "tables"}
TABLE_KEYS = {"table", "extra_seconds", "remaining_seconds", "time_called", "hand_in_progress"}


def assert_error(response, status: int, field: str | None = None) -> dict:
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert set(body) <= {"error", "field"} and isinstance(body["error"], str) and body["error"], body
    if field is not None:
        assert body.get("field") == field, body
    return body


def assert_clock(body: dict, tables: int) -> None:
    assert set(body) == CLOCK_KEYS
    assert body["state"] in ("not_started", "running", "paused", "ended")
    assert isinstance(body["remaining_seconds"], int) and body["remaining_seconds"] >= 0
    assert isinstance(body["warning"], bool)
    server_time = datetime.fromisoformat(body["server_time"])
    assert server_time.utcoffset() is not None and server_time.utcoffset().total_seconds() == 0
    if body["state"] == "running":
        assert datetime.fromisoformat(body["ends_at"]).utcoffset().total_seconds() == 0
    else:
        assert body["ends_at"] is None
    assert len(body["tables"]) == tables
    for row in body["tables"]:
        assert set(row) == TABLE_KEYS
        assert isinstance(row["time_called"], bool) and isinstance(row["remaining_seconds"], int)


def url(t, path: str) -> str:
    return f"/tournaments/{t.id}/sessions/1{path}"


def test_clock_buttons_and_their_refusals(clock_api_setup):
    t, api = clock_api_setup
    ref = api["referee"]
    body = ref.get(url(t, "/clock")).get_json()
    assert_clock(body, 2)
    assert (body["state"], body["duration_seconds"], body["remaining_seconds"]) == ("not_started", 5400, 5400)
    assert_error(ref.post(url(t, "/clock/pause")), 409)
    assert_error(ref.post(url(t, "/clock/resume")), 409)
    assert_error(ref.post(url(t, "/clock/end")), 409)

    response = ref.post(url(t, "/clock/start"))
    assert response.status_code == 200
    body = response.get_json()
    assert_clock(body, 2)
    assert body["state"] == "running" and 5399 <= body["remaining_seconds"] <= 5400 and not body["warning"]
    ends = datetime.fromisoformat(body["ends_at"]) - datetime.fromisoformat(body["server_time"])
    assert abs(ends.total_seconds() - 5400) < 2
    assert_error(ref.post(url(t, "/clock/start")), 409)
    assert_error(ref.post(url(t, "/clock/resume")), 409)

    body = ref.post(url(t, "/clock/pause")).get_json()
    assert body["state"] == "paused" and body["ends_at"] is None
    assert_error(ref.post(url(t, "/clock/pause")), 409)
    assert ref.post(url(t, "/clock/resume")).get_json()["state"] == "running"
    body = api["organiser"].post(url(t, "/clock/end")).get_json()
    assert_clock(body, 2)
    assert (body["state"], body["remaining_seconds"], body["ends_at"]) == ("ended", 0, None)
    assert all(row["remaining_seconds"] == 0 for row in body["tables"])
    assert_error(ref.post(url(t, "/clock/end")), 409)
    assert_error(ref.post(url(t, "/clock/extend"), {"seconds": 60}), 409)


def test_extra_time_adds_up_per_table(clock_api_setup):
    t, api = clock_api_setup
    ref = api["referee"]
    ref.post(url(t, "/clock/start"))
    body = ref.post(url(t, "/clock/extend"), {"seconds": 300, "table": 2}).get_json()
    assert [(r["table"], r["extra_seconds"]) for r in body["tables"]] == [(1, 0), (2, 300)]
    body = ref.post(url(t, "/clock/extend"), {"seconds": 60}).get_json()  # every table
    assert [(r["table"], r["extra_seconds"]) for r in body["tables"]] == [(1, 60), (2, 360)]
    table2 = body["tables"][1]["remaining_seconds"]
    assert 360 <= table2 - body["remaining_seconds"] <= 361
    for bad, field in (({"seconds": 0}, "seconds"), ({"seconds": 3601}, "seconds"), ({"seconds": "60"}, "seconds"),
                       ({}, "seconds"), ({"seconds": 60, "table": "2"}, "table"), ({"seconds": True}, "seconds")):
        assert_error(ref.post(url(t, "/clock/extend"), bad), 422, field)
    assert_error(ref.post(url(t, "/clock/extend"), {"seconds": 60, "table": 9}), 404)


def test_time_called_refuses_later_hands_finish_hand(clock_api_setup):
    t, api = clock_api_setup
    ref = api["referee"]
    hands = url(t, "/tables/1/hands")
    for n in (1, 2):
        assert ref.post(hands, {"number": n, "result": "draw"}).status_code == 201
    body = ref.post(url(t, "/tables/1/time"), {"hand_in_progress": 3}).get_json()
    assert_clock(body, 2)
    assert body["tables"][0] == {"table": 1, "extra_seconds": 0, "remaining_seconds": 5400, "time_called": True,
                                 "hand_in_progress": 3}
    assert body["tables"][1]["time_called"] is False and body["tables"][1]["hand_in_progress"] is None
    assert ref.post(hands, {"number": 3, "result": "draw"}).status_code == 201  # the hand in progress counts
    error = assert_error(ref.post(hands, {"number": 4, "result": "draw"}), 409)
    assert "time was called" in error["error"].lower()
    assert_error(ref.post(url(t, "/tables/1/time"), {"hand_in_progress": 4}), 409)  # already called
    # Only organisers undo a time call; then play goes on.
    assert_error(ref.post(url(t, "/tables/1/time/undo")), 403)
    body = api["organiser"].post(url(t, "/tables/1/time/undo")).get_json()
    assert body["tables"][0]["time_called"] is False
    assert ref.post(hands, {"number": 4, "result": "draw"}).status_code == 201


def test_time_called_with_no_hand_in_progress(clock_api_setup):
    t, api = clock_api_setup
    ref = api["referee"]
    hands = url(t, "/tables/2/hands")
    assert ref.post(hands, {"number": 1, "result": "draw"}).status_code == 201
    body = ref.post(url(t, "/tables/2/time"), {"hand_in_progress": None, "last_hand_played": 1}).get_json()
    assert body["tables"][1]["time_called"] is True and body["tables"][1]["hand_in_progress"] is None
    assert "time was called" in assert_error(ref.post(hands, {"number": 2, "result": "draw"}), 409)["error"].lower()
    assert_error(ref.post(url(t, "/tables/1/time"), {}), 422, "hand_in_progress")
    assert_error(ref.post(url(t, "/tables/1/time"), {"hand_in_progress": 17}), 422, "hand_in_progress")
    assert_error(ref.post(url(t, "/tables/1/time"), {"hand_in_progress": "3"}), 422, "hand_in_progress")
    assert_error(ref.post(url(t, "/tables/9/time"), {"hand_in_progress": 3}), 404)
    assert_error(ref.post(url(t, f"/tables/{2**31}/time"), {"hand_in_progress": 3}), 404)


def test_stop_immediately_stores_the_hand_in_progress_with_zero_payments(clock_api_setup):
    t, api = clock_api_setup
    t.end_rule = "stop_immediately"
    db.session.commit()
    ref = api["referee"]
    hands = url(t, "/tables/1/hands")
    assert ref.post(hands, {"number": 1, "result": "draw"}).status_code == 201
    assert ref.post(url(t, "/tables/1/time"), {"hand_in_progress": 2}).status_code == 200
    listed = ref.get(hands).get_json()["hands"]
    assert [(h["number"], h["result"]) for h in listed] == [(1, "draw"), (2, "not_scored")]
    assert set(listed[1]["payments"].values()) == {0} and len(listed[1]["payments"]) == 4
    assert "time was called" in assert_error(ref.post(hands, {"number": 3, "result": "draw"}), 409)["error"].lower()


def test_who_may_read_and_press(clock_api_setup, client):
    t, api = clock_api_setup
    # Published: anyone reads the clock, no token needed; a bad token is still a 401.
    assert api["public"].get(url(t, "/clock")).status_code == 200
    assert api["outsider"].get(url(t, "/clock")).status_code == 200
    assert_error(client.get(f"/api/v1{url(t, '/clock')}", headers={"Authorization": "Bearer nope"}), 401)
    # Pressing needs a token of the tournament's staff.
    assert_error(api["public"].post(url(t, "/clock/start")), 401)
    assert_error(api["outsider"].post(url(t, "/clock/start")), 403)
    assert_error(api["outsider"].post(url(t, "/tables/1/time"), {"hand_in_progress": 1}), 403)
    assert_error(api["public"].get(url(t, "/board")), 401)
    board = api["referee"].get(url(t, "/board")).get_json()
    assert set(board) == {"clock", "tables"} and len(board["tables"]) == 2
    assert_error(api["referee"].get(f"/tournaments/{t.id}/sessions/9/clock"), 404)
    assert_error(api["public"].get("/tournaments/99999/sessions/1/clock"), 404)


def test_a_draft_sessions_clock_is_for_its_staff(client, organiser, tournament):
    add_players(tournament, 4)
    draw_service.draw_next(tournament, seed=1)
    db.session.commit()
    path = f"/tournaments/{tournament.id}/sessions/1/clock"
    assert_error(Api(client, None).get(path), 401)
    outsider = make_user("out@example.org", "organiser")
    assert_error(Api(client, token_for(outsider)).get(path), 403)
    staff = Api(client, token_for(organiser))
    assert staff.get(path).get_json()["state"] == "not_started"
    # The clock runs only for a session in play (issue 22): starting play is the organiser's own act.
    assert_error(staff.post(f"/tournaments/{tournament.id}/sessions/1/clock/start"), 409)
    assert staff.post(f"/tournaments/{tournament.id}/sessions/1/start").status_code == 200
    assert staff.post(f"/tournaments/{tournament.id}/sessions/1/clock/start").status_code == 200
    assert Api(client, None).get(path).get_json()["state"] == "running"


def test_openapi_documents_the_clock(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    paths = spec["paths"]
    assert "/api/v1/tournaments/{tournament_id}/sessions/{number}/clock" in paths
    assert "/api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/time" in paths


def test_no_clock_action_on_a_draft_session(client, organiser, session_two_draft):
    """Issue 31: a referee gave a draft session's clock extra time. Every action is a 409 saying the session is
    not in play, and nothing is stored; the session in play keeps its clock."""
    t, referee = session_two_draft
    actions = [("/clock/start", {}), ("/clock/pause", {}), ("/clock/resume", {}), ("/clock/end", {}),
               ("/clock/end/undo", {}), ("/clock/extend", {"seconds": 300}), ("/clock/extend", {"seconds": 60, "table": 1}),
               ("/tables/1/time", {"hand_in_progress": 2})]
    for who, allowed in ((Api(client, token_for(referee)), actions),
                         (Api(client, token_for(organiser)), [*actions, ("/tables/1/time/undo", {})])):
        for path, body in allowed:
            error = assert_error(who.post(f"/tournaments/{t.id}/sessions/2{path}", body), 409)
            assert "Session 2 is draft, not in play" in error["error"], (path, error)
    db.session.expire_all()
    assert db.session.query(ClockEvent).filter_by(session_id=play.get_session(t, 2).id).count() == 0
    assert Api(client, token_for(referee)).get(f"/tournaments/{t.id}/sessions/2/clock").get_json()["tables"][0][
        "extra_seconds"] == 0
    assert Api(client, token_for(referee)).post(f"/tournaments/{t.id}/sessions/1/clock/extend",
                                                 {"seconds": 60}).status_code == 200
