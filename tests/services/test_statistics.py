"""Statistics and awards counted from hands entered through the scoring services."""

from __future__ import annotations

from sqlalchemy import event

from tests.helpers import VALID_22, add_players
from tournament.extensions import db
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.results import statistics
from tournament.services.seating import draws as draw_service


def ids(t, session_number: int, table: int) -> list[int]:
    return [sp.player_id for sp in play.table_players(play.get_session(t, session_number), table)]


def enter(t, session_number, table, number, **kwargs):
    return scoring.enter_hand(t, session_number, table, HandData(number=number, **kwargs), None)


def test_counts_wins_self_draws_deal_ins_false_mahjongs_and_penalties(two_sessions_played):
    t, p = two_sessions_played
    stats = statistics.statistics(t)
    assert (stats.hands, stats.wins, stats.self_draws, stats.draws) == (5, 4, 1, 1)
    assert (stats.false_mahjongs, stats.penalties, stats.penalty_points) == (1, 1, 10)  # cancelled one left out
    by_id = {row.player_id: row for row in stats.players}
    assert (by_id[p["e"]].wins, by_id[p["e"]].self_draws, by_id[p["e"]].best_hand) == (2, 1, 24)
    assert by_id[p["s"]].deal_ins == 1 and by_id[p["s"]].wins == 0
    assert by_id[p["w"]].false_mahjongs == 1
    assert (by_id[p["s2"]].penalties, by_id[p["s2"]].penalty_points, by_id[p["s2"]].deal_ins) == (1, 10, 1)
    assert p["e2"] not in by_id or by_id[p["e2"]].penalties == 0
    assert by_id[p["a"]].deal_ins == 1
    assert sum(r.wins for r in stats.players) == stats.wins
    assert [r.name for r in stats.players] == sorted((r.name for r in stats.players),
                                                     key=lambda n: n.split()[1])  # by family name


def test_top_hands_best_first_and_best_of_each_session(two_sessions_played):
    t, p = two_sessions_played
    stats = statistics.statistics(t)
    points = [h.points for h in stats.top_hands]
    assert points == sorted(points, reverse=True) and len(points) == 4
    top = stats.top_hands[0]
    assert (top.player_id, top.session, top.table, top.hand, top.points) == (p["c"], 2, 2, 1, p["big"].fan_points)
    assert top.points > 24 and not top.self_drawn and top.discarder
    assert set(stats.best_of_session) == {1, 2}
    assert (stats.best_of_session[1].player_id, stats.best_of_session[1].points) == (p["e"], 24)
    assert stats.best_of_session[2].points == p["big"].fan_points
    flowered = next(h for h in stats.top_hands if h.player_id == p["n2"])
    assert (flowered.points, flowered.flowers) == (22, 3)  # flowers kept apart from the fan points


def test_fan_counts_follow_the_hands(two_sessions_played):
    from collections import Counter

    from sqlalchemy import select

    from tournament.models import Hand

    t, p = two_sessions_played
    stats = statistics.statistics(t)
    fans = {f.name: f for f in stats.fans}
    # Counted independently from the stored hands.
    hands, times = Counter(), Counter()
    for hand in db.session.scalars(select(Hand).where(Hand.result == "win")):
        for fan in hand.fans:
            hands[fan["name"]] += 1
            times[fan["name"]] += fan["count"]
    assert {name: (f.hands, f.times) for name, f in fans.items()} == {name: (hands[name], times[name])
                                                                      for name in hands}
    assert fans["Pure Straight"].hands == 3 and fans["Pure Straight"].points == 16
    assert fans["Fully Concealed Hand"].hands == 1
    assert fans["Four Concealed Pungs"].hands == 1 and fans["Four Concealed Pungs"].points == 64
    counts = [f.hands for f in stats.fans]
    assert counts == sorted(counts, reverse=True)
    assert "Flower Tiles" not in fans


def test_a_fixed_number_of_queries_whatever_the_size(two_sessions_played, app):
    t, _ = two_sessions_played
    statements: list[str] = []

    def count(conn, cursor, statement, *args):
        statements.append(statement)

    engine = db.engine
    assert t.id  # loaded before counting: committing expired it
    event.listen(engine, "before_cursor_execute", count)
    try:
        statistics.statistics(t)
        small = len(statements)
        # More hands at more tables: the query count stays the same.
        for table in (1, 2):
            players = ids(t, 2, table)
            for number in range(2, 8):
                enter(t, 2, table, number, result="win", winner_id=players[number % 4],
                      discarder_id=players[(number + 1) % 4], hand=VALID_22)
        db.session.commit()
        assert t.id
        statements.clear()
        statistics.statistics(t)
        assert len(statements) == small == 5
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_nothing_played_gives_empty_statistics(tournament):
    add_players(tournament, 4)
    draw_service.draw_next(tournament, seed=1)
    stats = statistics.statistics(tournament)
    assert (stats.hands, stats.wins, stats.top_hands, stats.fans, stats.players) == (0, 0, [], [], [])
    assert stats.best_of_session == {}
