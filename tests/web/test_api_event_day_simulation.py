"""A whole event day through the JSON API only (issue 20), on SQLite and PostgreSQL: a no-show, a substitute
coming in for a player who falls ill, a late player's substitute, a referee's ruling, a warning and a
penalty (with penalties not moving table points), a time call between hands with the paper sheet typed in
afterwards, a disqualification, and a second session drawn without the absent. The standings and the EMA
file must equal a computation written here from the rules: MERS 4 for substitutes, MERS 4.4 for the
disqualified, table points 4-2-1-0 with shared ties.

Issue 34 adds a host country (given as "Nederland"), players from five countries written as people write
them, a substitute who comes in from hand 9 and is the only one from Japan, and a no-show from France: the
MERS weight (GET .../mers), the EMA results workbook and the observer's report must equal the counts made
here from who played which hand (every substitute who played, at most 3 counting as players; the countries of
everyone who played, substitutes included, against those of the ranked players) and EMA's table."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from fractions import Fraction

import openpyxl
import pytest

from tests.helpers import VALID_22, Api, check_in_all, pdf_text, register, token_for

pytestmark = pytest.mark.postgres

TABLE_POINTS = (4, 2, 1, 0)


def shared_points(scores: dict[int, int]) -> dict[int, Fraction]:
    ordered = sorted(scores.values(), reverse=True)
    points = TABLE_POINTS[:len(scores)]
    return {player: Fraction(sum(points[i] for i, s in enumerate(ordered) if s == score),
                             ordered.count(score)) for player, score in scores.items()}


# The countries as registered (people's spellings) and as stored; EMA's 3-letter codes for them, written here.
PLAYER_COUNTRIES = [("FIN", "FI")] * 4 + [("Deutschland", "DE")] * 3 + [("NED", "NL")] * 2 + \
    [("Sverige", "SE")] * 2 + [("dk", "DK")]
EMA_CODE = {"FI": "FIN", "DE": "GER", "NL": "NED", "SE": "SWE", "DK": "DEN", "JP": "JPN", "FR": "FRA"}
ENGLISH = {"FI": "Finland", "DE": "Germany", "NL": "Netherlands", "SE": "Sweden", "DK": "Denmark", "JP": "Japan"}


def ema_weight(days: int, players: int, countries: int) -> float:
    """EMA's "Basics for ranking system" table, written again here."""
    by_players = 1.0 if players >= 81 else 0.5 if players >= 41 else 0.0
    by_countries = 1.0 if countries >= 10 else 0.5 if countries >= 6 else 0.0
    return min(days, 3) + by_players + by_countries


def test_a_whole_event_day(client, app_ctx, organiser):
    api = Api(client, token_for(organiser))
    tournament = api.post("/tournaments", {"name": "Event Day Open", "session_count": 2, "country": "Nederland",
                                           "penalties_affect_table_points": False}, expect=201).get_json()
    tid = tournament["id"]
    assert tournament["country"] == "NED"
    players, country_of = [], {}
    for i, (written, code) in enumerate(PLAYER_COUNTRIES):
        body = {"first_name": f"P{i:03d}", "last_name": f"Player{i:03d}", "country": written}
        player = api.post(f"/tournaments/{tid}/players", body, expect=201).get_json()
        assert player["country"] == code
        players.append(player["id"])
        country_of[player["id"]] = code
    subs = register(api, tid, 2, prefix="S", substitute=True)
    subs += register(api, tid, 1, prefix="J", substitute=True, country="日本")  # the only one from Japan
    country_of.update({subs[0]: "FI", subs[1]: "FI", subs[2]: "JP"})
    no_show = register(api, tid, 1, prefix="N", country="Francia")[0]
    check_in_all(api, tid, players + subs)
    base = f"/tournaments/{tid}/sessions/1"
    drawn = api.post(f"{base}/draw", {"seed": 11}, expect=201).get_json()["tables"]
    api.post(f"{base}/start", expect=200)
    seats = {t["table"]: [s["player_id"] for s in t["seats"]] for t in drawn}
    assert no_show not in {p for table in seats.values() for p in table}

    # Who sits where, hand by hand: MERS 4 events as we record them. At table 3 a player is called away from
    # hand 9 on ("other": the seat scores no table points, and the player is drawn again in session 2).
    events = {1: (seats[1][2], subs[0], 5, "ill"), 2: (seats[2][0], subs[1], 1, "late"),
              3: (seats[3][3], subs[2], 9, "other")}
    for table, (out_id, in_id, from_hand, reason) in events.items():
        api.post(f"{base}/tables/{table}/substitutions", {"out_player_id": out_id, "in_player_id": in_id,
                                                          "from_hand": from_hand, "reason": reason}, expect=201)

    def at_hand(table: int, number: int) -> list[int]:
        now = list(seats[table])
        if table in events and number >= events[table][2]:
            now[now.index(events[table][0])] = events[table][1]
        return now

    payments: dict[tuple[int, int], dict[int, int]] = defaultdict(lambda: defaultdict(int))  # (session, table)
    last_hand = {1: 16, 2: 16, 3: 12}  # table 3: time called between hands, after hand 12
    for table, count in last_hand.items():
        for number in range(1, count + 1):
            if table == 3 and number == 11:
                api.post(f"{base}/tables/3/time", {"hand_in_progress": None, "last_hand_played": 12},
                         expect=200)  # hands 11-12 were finished before the gong, typed in afterwards
            sitting = at_hand(table, number)
            if number % 3:
                body = {"number": number, "result": "draw"}
            else:
                winner, discarder = sitting[number % 4], sitting[(number + 1) % 4]
                body = {"number": number, "result": "win", "winner_id": winner, "discarder_id": discarder,
                        "hand": VALID_22}
                if (table, number) == (1, 6):
                    body |= {"ruled_points": 12, "ruling": "Winning tile not shown"}
            hand = api.post(f"{base}/tables/{table}/hands", body, expect=201).get_json()
            for pid, delta in hand["payments"].items():
                payments[(1, table)][int(pid)] += delta
        if count < 16:
            assert api.post(f"{base}/tables/3/hands", {"number": 13, "result": "draw"}).status_code == 409
    warned, penalised = seats[3][1], seats[3][2]
    api.post(f"/tournaments/{tid}/penalties", {"player_id": warned, "session": 1, "amount": 0, "reason": "noise",
                                               "foul": "Conduct"}, expect=201)
    api.post(f"/tournaments/{tid}/penalties", {"player_id": penalised, "session": 1, "amount": 30,
                                               "reason": "slow", "foul": "Slow play"}, expect=201)
    api.post(f"{base}/finish", {}, expect=200)
    disqualified = seats[3][0]
    api.post(f"/tournaments/{tid}/players/{disqualified}/disqualify", {"reason": "Cheating"}, expect=200)

    # Session 2: the ill player and the disqualified one are not seated again.
    drawn2 = api.post(f"/tournaments/{tid}/sessions/2/draw", {"seed": 12}, expect=201).get_json()["tables"]
    api.post(f"/tournaments/{tid}/sessions/2/start", expect=200)
    seated2 = {t["table"]: [s["player_id"] for s in t["seats"]] for t in drawn2}
    everyone2 = {p for table in seated2.values() for p in table}
    assert events[1][0] not in everyone2 and disqualified not in everyone2
    for table, sitting in seated2.items():
        hand = api.post(f"/tournaments/{tid}/sessions/2/tables/{table}/hands",
                        {"number": 1, "result": "win", "winner_id": sitting[0], "discarder_id": sitting[1],
                         "hand": VALID_22}, expect=201).get_json()
        for pid, delta in hand["payments"].items():
            payments[(2, table)][int(pid)] += delta

    # The independent computation.
    penalties = {penalised: 30}
    expected_points: dict[int, Fraction] = defaultdict(Fraction)
    expected_score: dict[int, int] = defaultdict(int)
    for (session, table), paid in payments.items():
        sitting = seats[table] if session == 1 else seated2[table]
        everyone = set(sitting) | set(paid)
        scores = {p: paid.get(p, 0) for p in everyone}
        placed = dict(scores)  # penalties do not move table points in this tournament
        if session == 1 and table in events:
            out_id, in_id, from_hand, reason = events[table]
            placed.pop(out_id)
            if not (reason == "late" or from_hand == 1):
                placed.pop(in_id)
        for p, points in shared_points(placed).items():
            expected_points[p] += points
        for p, score in scores.items():
            expected_score[p] += score - (penalties.get(p, 0) if session == 1 else 0)
    ranked = {p for p in players if p in expected_score}
    expected_points[disqualified] = Fraction(0)

    rows = {r["player_id"]: r for r in api.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]}
    assert set(rows) == ranked  # substitutes and the no-show are not ranked; the disqualified player is
    assert disqualified in rows and no_show not in rows and not set(subs) & set(rows)
    for p in ranked:
        assert rows[p]["score"] == expected_score[p], p
        assert abs(rows[p]["table_points"] - float(expected_points[p])) < 0.005, (p, rows[p], expected_points[p])
    order = sorted(ranked, key=lambda p: (-expected_points[p], -expected_score[p]))
    assert [rows[p]["table_points"] for p in order] == sorted((rows[p]["table_points"] for p in ranked), reverse=True)

    text = api.get(f"/tournaments/{tid}/ema-results.csv", expect=200).get_data(as_text=True)
    exported = [f"{row[1]} {row[2]}" for row in list(csv.reader(io.StringIO(text)))[1:]]
    names = {p["id"]: f"{p['first_name']} {p['last_name']}"
             for p in api.get(f"/tournaments/{tid}/players", expect=200).get_json()["players"]}
    assert sorted(exported) == sorted(names[p] for p in ranked)

    # The EMA results workbook: the same players, table points and scores, where EMA's importer reads them.
    book = openpyxl.load_workbook(io.BytesIO(api.get(f"/tournaments/{tid}/ema-results.xlsx", expect=200).data))
    sheet = book.active
    assert sheet.cell(row=3, column=2).value == len(ranked)  # the header's player count
    listed = {}
    for row in range(2, len(ranked) + 2):
        first, last, points, score, code = (sheet.cell(row=row, column=c).value for c in (4, 5, 7, 8, 10))
        listed[f"{first} {last}"] = (float(points), score, code)
    by_name = {names[p]: p for p in ranked}
    assert set(listed) == set(by_name)
    for name, (points, score, code) in listed.items():
        p = by_name[name]
        assert abs(points - float(expected_points[p])) < 0.005 and score == expected_score[p], name
        assert code == EMA_CODE[country_of[p]], name

    # Issue 34: who played a hand, counted here from the seats and the substitutions recorded above.
    played = set()
    for table, sitting in seats.items():
        out_id, in_id, from_hand, _ = events.get(table, (None, None, None, None))
        played |= {p for p in sitting if not (p == out_id and from_hand == 1)} | ({in_id} if in_id else set())
    played |= everyone2
    subs_played = played & set(subs)
    assert subs_played >= {subs[0], subs[1], subs[2]} and no_show not in played
    counted_players = len(ranked) + min(len(subs_played), 3)
    countries_played = {country_of[p] for p in played}
    countries_ranked = {country_of[p] for p in ranked}
    assert countries_played - countries_ranked == {"JP"}  # the substitute's alone; the no-show's France is not
    weight = ema_weight(1, counted_players, len(countries_played))
    assert weight == 1.5 and ema_weight(1, counted_players, len(countries_ranked)) == 1.0  # the count matters

    mers = api.get(f"/tournaments/{tid}/mers", expect=200).get_json()
    assert (mers["substitutes_played"], mers["countries_played"], mers["countries_ranked"]) == (
        len(subs_played), len(countries_played), len(countries_ranked))
    assert (mers["players"], mers["ranked_players"], mers["countries"], mers["weight"]) == (
        counted_players, len(ranked), len(countries_played), weight)
    assert mers["countries_counted"] == "countries_played" and "MERS" in mers["countries_reason"]

    assert [sheet.cell(row=3, column=c).value for c in (12, 14, 15)] == ["NED", weight, len(countries_played)]
    check = api.get(f"/tournaments/{tid}/ema-results/check", expect=200).get_json()
    assert not [p for p in check["problems"] if "host country" in p["message"] or "EMA's reader" in p["message"]]
    assert any("one country from a band edge" in w["message"] for w in check["warnings"])

    text = "\n".join(pdf_text(api.get(f"/tournaments/{tid}/ema-observer-report.pdf", expect=200).data))
    assert "Netherlands (NED)" in text and f"MERS weight: {weight:g}" in text
    assert (f"{counted_players} ({len(ranked)} ranked, {len(subs_played)} substitutes played, at most 3 count): "
            f"+0") in text
    assert (f"{len(countries_played)} of everyone who played a hand, substitutes included "
            f"({len(countries_ranked)} of the ranked players): +0.5") in " ".join(text.split())
    for code in countries_played:
        in_file = sum(1 for p in ranked if country_of[p] == code)
        others = sum(1 for p in played - ranked if country_of[p] == code)
        assert f"{EMA_CODE[code]}\n{ENGLISH[code]}\n{in_file}\n{others}\n" in text, code
    assert "FRA" not in text
