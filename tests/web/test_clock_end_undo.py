"""End on the staff clock page and through the API (issue 21 item 3): End asks for a confirmation, limits the
hands that may follow under finish_hand, and can be undone, on the page (with its own confirmation) and with
POST .../clock/end/undo."""

from __future__ import annotations

import re

from tests.helpers import csrf_token
from tournament.services.play import clock


def staff_url(t, path: str = "") -> str:
    return f"/manage/tournaments/{t.id}/play/1{path}"


def test_end_and_its_undo_on_the_staff_page(client, auth, staffed_table):
    t, _, organiser, referee = staffed_table
    clock.start(t, 1, organiser)
    auth.login(referee)
    page = client.get(staff_url(t, "/clock")).get_data(as_text=True)
    end_form = re.search(r'<form[^>]*action="[^"]*/clock/end"[^>]*>', page).group(0)
    assert "data-confirm=" in end_form
    assert "Undo End" not in page
    token = csrf_token(client, staff_url(t, "/clock"))
    page = client.post(staff_url(t, "/clock/end"), data={"csrf_token": token},
                       follow_redirects=True).get_data(as_text=True)
    assert "Time was called for everyone." in page
    undo_form = re.search(r'<form[^>]*action="[^"]*/clock/end/undo"[^>]*>', page).group(0)
    assert "data-confirm=" in undo_form
    assert "by End, during hand 1" in page  # each table's limit, shown where a referee can correct it
    assert "Give extra time" not in page
    # The hand after the one in progress is refused on the hand form.
    hand_form = client.get(staff_url(t, "/tables/1/hands/new?hand=2")).get_data(as_text=True)
    assert "Time was called for everyone during hand 1 at table 1: hand 2 was not played" in hand_form

    page = client.post(staff_url(t, "/clock/end/undo"), data={"csrf_token": token},
                       follow_redirects=True).get_data(as_text=True)
    assert "End was undone" in page
    assert clock.session_clock(t, 1).state == "running"
    assert "Undo End" not in page and "Give extra time" in page
    assert "End undone" in page  # the history keeps both
    hand_form = client.get(staff_url(t, "/tables/1/hands/new?hand=2")).get_data(as_text=True)
    assert "was not played" not in hand_form
    # Nothing to undo now: a refusal, not an error page.
    page = client.post(staff_url(t, "/clock/end/undo"), data={"csrf_token": token},
                       follow_redirects=True).get_data(as_text=True)
    assert "there is no End to undo" in page


def test_undo_end_through_the_api(api, staffed_table):
    t, _, organiser, _ = staffed_table
    base = f"/tournaments/{t.id}/sessions/1/clock"
    assert api.post(base + "/start").status_code == 200
    ended = api.post(base + "/end").get_json()
    assert ended["state"] == "ended"
    assert [(row["time_called"], row["hand_in_progress"]) for row in ended["tables"]] == [(True, 1), (True, 1)]
    undone = api.post(base + "/end/undo")
    assert undone.status_code == 200, undone.get_json()
    body = undone.get_json()
    assert body["state"] == "running" and not any(row["time_called"] for row in body["tables"])
    again = api.post(base + "/end/undo")
    assert again.status_code == 409 and "no End to undo" in again.get_json()["error"]
