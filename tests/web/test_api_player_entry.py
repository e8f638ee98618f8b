"""Players at the table with their own phones (issue 23), through the JSON API as its contract gives it: private
links, the players' entry mode, confirmation by all four, disputes to the referees, and the standings counting a
players' entry only once it is confirmed."""

from __future__ import annotations

from tests.helpers import VALID_22, Api, assert_error

BIG = "111222333m444p55p"  # Four Concealed Pungs ... : far more than VALID_22


def own(client, token: str, method: str, path: str = "", body=None, **kwargs):
    """A player's own route: no Authorization header, the token in the path."""
    return client.open(f"/api/v1/p/{token}{path}", method=method, json=body, **kwargs)


def win(number: int, winner: int, discarder: int | None, hand: str = VALID_22) -> dict:
    return {"number": number, "result": "win", "winner_id": winner, "discarder_id": discarder, "hand": hand}


def standings_score(api: Api, tid: int) -> dict[int, int]:
    rows = api.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]
    return {row["player_id"]: row["score"] for row in rows}


# ----------------------------------------------------------------------------- links


def test_the_tournament_takes_and_gives_its_entry_mode(api, phones_tournament):
    tid, *_ = phones_tournament(None)
    assert api.get(f"/tournaments/{tid}", expect=200).get_json()["entry_mode"] == "referee"
    tid, *_ = phones_tournament("players")
    assert api.get(f"/tournaments/{tid}", expect=200).get_json()["entry_mode"] == "players"
    assert_error(api.post("/tournaments", {"name": "Odd", "entry_mode": "everyone"}), 422, "entry_mode")


def test_a_link_opens_the_players_page_and_a_renewed_one_answers_404_everywhere(api, client,
                                                                                 phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    east = seats[0]
    link = api.get(f"/tournaments/{tid}/players/{east}/link", expect=200).get_json()
    assert set(link) == {"token", "url"} and link["token"] in link["url"]
    assert len(link["token"]) >= 22  # 128 bits at least in URL-safe base64 (ours: 256 bits, 43 characters)
    assert api.get(f"/tournaments/{tid}/players/{east}/link", expect=200).get_json() == link  # stable
    me = own(client, link["token"], "GET").get_json()["player"]
    page = client.get(link["url"].split("localhost", 1)[1])  # no login: the link alone opens it
    assert page.status_code == 200 and f'{me["first_name"]} {me["last_name"]}' in page.get_data(as_text=True)
    assert page.headers["Cache-Control"] == "private, no-store" and page.headers["Referrer-Policy"] == "no-referrer"

    renewed = api.post(f"/tournaments/{tid}/players/{east}/link", {}, expect=200).get_json()
    assert renewed["token"] != link["token"]
    old = link["token"]
    for method, path, body in (("GET", "", None), ("POST", "/hands", win(1, east, seats[1])),
                               ("POST", "/tables/1/hands/1/confirm", {}),
                               ("POST", "/tables/1/hands/1/dispute", {"reason": "wrong"})):
        assert_error(own(client, old, method, path, body), 404)
    assert own(client, renewed["token"], "GET").status_code == 200
    assert_error(own(client, "x" * 43, "GET"), 404)
    assert_error(own(client, "short", "GET"), 404)


def test_links_are_staff_only(api, client, phones_tournament, referee):
    tid, seats, _, tokens = phones_tournament()
    from tests.helpers import token_for

    outsider = Api(client, token_for(referee))  # an account not on this tournament's staff
    assert_error(outsider.get(f"/tournaments/{tid}/players/{seats[0]}/link"), 403)
    assert_error(client.get(f"/api/v1/tournaments/{tid}/players/{seats[0]}/link"), 401)
    assert_error(api.get(f"/tournaments/{tid}/players/999999/link"), 404)


def test_the_players_view_shows_their_session_table_and_hands(api, client, phones_tournament):
    tid, seats, other, tokens = phones_tournament()
    view = own(client, tokens[seats[2]], "GET").get_json()
    assert set(view) >= {"player", "tournament", "session", "table", "hands"}
    assert view["player"]["id"] == seats[2] and view["session"] == 1 and view["table"] == 1
    assert view["tournament"]["id"] == tid and view["tournament"]["entry_mode"] == "players"
    assert view["hands"] == [] and view["seat_wind"] == "W"
    assert own(client, tokens[other[0]], "GET").get_json()["table"] == 2


# ----------------------------------------------------------------------------- entry and confirmation


def test_one_enters_three_confirm_and_only_then_the_hand_counts(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    east, south, west, north = seats
    entered = own(client, tokens[east], "POST", "/hands", win(1, east, south))
    assert entered.status_code == 201, entered.get_json()
    hand = entered.get_json()
    assert hand["status"] == "pending" and hand["confirmed_by"] == [east] and hand["fan_points"] == 22
    assert standings_score(api, tid).get(east, 0) == 0  # a players' entry counts once confirmed

    for n, player in enumerate((south, west), start=2):
        answer = own(client, tokens[player], "POST", "/tables/1/hands/1/confirm", {})
        assert answer.status_code == 200 and len(answer.get_json()["confirmed_by"]) == n
        assert answer.get_json()["status"] == "pending"
    again = own(client, tokens[west], "POST", "/tables/1/hands/1/confirm", {})
    assert again.status_code == 200 and len(again.get_json()["confirmed_by"]) == 3  # confirming twice: once
    last = own(client, tokens[north], "POST", "/tables/1/hands/1/confirm", {}).get_json()
    assert last["status"] == "confirmed" and sorted(last["confirmed_by"]) == sorted(seats)
    assert standings_score(api, tid)[east] == 46 and standings_score(api, tid)[south] == -30
    listed = api.get(f"/tournaments/{tid}/sessions/1/tables/1/hands", expect=200).get_json()["hands"]
    assert listed[0]["status"] == "confirmed"


def test_the_engine_checks_a_players_entry_as_a_referees(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    refused = own(client, tokens[seats[0]], "POST", "/hands",
                  win(1, seats[0], seats[1], "[234m][456p][678s]22s23s4s"))
    assert_error(refused, 422)
    assert api.get(f"/tournaments/{tid}/sessions/1/tables/1/hands", expect=200).get_json()["hands"] == []


def test_players_may_not_enter_in_a_referee_tournament_but_may_confirm(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament("referee")
    assert_error(own(client, tokens[seats[0]], "POST", "/hands", win(1, seats[0], seats[1])), 403)
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands", win(1, seats[0], seats[1]), expect=201)
    assert standings_score(api, tid)[seats[0]] == 46  # staff entries count at once
    answer = own(client, tokens[seats[3]], "POST", "/tables/1/hands/1/confirm", {}).get_json()
    assert answer["confirmed_by"] == [seats[3]] and answer["status"] == "pending"


def test_a_player_cannot_confirm_or_dispute_another_tables_hand(api, client, phones_tournament):
    tid, seats, other, tokens = phones_tournament()
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands", win(1, seats[0], seats[1]), expect=201)
    assert_error(own(client, tokens[other[0]], "POST", "/tables/1/hands/1/confirm", {}), 403)
    assert_error(own(client, tokens[other[0]], "POST", "/tables/1/hands/1/dispute", {"reason": "no"}), 403)
    assert_error(own(client, tokens[seats[0]], "POST", "/tables/1/hands/9/confirm", {}), 404)


def test_a_staff_correction_is_the_referees_word_in_the_players_mode(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    own(client, tokens[seats[0]], "POST", "/hands", win(1, seats[0], seats[1]))
    for player in seats[1:]:
        own(client, tokens[player], "POST", "/tables/1/hands/1/confirm", {})
    corrected = api.put(f"/tournaments/{tid}/sessions/1/tables/1/hands/1", win(1, seats[0], None), expect=200)
    # The earlier confirmations were of another hand; the correction is confirmed by the referee (issue 32).
    assert corrected.get_json()["confirmed_by"] == [] and corrected.get_json()["status"] == "confirmed"
    # Staff corrected it: it counts at once (self-drawn, Fully Concealed: 24 points, 32 from each).
    assert standings_score(api, tid)[seats[0]] == 96
    view = own(client, tokens[seats[2]], "GET").get_json()
    assert [h["status"] for h in view["hands"]] == ["confirmed"]
    # A hand staff enter in the players' mode is the referee's word as well.
    entered = api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands", win(2, seats[1], seats[0]), expect=201)
    assert entered.get_json()["status"] == "confirmed"


def test_in_the_referee_mode_a_correction_starts_confirmation_afresh(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament("referee")
    api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands", win(1, seats[0], seats[1]), expect=201)
    for player in seats:
        own(client, tokens[player], "POST", "/tables/1/hands/1/confirm", {})
    corrected = api.put(f"/tournaments/{tid}/sessions/1/tables/1/hands/1", win(1, seats[0], None), expect=200)
    assert corrected.get_json()["confirmed_by"] == [] and corrected.get_json()["status"] == "pending"
    assert standings_score(api, tid)[seats[0]] == 96


# ----------------------------------------------------------------------------- disputes


def test_a_dispute_goes_to_the_referees_queue_until_a_correction_or_stands(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    east, south, west, north = seats
    own(client, tokens[east], "POST", "/hands", win(1, east, south))
    assert_error(own(client, tokens[west], "POST", "/tables/1/hands/1/dispute", {"reason": "  "}), 400, "reason")
    disputed = own(client, tokens[west], "POST", "/tables/1/hands/1/dispute", {"reason": "South did not discard it"})
    assert disputed.status_code == 200 and disputed.get_json()["status"] == "disputed"
    queue = api.get(f"/tournaments/{tid}/sessions/1/disputes", expect=200).get_json()["disputes"]
    assert [(d["table"], d["hand"], d["player_id"], d["reason"]) for d in queue] == \
        [(1, 1, west, "South did not discard it")]
    # Finishing the session waits for it.
    assert api.post(f"/tournaments/{tid}/sessions/1/finish", {}).status_code == 409

    stands = api.post(f"/tournaments/{tid}/sessions/1/tables/1/hands/1/stands", {}, expect=200).get_json()
    assert stands["status"] == "confirmed"
    assert api.get(f"/tournaments/{tid}/sessions/1/disputes", expect=200).get_json()["disputes"] == []
    assert standings_score(api, tid)[east] == 46

    own(client, tokens[south], "POST", "/tables/1/hands/1/dispute", {"reason": "It was self-drawn"})
    assert len(api.get(f"/tournaments/{tid}/sessions/1/disputes", expect=200).get_json()["disputes"]) == 1
    api.put(f"/tournaments/{tid}/sessions/1/tables/1/hands/1", win(1, east, None), expect=200)
    assert api.get(f"/tournaments/{tid}/sessions/1/disputes", expect=200).get_json()["disputes"] == []


def test_a_disputed_players_entry_stops_counting(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    own(client, tokens[seats[0]], "POST", "/hands", win(1, seats[0], seats[1]))
    for player in seats[1:]:
        own(client, tokens[player], "POST", "/tables/1/hands/1/confirm", {})
    assert standings_score(api, tid)[seats[0]] == 46
    own(client, tokens[seats[1]], "POST", "/tables/1/hands/1/dispute", {"reason": "Wrong tiles"})
    assert standings_score(api, tid).get(seats[0], 0) == 0


# ----------------------------------------------------------------------------- the network fails


def test_a_hand_sent_twice_with_its_idempotency_key_is_stored_once(api, client, phones_tournament):
    tid, seats, _, tokens = phones_tournament()
    headers = {"Idempotency-Key": "offline-queue-1"}
    first = own(client, tokens[seats[0]], "POST", "/hands", win(1, seats[0], seats[1]), headers=headers)
    again = own(client, tokens[seats[0]], "POST", "/hands", win(1, seats[0], seats[1]), headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.headers.get("Idempotent-Replayed") == "true" and again.get_json()["id"] == first.get_json()["id"]
    assert len(api.get(f"/tournaments/{tid}/sessions/1/tables/1/hands", expect=200).get_json()["hands"]) == 1
    # The same key on another player's link is that player's own key: no replay across players.
    other = own(client, tokens[seats[1]], "POST", "/hands", win(2, seats[1], seats[0]), headers=headers)
    assert other.status_code == 201 and other.get_json()["number"] == 2


def test_guessing_tokens_meets_the_links_limit_and_a_valid_token_still_opens(api, client, phones_tournament, app):
    _, seats, _, tokens = phones_tournament()
    app.config["PLAYER_LINK_FAILURES_PER_ADDRESS"] = 5
    answers = [own(client, f"{i:043d}", "GET") for i in range(7)]
    assert [a.status_code for a in answers] == [404] * 5 + [429, 429]
    assert int(answers[-1].headers["Retry-After"]) > 0
    assert "Too many unknown links from your network address" in answers[-1].get_json()["error"]
    assert own(client, tokens[seats[0]], "GET").status_code == 200
