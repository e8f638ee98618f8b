"""A whole tournament played through the JSON API only: 32 players, 4 sessions, random hands.

Wins come from the engine's hand generator, with draws, false mahjongs (both kinds, with and without
tiles), penalties (one cancelled), a correction and a delete + re-entry. The standings the API answers
must equal a recomputation written here from first principles: payments from the fans the API
reports (8 + base rules), false mahjong amounts, penalties, table points 4-2-1-0 with shared ties as
exact fractions, and the ranking order with shared ranks.
"""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

import pytest

from tests.helpers import Api, check_in_all, register, token_for
from tests.mcr.handgen import random_hand
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.people.tournaments import add_staff

pytestmark = pytest.mark.slow

PLAYERS = 32
SESSIONS = 4
HANDS = 16
UNDER_MINIMUM, NOT_WINNING = 10, 20  # the tournament's false mahjong amounts (set below)
NOT_A_WIN = "13579m13579p1357s"  # 14 tiles, no winning structure
TABLE_POINTS = (4, 2, 1, 0)


def expected_payments(hand: dict, seats: list[int]) -> dict[int, int]:
    """The rules' payments, from the hand's fans as the API reports them (flowers included as a fan)."""
    pay = dict.fromkeys(seats, 0)
    if hand["result"] == "win":
        base = sum(fan["points"] * fan["count"] for fan in hand["fans"])
        winner, discarder = hand["winner_id"], hand["discarder_id"]
        for other in seats:
            if other == winner:
                continue
            owed = 8 + base if discarder is None or other == discarder else 8
            pay[other] -= owed
            pay[winner] += owed
    for fm in hand["false_mahjongs"]:
        amount = UNDER_MINIMUM if fm["kind"] == "under_minimum" else NOT_WINNING
        for other in seats:
            if other != fm["player_id"]:
                pay[other] += amount
                pay[fm["player_id"]] -= amount
    return pay


def shared_table_points(scores: dict[int, int]) -> dict[int, Fraction]:
    """4-2-1-0 by score; players with equal scores share the points of the places they span."""
    ordered = sorted(scores.values(), reverse=True)
    points = {}
    for player, score in scores.items():
        places = [i for i, s in enumerate(ordered) if s == score]
        points[player] = Fraction(sum(TABLE_POINTS[i] for i in places), len(places))
    return points


class Tables:
    """What the test knows about every table: seats, and each hand's answer from the API."""

    def __init__(self):
        self.seats: dict[tuple[int, int], list[int]] = {}
        self.hands: dict[tuple[int, int], dict[int, dict]] = defaultdict(dict)


def play_win(api: Api, rng: random.Random, url: str, number: int, seats: list[int], false_mahjongs=(),
             self_drawn: bool | None = None):
    """Enter a win from the generator; claims the engine refuses (under 8 with these winds) are 422s
    that store nothing, and the next generated hand is tried."""
    for _ in range(200):
        case = random_hand(rng)
        if self_drawn is not None and case["self_drawn"] != self_drawn:
            continue
        winner = rng.choice(seats)
        discarder = None if case["self_drawn"] else rng.choice([p for p in seats if p != winner])
        body = {"number": number, "result": "win", "winner_id": winner, "discarder_id": discarder,
                "hand": case["hand"], "flowers": case["flowers"], "last_tile": case["last_tile"],
                "wall_last": case["wall_last"], "kong": case["kong"],
                "false_mahjongs": [fm for fm in false_mahjongs if fm["player_id"] != winner]}
        response = api.post(url, body)
        if response.status_code == 201:
            return body, response.get_json()
        assert response.status_code == 422, response.get_json()
    raise AssertionError("no generated hand was accepted")


def test_simulated_tournament_through_the_api(client, app_ctx, organiser, referee):
    rng = random.Random(20261130)
    boss = Api(client, token_for(organiser))
    tid = boss.post("/tournaments", {"name": "Simulated Open", "session_count": SESSIONS, "tie_breaks": [],
                                     "false_mahjong_under_minimum": UNDER_MINIMUM,
                                     "false_mahjong_not_winning": NOT_WINNING}, expect=201).get_json()["id"]
    boss.post(f"/tournaments/{tid}/players", {"first_name": "Sub", "last_name": "Stitute", "country": "SE",
                                              "substitute": True}, expect=201)
    players = register(boss, tid, PLAYERS)
    check_in_all(boss, tid, players)
    names = {pid: f"P{i:03d} Player{i:03d}" for i, pid in enumerate(players)}

    # The referee enters the scores.
    add_staff(db.session.get(Tournament, tid), referee.email, "referee")
    db.session.commit()
    ref = Api(client, token_for(referee))

    known = Tables()
    penalties: list[tuple[int, int, int]] = []  # (session, player, amount) still active
    corrected = deleted = False
    for session in range(1, SESSIONS + 1):
        drawn = boss.post(f"/tournaments/{tid}/sessions/{session}/draw", {"seed": session},
                          expect=201).get_json()
        assert len(drawn["tables"]) == PLAYERS // 4
        not_started = ref.post(f"/tournaments/{tid}/sessions/{session}/tables/1/hands",
                               {"number": 1, "result": "draw"})
        assert not_started.status_code == 409  # not in play yet
        boss.post(f"/tournaments/{tid}/sessions/{session}/start", expect=200)
        for table in drawn["tables"]:
            seats = [seat["player_id"] for seat in table["seats"]]
            known.seats[(session, table["table"])] = seats
            url = f"/tournaments/{tid}/sessions/{session}/tables/{table['table']}/hands"
            # The last session's last tables are scripted to tie: a 3-way tie behind a self-drawn win
            # (table 6), a 2-way tie behind a discard win (table 7), four draws only (table 8).
            scripted = session == SESSIONS and table["table"] >= 6
            for number in range(1, HANDS + 1):
                roll = rng.random()
                claimant = rng.choice(seats)
                if scripted:
                    if number == 1 and table["table"] < 8:
                        body, answer = play_win(ref, rng, url, number, seats, self_drawn=table["table"] == 6)
                    else:
                        body = {"number": number, "result": "draw"}
                        answer = ref.post(url, body, expect=201).get_json()
                elif roll < 0.12:  # a false mahjong, kind from the referee or from the engine (tiles given)
                    fm = ({"player_id": claimant, "kind": rng.choice(["under_minimum", "not_winning"])}
                          if rng.random() < 0.5 else {"player_id": claimant, "hand": NOT_A_WIN})
                    if rng.random() < 0.5:
                        body = {"number": number, "result": "draw", "false_mahjongs": [fm]}
                        answer = ref.post(url, body, expect=201).get_json()
                    else:
                        body, answer = play_win(ref, rng, url, number, seats, [fm])
                elif roll < 0.3:
                    body = {"number": number, "result": "draw"}
                    answer = ref.post(url, body, expect=201).get_json()
                else:
                    body, answer = play_win(ref, rng, url, number, seats)
                assert answer["number"] == number
                known.hands[(session, table["table"])][number] = answer
                # A double submission of the same hand is refused, not stored twice.
                if number == 3 and table["table"] == 1:
                    assert ref.post(url, body).status_code == 409
                # A claimed win the engine refuses stores nothing.
                if number == 5 and table["table"] == 2:
                    refused = ref.post(url, {"number": 6, "result": "win", "winner_id": seats[0],
                                             "hand": NOT_A_WIN})
                    assert refused.status_code == 422
            if session == 2 and table["table"] == 3 and not corrected:
                # A correction: hand 4 becomes a draw; the answer and the history follow.
                fixed = ref.put(f"{url}/4", {"number": 4, "result": "draw"}, expect=200).get_json()
                assert fixed["fans"] == [] and set(fixed["payments"].values()) <= {0}
                known.hands[(session, table["table"])][4] = fixed
                corrected = True
            if session == 3 and table["table"] == 5 and not deleted:
                ref.delete(f"{url}/7", expect=204)
                assert 7 not in [h["number"] for h in ref.get(url, expect=200).get_json()["hands"]]
                body, answer = play_win(ref, rng, url, 7, seats)
                known.hands[(session, table["table"])][7] = answer
                deleted = True
        # Penalties: two a session, the first of session 2 cancelled.
        unscripted = [pid for table in drawn["tables"] if table["table"] < 6 for pid in
                      (seat["player_id"] for seat in table["seats"])]
        for k in range(2):
            player = rng.choice(unscripted)
            amount = rng.choice([5, 10, 20, 30])
            given = ref.post(f"/tournaments/{tid}/penalties",
                             {"player_id": player, "session": session, "amount": amount,
                              "reason": f"Slow play {session}.{k}", "hand": rng.randint(1, 16)},
                             expect=201).get_json()
            if session == 2 and k == 0:
                cancelled = ref.delete(f"/tournaments/{tid}/penalties/{given['id']}",
                                       {"reason": "Mistaken identity"}, expect=200).get_json()
                assert cancelled["cancelled"] is True
            else:
                penalties.append((session, player, amount))
    assert corrected and deleted

    # Every table's hands, as stored, match what the API answered and the rules' payments.
    for (session, table), answers in known.hands.items():
        url = f"/tournaments/{tid}/sessions/{session}/tables/{table}/hands"
        stored = ref.get(url, expect=200).get_json()["hands"]
        assert [h["number"] for h in stored] == list(range(1, HANDS + 1))
        for hand in stored:
            assert hand["payments"] == answers[hand["number"]]["payments"]
            seats = known.seats[(session, table)]
            expected = {str(p): v for p, v in expected_payments(hand, seats).items() if v}
            assert {p: v for p, v in hand["payments"].items() if v} == expected, hand

    # Independent standings.
    score = defaultdict(int)
    session_score: dict[tuple[int, int], int] = defaultdict(int)
    for (session, _table), answers in known.hands.items():
        for hand in answers.values():
            for pid, delta in hand["payments"].items():
                session_score[(session, int(pid))] += delta
    for session, pid, amount in penalties:
        session_score[(session, pid)] -= amount
    session_points: dict[tuple[int, int], Fraction] = {}
    for (session, _table), seats in known.seats.items():
        shares = shared_table_points({pid: session_score[(session, pid)] for pid in seats})
        for pid, share in shares.items():
            session_points[(session, pid)] = share
    total_points = {pid: sum((session_points[(s, pid)] for s in range(1, SESSIONS + 1)), Fraction(0))
                    for pid in players}
    for pid in players:
        score[pid] = sum(session_score[(s, pid)] for s in range(1, SESSIONS + 1))
    order = sorted(players, key=lambda pid: (-total_points[pid], -score[pid]))
    expected_rank = {}
    for position, pid in enumerate(order, start=1):
        previous = order[position - 2] if position > 1 else None
        same = previous is not None and (total_points[previous], score[previous]) == (total_points[pid], score[pid])
        expected_rank[pid] = expected_rank[previous] if same else position

    rows = ref.get(f"/tournaments/{tid}/standings", expect=200).get_json()["rows"]
    assert sorted(row["player_id"] for row in rows) == sorted(players)  # the substitute is absent
    for row in rows:
        pid = row["player_id"]
        assert set(row) == {"rank", "player_id", "name", "country", "table_points", "score", "sessions"}
        assert row["name"] == names[pid] and row["country"] == "FI"
        assert row["rank"] == expected_rank[pid], (row, total_points[pid], score[pid])
        assert row["table_points"] == round(float(total_points[pid]), 2)
        assert row["score"] == score[pid]
        assert [(c["session"], c["table_points"], c["score"]) for c in row["sessions"]] == [
            (s, round(float(session_points[(s, pid)]), 2), session_score[(s, pid)]) for s in range(1, SESSIONS + 1)
        ]
    # Ranking order: best first, shared ranks next to each other.
    assert [row["rank"] for row in rows] == sorted(expected_rank[pid] for pid in players)
    # The scripted ties were split exactly: 7/4 each for four, 1 each for three, 3/2 each for two.
    last = {table: sorted(session_points[(SESSIONS, pid)] for pid in known.seats[(SESSIONS, table)])
            for table in (6, 7, 8)}
    assert last == {6: [1, 1, 1, 4], 7: [0, Fraction(3, 2), Fraction(3, 2), 4], 8: [Fraction(7, 4)] * 4}
