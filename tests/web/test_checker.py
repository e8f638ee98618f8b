"""The public hand checker: the page (with and without a hand) and its JSON endpoint."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest

PURE_STRAIGHT = "123456789m123s5p5p"
SIX_POINTS = "[123m]123456m123s5p5p"
MIXED_KONGS = "[2222m]{8888p}234s678s5s5s"


def score(client, **params):
    return client.get("/check/score.json", query_string=params)


def text_of(response) -> str:
    """The page's visible text, tags dropped, spaces collapsed (for assertions on what a reader sees)."""
    body = response.get_data(as_text=True)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body)).split())


def result_region(response) -> str:
    body = response.get_data(as_text=True)
    start = body.index('id="hand-result"')
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", body[start: body.index("</section>", start)])).split())


# ---------------------------------------------------------------- the JSON endpoint

def test_json_valid_win_with_fans_sets_and_flowers(client):
    response = score(client, hand=PURE_STRAIGHT, self_drawn=1, flowers=2)
    assert response.status_code == 200
    data = response.get_json()
    assert data["verdict"] == "valid" and data["is_win"] is True and data["reason"] == ""
    assert data["fans"][0] == {"name": "Pure Straight", "points": 16, "count": 1, "sets": ["123m", "456m", "789m"]}
    assert data["fans"][-1] == {"name": "Flower Tiles", "points": 1, "count": 2, "sets": []}
    assert (data["fan_points"], data["flower_points"], data["total"]) == (24, 2, 26)


def test_json_flags_reach_the_engine(client):
    discard = score(client, hand=PURE_STRAIGHT, self_drawn=0).get_json()
    drawn = score(client, hand=PURE_STRAIGHT, self_drawn="true").get_json()
    assert "Concealed Hand" in [f["name"] for f in discard["fans"]]
    assert "Fully Concealed Hand" in [f["name"] for f in drawn["fans"]]
    east = score(client, hand="[EEE]123456789m5p5p", seat_wind="E", prevalent_wind="E").get_json()
    south = score(client, hand="[EEE]123456789m5p5p", seat_wind="s", prevalent_wind="S").get_json()
    assert {"Seat Wind", "Prevalent Wind"} <= {f["name"] for f in east["fans"]}
    assert not {"Seat Wind", "Prevalent Wind"} & {f["name"] for f in south["fans"]}
    last = score(client, hand="[EEE]123456789m5p5p", wall_last=1).get_json()
    assert "Last Tile Claim" in {f["name"] for f in last["fans"]}


@pytest.mark.parametrize(
    ("params", "verdict", "reason"),
    [
        ({"hand": SIX_POINTS, "flowers": "8"}, "under_minimum", "6 points: under the 8-point minimum, flowers not counted"),
        ({"hand": MIXED_KONGS, "ruleset": "chinese"}, "under_minimum",
         "7 points: under the 8-point minimum, flowers not counted"),
        ({"hand": "123m456p789s11223p"}, "not_winning", "not a winning hand"),
        ({"hand": "123456789m123s5p"}, "invalid", "13 tiles, 14 expected"),
        ({"hand": "[123m][555p]{EEEE}789sPPP"}, "invalid", "15 tiles, 14 expected"),
        ({"hand": "123456789m123s5x5p"}, "invalid", "unknown character 'x' (at position 16)"),
        ({"hand": ""}, "invalid", "0 tiles, 14 expected"),
    ],
)
def test_json_no_win_verdicts_are_answers_not_errors(client, params, verdict, reason):
    response = score(client, **params)
    assert response.status_code == 200
    data = response.get_json()
    assert (data["verdict"], data["reason"], data["is_win"]) == (verdict, reason, False)


def test_json_rulesets_differ(client):
    assert score(client, hand=MIXED_KONGS, ruleset="ema").get_json()["verdict"] == "valid"
    assert score(client, hand=MIXED_KONGS, ruleset="chinese").get_json()["verdict"] == "under_minimum"


def test_json_context_error_blames_the_flag(client):
    data = score(client, hand=PURE_STRAIGHT, kong=1, self_drawn=1).get_json()
    assert data["verdict"] == "invalid" and data["field"] == "kong"
    assert "needs a declared kong" in data["reason"]


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"flowers": "9"}, "flowers"),
        ({"flowers": "-1"}, "flowers"),
        ({"flowers": "two"}, "flowers"),
        ({"flowers": "²"}, "flowers"),
        ({"seat_wind": "X"}, "seat_wind"),
        ({"prevalent_wind": "East"}, "prevalent_wind"),
        ({"ruleset": "foo"}, "ruleset"),
        ({"self_drawn": "maybe"}, "self_drawn"),
        ({"kong": "2"}, "kong"),
        ({"hand": "1" * 201}, "hand"),
        ({"hand": "12\x00m"}, "hand"),
    ],
)
def test_json_bad_parameters_are_400_with_the_field(client, params, field):
    response = score(client, **{"hand": PURE_STRAIGHT, **params})
    assert response.status_code == 400
    data = response.get_json()
    assert data["field"] == field
    assert data["error"]


def test_json_hand_of_exactly_200_characters_is_an_answer(client):
    response = score(client, hand="1" * 199 + "m")
    assert response.status_code == 200
    assert response.get_json()["verdict"] == "invalid"


@pytest.mark.parametrize(
    "hand",
    ["[[[[", "]]]}", "{1111m}{1111m}", "[123m][123m][123m][123m][123m]5p5p", "99999999999999999999m", "1z8z9z",
     "ｍ１２３", "\u202e123m", "%00", "[]", "{}" * 50, "5555p5p123456789m", "EEEEE" + "1m" * 9],
)
def test_json_never_500_for_junk_hands(client, hand):
    response = score(client, hand=hand, self_drawn=1, kong=1, last_tile=1, wall_last=1)
    assert response.status_code == 200
    assert response.get_json()["verdict"] == "invalid"


def test_json_needs_no_login_and_no_csrf(client):
    # a fresh client: no session, no token, a plain GET
    response = client.get("/check/score.json?hand=" + PURE_STRAIGHT)
    assert response.status_code == 200 and response.is_json


# ---------------------------------------------------------------- the page

def test_page_without_a_hand_shows_the_form_and_no_result(client):
    response = client.get("/check")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert 'data-tile-picker' in body and 'data-hand-score="/check/score.json"' in body
    assert re.search(r'<script src="/static/js/tile-picker\.js\?v=[0-9a-f]{12}" defer></script>', body)
    assert re.search(r'<script src="/static/js/hand-score\.js\?v=[0-9a-f]{12}" defer></script>', body)
    assert "<script>" not in body  # no inline script (a CSP without them will come)
    assert "Build or type a hand to see its fans." in result_region(response)
    for name, label in [("hand", "Hand"), ("seat_wind", "Seat wind"), ("prevalent_wind", "Prevalent wind"),
                        ("flowers", "Flowers"), ("ruleset", "Ruleset")]:
        assert f'<label for="{name}">{label}</label>' in body
    assert re.search(r'<label class="check"><input type="checkbox" id="self_drawn"[^>]*> Self-drawn</label>', body)
    assert 'href="/check">Hand checker</a>' in body  # in the site navigation


def test_page_renders_the_result_fan_by_fan_without_javascript(client):
    response = client.get("/check", query_string={"hand": PURE_STRAIGHT, "self_drawn": "1", "flowers": "2"})
    assert response.status_code == 200
    result = result_region(response)
    assert "Mahjong: 26 points (24 + 2 flowers)" in result
    assert "Pure Straight" in result and "Fully Concealed Hand" in result and "Flower Tiles" in result
    assert "Total 26" in result
    body = response.get_data(as_text=True)
    assert 'aria-label="1 2 3 characters"' in body  # the sets each fan uses, readable by a screen reader
    assert 'aria-label="5 dots ×2"' in body
    # the form keeps what was asked
    assert f'value="{PURE_STRAIGHT}"' in body
    assert re.search(r'id="self_drawn"[^>]*checked', body)
    assert '<option value="2" selected>2</option>' in body


def test_page_under_minimum_and_invalid_reasons(client):
    under = client.get("/check", query_string={"hand": SIX_POINTS, "flowers": "3"})
    assert "No win: 6 points: under the 8-point minimum, flowers not counted" in result_region(under)
    short = client.get("/check", query_string={"hand": "123456789m123s5p"})
    assert "Cannot check: 13 tiles, 14 expected" in result_region(short)
    body = short.get_data(as_text=True)
    # the reason next to the hand field too
    assert re.search(r'<p class="error" id="hand-error">13 tiles, 14 expected</p>', body)
    assert re.search(r'id="hand"[^>]*aria-describedby="hand-hint hand-error"[^>]*aria-invalid="true"', body, re.S)


def test_page_bad_parameters_show_errors_next_to_the_fields(client):
    response = client.get("/check", query_string={"hand": PURE_STRAIGHT, "flowers": "9", "seat_wind": "X"})
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert '<p class="error" id="flowers-error">Flowers: a whole number from 0 to 8.</p>' in body
    assert '<p class="error" id="seat_wind-error">Seat wind: use E, S, W or N.</p>' in body
    assert "Please correct 2 fields" in body
    assert "Build or type a hand" in result_region(response)  # nothing scored from refused values


def test_shared_url_reproduces_the_result(client):
    params = {"hand": "[EEE]123456789m5p5p", "self_drawn": "1", "seat_wind": "E", "prevalent_wind": "E",
              "flowers": "1", "ruleset": "chinese"}
    first = client.get("/check", query_string=params)
    body = first.get_data(as_text=True)
    share = html.unescape(re.search(r'data-hand-score-share>\s*<a href="([^"]+)"', body).group(1))
    parts = urlsplit(share)
    assert parts.path == "/check"
    query = {k: v[0] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    assert query["hand"] == "[EEE]123456789m5p5p" and query["ruleset"] == "chinese" and query["self_drawn"] == "1"
    again = client.get(parts.path + "?" + parts.query)
    assert result_region(again) == result_region(first)
    # and the JSON answers the same query with the same total
    data = client.get("/check/score.json?" + parts.query).get_json()
    assert f"Total {data['total']}" in result_region(first)


def test_page_never_500_for_junk(client):
    for query in ("hand=%00", "hand=" + "[" * 300, "flowers=1e9&kong=x&ruleset=", "hand=EEEE&kong=1&self_drawn=1",
                  "seat_wind=%F0%9F%80%80", "hand=1&hand=2"):
        response = client.get("/check?" + query)
        assert response.status_code == 200, query
