"""Standings from the database: payments, penalties (cancelled ones not counted), totals-only tables,
substitutes and absences, and a fixed number of SQL queries whatever the size of the tournament."""

from datetime import UTC, datetime
from fractions import Fraction

import pytest
from sqlalchemy import event

from tournament.extensions import db
from tournament.models import (
    Hand,
    HandPayment,
    HandResult,
    Penalty,
    Player,
    PlayerStatus,
    ScoreAction,
    SessionStatus,
    SessionTable,
    TableMode,
    TableTotal,
)
from tournament.services.core.errors import NotFound
from tournament.services.play.score_changes import record_score_change
from tournament.services.results.standings import session_results, standings
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


def now():
    return datetime.now(UTC).replace(tzinfo=None)


def add_players(t, count, substitute=False, team="", start=0):
    players = []
    for i in range(start, start + count):
        p = Player(tournament_id=t.id, first_name=f"P{i:03d}", last_name=f"Player{i:03d}", country="FI",
                   team=team(i) if callable(team) else team, is_substitute=substitute,
                   status=PlayerStatus.PRESENT.value, checked_in_at=now())
        db.session.add(p)
        players.append(p)
    db.session.commit()
    return players


def start_session(t, status=SessionStatus.IN_PLAY, seed=11):
    session = draw_service.draw_next(t, seed=seed)
    lifecycle.set_status(session, SessionStatus.PUBLISHED.value)
    if status != SessionStatus.PUBLISHED:
        lifecycle.set_status(session, SessionStatus.IN_PLAY.value)
    if status == SessionStatus.FINISHED:
        lifecycle.set_status(session, SessionStatus.FINISHED.value)
    db.session.commit()
    return session


def seats_of(session, table):
    """Player ids at a table in seat order E, S, W, N."""
    return list(session.tables()[table - 1])


def add_hand(session, table, number, payments, result=HandResult.WIN):
    winner = max(payments, key=payments.get) if payments else None
    hand = Hand(session_id=session.id, table_number=table, number=number, result=result.value,
                winner_id=winner if result == HandResult.WIN else None, fans=[], fan_points=8)
    hand.payments = [HandPayment(player_id=pid, delta=delta) for pid, delta in payments.items()]
    db.session.add(hand)
    logged(session, table, number)
    db.session.commit()
    return hand


def self_drawn(winner, players, base=8):
    return {pid: 3 * (8 + base) if pid == winner else -(8 + base) for pid in players}


def penalty(t, session, player_id, amount, cancelled=False):
    p = Penalty(tournament_id=t.id, session_id=session.id, player_id=player_id, amount=amount, reason="late",
                cancelled_at=now() if cancelled else None, cancel_reason="mistake" if cancelled else "")
    db.session.add(p)
    logged(session, None, None)
    db.session.commit()
    return p


def totals_table(session, table, totals):
    st = SessionTable(session_id=session.id, table_number=table, mode=TableMode.TOTALS.value)
    st.totals = [TableTotal(player_id=pid, score=score) for pid, score in totals.items()]
    db.session.add(st)
    logged(session, table, None)
    db.session.commit()


def logged(session, table, hand_number):
    """Every write of the score-entry services records a score change: the standings cache relies on it."""
    action = ScoreAction.TOTALS_ENTERED if hand_number is None else ScoreAction.HAND_ENTERED
    record_score_change(session.id, table, hand_number, action, None)


def rows_by_id(result):
    return {row.player_id: row for row in result.rows}


def test_scores_are_summed_payments_minus_active_penalties(tournament, eight):
    s1 = start_session(tournament)
    e, s, w, n = seats_of(s1, 1)
    add_hand(s1, 1, 1, self_drawn(e, (e, s, w, n)))           # e +48, others -16
    add_hand(s1, 1, 2, {s: 8 + 10, e: -18, w: -8, n: -8})     # s wins on e's discard, base 10
    add_hand(s1, 1, 3, {}, result=HandResult.DRAW)
    penalty(tournament, s1, w, 5)
    penalty(tournament, s1, n, 30, cancelled=True)            # cancelled: not counted

    result = standings(tournament)
    rows = rows_by_id(result)
    assert result.session_numbers == (1,)
    assert rows[e].score == 48 - 18
    assert rows[s].score == -16 + 18
    assert rows[w].score == -16 - 8 - 5
    assert rows[n].score == -16 - 8
    # places: e 30, s 2, n -24, w -29
    assert [rows[p].table_points for p in (e, s, n, w)] == [4, 2, 1, 0]
    assert rows[w].penalties == 5 and rows[n].penalties == 0
    assert rows[e].sessions[0].table == 1 and rows[e].sessions[0].place == 1
    # table 2 has no hand yet: no table points, but listed with score 0
    others = [p for p in seats_of(s1, 2)]
    assert all(rows[p].table_points == 0 and rows[p].score == 0 for p in others)
    assert rows[others[0]].sessions[0].place is None and rows[others[0]].sessions[0].table == 2
    # w (0 table points, -29) comes after the unplayed table's players (0 table points, 0)
    assert [r.player_id for r in result.rows][:3] == [e, s, n] and result.rows[-1].player_id == w
    assert [r.rank for r in result.rows] == [1, 2, 3, 4, 4, 4, 4, 8]
    assert result.player_ids == [r.player_id for r in result.rows]


def test_a_penalty_can_change_the_table_points(tournament, eight):
    s1 = start_session(tournament)
    e, s, w, n = seats_of(s1, 1)
    add_hand(s1, 1, 1, {e: 24, s: -8, w: -8, n: -8})
    before = rows_by_id(standings(tournament))
    assert before[s].table_points == before[w].table_points == before[n].table_points == 1  # 3-way tie for 2nd
    penalty(tournament, s1, s, 1)
    after = rows_by_id(standings(tournament))
    assert after[w].table_points == after[n].table_points == Fraction(3, 2)
    assert after[s].table_points == 0 and after[s].score == -9


def test_a_table_of_draws_only_counts_all_tied(tournament, eight):
    s1 = start_session(tournament)
    add_hand(s1, 2, 1, {}, result=HandResult.DRAW)
    rows = rows_by_id(standings(tournament))
    assert all(rows[p].table_points == Fraction(7, 4) for p in seats_of(s1, 2))
    assert all(rows[p].table_points == 0 for p in seats_of(s1, 1))


def test_totals_only_table_uses_the_sheet_totals_and_keeps_penalties_apart(tournament, eight):
    s1 = start_session(tournament)
    e, s, w, n = seats_of(s1, 2)
    totals_table(s1, 2, {e: -40, s: 100, w: -20, n: -40})
    penalty(tournament, s1, s, 10)
    rows = rows_by_id(standings(tournament))
    assert (rows[s].score, rows[w].score, rows[e].score, rows[n].score) == (90, -20, -40, -40)
    assert (rows[s].table_points, rows[w].table_points) == (4, 2)
    assert rows[e].table_points == rows[n].table_points == Fraction(1, 2)

    results = session_results(tournament, 1)
    table2 = results.tables[1]
    assert table2.mode == "totals" and table2.counted and table2.balance == 0
    assert [p.player_id for p in table2.players] == [e, s, w, n]  # seat order
    by_id = {p.player_id: p for p in table2.players}
    assert (by_id[s].table_score, by_id[s].penalty, by_id[s].score) == (100, 10, 90)
    assert by_id[e].table_points_text == "0.5" and by_id[e].seat_wind == "E"
    table1 = results.tables[0]
    assert not table1.counted and table1.hands == 0 and all(p.place is None for p in table1.players)


def test_a_totals_table_without_totals_is_not_counted(tournament, eight):
    s1 = start_session(tournament)
    db.session.add(SessionTable(session_id=s1.id, table_number=1, mode=TableMode.TOTALS.value))
    db.session.commit()
    rows = rows_by_id(standings(tournament))
    assert all(rows[p].table_points == 0 for p in seats_of(s1, 1))


def test_only_sessions_in_play_or_finished_are_counted(tournament, eight):
    s1 = start_session(tournament, status=SessionStatus.FINISHED)
    add_hand(s1, 1, 1, self_drawn(seats_of(s1, 1)[0], seats_of(s1, 1)))
    s2 = start_session(tournament, status=SessionStatus.PUBLISHED, seed=12)
    result = standings(tournament)
    assert result.session_numbers == (1,)
    assert all(len(row.sessions) == 1 for row in result.rows)
    assert session_results(tournament, 2).tables and not any(tb.counted for tb in session_results(tournament, 2).tables)
    lifecycle.set_status(s2, SessionStatus.IN_PLAY.value)
    db.session.commit()
    assert standings(tournament).session_numbers == (1, 2)
    with pytest.raises(NotFound):
        session_results(tournament, 3)


def test_substitutes_are_not_ranked_and_an_absent_player_scores_nothing(tournament, eight):
    s1 = start_session(tournament)
    for table in (1, 2):
        seats = seats_of(s1, table)
        add_hand(s1, table, 1, self_drawn(seats[0], seats))
    # session 2: one player absent, a substitute fills the seat
    absent = eight[0]
    absent.status = PlayerStatus.REGISTERED.value
    (sub,) = add_players(tournament, 1, substitute=True, start=90)
    s2 = start_session(tournament, seed=13)
    assert sub.id in [pid for table in s2.tables() for pid in table]
    sub_table = next(i for i, table in enumerate(s2.tables(), start=1) if sub.id in table)
    seats = seats_of(s2, sub_table)
    add_hand(s2, sub_table, 1, self_drawn(sub.id, seats))     # the substitute wins: first place
    result = standings(tournament)
    rows = rows_by_id(result)
    assert sub.id not in rows
    assert len(result.rows) == 8
    missed = rows[absent.id].sessions[1]
    assert missed.table is None and missed.table_points == 0 and missed.score == 0
    assert all(rows[p].sessions[1].table_points == 1 for p in seats if p != sub.id)  # 3 tied for second
    results = session_results(tournament, 2)
    sub_row = next(p for tb in results.tables for p in tb.players if p.player_id == sub.id)
    assert sub_row.is_substitute and sub_row.place == 1 and sub_row.table_points == 4


def test_only_players_who_sat_at_a_table_are_ranked_the_disqualified_with_no_table_points(tournament, eight):
    # Issue 20: a no-show was ranked ("5=" with 0) and exported; a disqualified player vanished (MERS 4.4 keeps
    # them, with 0 table points for the whole tournament).
    late = add_players(tournament, 2, start=50)
    late[0].status = PlayerStatus.WITHDRAWN.value
    late[1].status = PlayerStatus.REGISTERED.value           # not arrived yet: not drawn
    db.session.commit()
    s1 = start_session(tournament)
    add_hand(s1, 1, 1, self_drawn(seats_of(s1, 1)[0], seats_of(s1, 1)))
    eight[1].status = PlayerStatus.WITHDRAWN.value          # played session 1, then withdrew: still ranked
    eight[2].status = PlayerStatus.DISQUALIFIED.value
    db.session.commit()
    rows = rows_by_id(standings(tournament))
    assert late[0].id not in rows and late[1].id not in rows  # never sat at a table
    assert eight[1].id in rows                               # played session 1, then withdrew: still ranked
    assert eight[2].id in rows and rows[eight[2].id].table_points == 0


def test_tie_breaks_and_teams_come_from_the_tournament(tournament):
    tournament.session_count = 2
    tournament.tie_breaks = "best_session"
    db.session.commit()
    add_players(tournament, 8, team=lambda i: "Odd" if i % 2 else "Even")
    s1 = start_session(tournament)
    a = seats_of(s1, 1)
    b = seats_of(s1, 2)
    add_hand(s1, 1, 1, {a[0]: 30, a[1]: 10, a[2]: -10, a[3]: -30})
    add_hand(s1, 2, 1, {b[0]: 30, b[1]: 10, b[2]: -10, b[3]: -30})
    result = standings(tournament)
    # a[0] and b[0] equal on everything: shared first
    assert [r.rank for r in result.rows] == [1, 1, 3, 3, 5, 5, 7, 7]
    assert result.tie_breaks == ("best_session",) and result.table_points == (4, 2, 1, 0)
    assert {t.team for t in result.team_rows} == {"Odd", "Even"}
    assert sum(t.table_points for t in result.team_rows) == 14
    assert sum(len(t.members) for t in result.team_rows) == 8


# ----------------------------------------------------------------------------- queries


class QueryCounter:
    def __init__(self):
        self.count = 0

    def __call__(self, *args):
        self.count += 1

    def __enter__(self):
        event.listen(db.engine, "before_cursor_execute", self)
        return self

    def __exit__(self, *exc):
        event.remove(db.engine, "before_cursor_execute", self)


def play_tournament(t, players, sessions):
    t.session_count = sessions
    db.session.commit()
    add_players(t, players)
    for number in range(1, sessions + 1):
        session = start_session(t, seed=number)
        for table_number, seats in enumerate(session.tables(), start=1):
            for hand in range(1, 5):
                add_hand(session, table_number, hand, self_drawn(seats[hand % 4], seats, base=hand))
            penalty(t, session, seats[1], 5)
            penalty(t, session, seats[2], 7, cancelled=True)


def count_queries(t):
    db.session.expire_all()
    assert t.name  # the tournament row is loaded by the page before the standings are asked for
    with QueryCounter() as counter:
        result = standings(t)
        session_results(t, 1)
    return counter.count, result


@pytest.mark.parametrize("players", [8, 32])
def test_the_number_of_queries_does_not_grow_with_the_tournament(tournament, players):
    play_tournament(tournament, players, 2)
    queries, result = count_queries(tournament)
    assert len(result.rows) == players
    # the results version, then sessions, players, seats, payments, tables and totals, substitutions,
    # penalties; then one session's eight
    assert queries == 1 + 7 + 8
    # Asked again with nothing changed: the version query alone.
    with QueryCounter() as again:
        assert standings(tournament) is result
    assert again.count == 1
    # every hand was self-drawn with base 1..4 and zero-sum; penalties are the only imbalance
    assert sum(r.score for r in result.rows) == -5 * (players // 4) * 2
