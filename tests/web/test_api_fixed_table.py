"""Issue 25, fixed tables for access needs through the JSON API: read in every player's JSON (`fixed_table`, null
when none), set when registering (POST .../players) or later (POST .../players/{id}/fixed-table), refused
with a 400 naming the field beyond the tournament's tables or on a table another player keeps, a 422 for a
wrong type; documented in /api/v1/openapi.json; the next draw seats the player there."""

from tests.helpers import add_players, assert_error
from tournament.extensions import db
from tournament.services.people import registration

# The player JSON's keys before fixed tables: kept exactly, `fixed_table` added.
OLD_KEYS = {"id", "first_name", "last_name", "country", "ema_number", "club", "team", "substitute", "status",
            "left_out_of_ema"}


def players_url(t, suffix=""):
    return f"/tournaments/{t.id}/players{suffix}"


def new_player(**extra):
    return {"first_name": "Aino", "last_name": "Virtanen", "country": "FI", **extra}


def test_registering_with_a_fixed_table_and_reading_it_back(api, tournament):
    add_players(tournament, 11)  # with the new player: 12 players, 3 tables
    made = api.post(players_url(tournament), new_player(fixed_table=3), expect=201).get_json()
    assert set(made) == OLD_KEYS | {"fixed_table"} and made["fixed_table"] == 3
    assert registration.get_player(tournament, made["id"]).fixed_table == 3
    listed = api.get(players_url(tournament), expect=200).get_json()["players"]
    assert {p["id"]: p["fixed_table"] for p in listed if p["fixed_table"] is not None} == {made["id"]: 3}
    assert all(set(p) == OLD_KEYS | {"fixed_table"} for p in listed)
    plain = api.post(players_url(tournament), new_player(first_name="Mikko"), expect=201).get_json()
    assert plain["fixed_table"] is None
    also_null = api.post(players_url(tournament), new_player(first_name="Lars", fixed_table=None), expect=201)
    assert also_null.get_json()["fixed_table"] is None


def test_a_fixed_table_beyond_the_tables_or_of_a_wrong_type_is_refused(api, tournament):
    add_players(tournament, 7)  # with the new player: 8 players, 2 tables
    for value in (3, 0, -1, 1000):
        assert_error(api.post(players_url(tournament), new_player(fixed_table=value)), 400, "fixed_table")
    body = assert_error(api.post(players_url(tournament), new_player(fixed_table=3)), 400, "fixed_table")
    assert "from 1 to 2" in body["error"]
    for value in ("2", 2.5, True, [2]):
        assert_error(api.post(players_url(tournament), new_player(fixed_table=value)), 422, "fixed_table")
    assert len(registration.players_of(tournament)) == 7  # nothing registered by a refusal
    api.post(players_url(tournament), new_player(fixed_table=2), expect=201)


def test_setting_and_clearing_a_fixed_table_of_a_registered_player(api, tournament):
    players = add_players(tournament, 12)
    url = players_url(tournament, f"/{players[4].id}/fixed-table")
    answer = api.post(url, {"fixed_table": 3}, expect=200).get_json()
    assert answer["id"] == players[4].id and answer["fixed_table"] == 3
    assert set(answer) == OLD_KEYS | {"fixed_table"}
    taken = assert_error(api.post(players_url(tournament, f"/{players[5].id}/fixed-table"), {"fixed_table": 3}),
                         400, "fixed_table")
    assert players[4].full_name in taken["error"]
    assert_error(api.post(players_url(tournament, f"/{players[5].id}/fixed-table"), {"fixed_table": 4}),
                 400, "fixed_table")
    assert_error(api.post(url, {"fixed_table": "1"}), 422, "fixed_table")
    assert_error(api.post(url, {}), 422, "fixed_table")
    assert_error(api.post(players_url(tournament, "/999999/fixed-table"), {"fixed_table": 1}), 404)
    db.session.expire_all()
    assert registration.get_player(tournament, players[4].id).fixed_table == 3
    assert registration.get_player(tournament, players[5].id).fixed_table is None
    assert api.post(url, {"fixed_table": 3}, expect=200).get_json()["fixed_table"] == 3  # again: still 200
    assert api.post(url, {"fixed_table": None}, expect=200).get_json()["fixed_table"] is None
    db.session.expire_all()
    assert registration.get_player(tournament, players[4].id).fixed_table is None
    api.post(players_url(tournament, f"/{players[5].id}/fixed-table"), {"fixed_table": 3}, expect=200)


def test_a_withdrawn_player_keeps_no_table_from_others(api, tournament):
    players = add_players(tournament, 8)
    api.post(players_url(tournament, f"/{players[0].id}/fixed-table"), {"fixed_table": 1}, expect=200)
    api.post(players_url(tournament, f"/{players[0].id}/withdraw"), {}, expect=200)
    api.post(players_url(tournament, f"/{players[1].id}/fixed-table"), {"fixed_table": 1}, expect=200)


def test_the_next_draw_through_the_api_seats_the_player_at_their_table(api, tournament):
    players = add_players(tournament, 16)
    api.post(players_url(tournament, f"/{players[9].id}/fixed-table"), {"fixed_table": 4}, expect=200)
    api.post(players_url(tournament, f"/{players[2].id}/fixed-table"), {"fixed_table": 1}, expect=200)
    session = api.post(f"/tournaments/{tournament.id}/sessions/1/draw", {"seed": 5}, expect=201).get_json()
    tables = {seat["player_id"]: table["table"] for table in session["tables"] for seat in table["seats"]}
    assert tables[players[9].id] == 4 and tables[players[2].id] == 1


def test_the_openapi_document_states_the_field_and_the_route(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    assert schemas["PlayerIn"]["properties"]["fixed_table"]["minimum"] == 1
    assert "fixed_table" not in schemas["PlayerIn"].get("required", [])
    assert "fixed_table" in schemas["Player"]["properties"]
    route = spec["paths"]["/api/v1/tournaments/{tournament_id}/players/{player_id}/fixed-table"]["post"]
    body = route["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[-1]
    assert schemas[body]["required"] == ["fixed_table"]
    assert {"200", "400", "404", "422"} <= set(route["responses"])
