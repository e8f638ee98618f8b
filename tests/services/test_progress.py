"""The standings after each session, a player's record and the change marker, through the scoring services."""

from __future__ import annotations

from fractions import Fraction

import pytest

from tests.helpers import add_players, table_ids, win
from tournament.extensions import db
from tournament.services import NotFound
from tournament.services.play import penalties, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.results import progress, standings
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


def summary(rows):
    return [(r.player_id, r.rank, r.shared, r.table_points, r.score) for r in rows]


def test_the_standings_after_session_one_are_what_they_were_before_session_two(session_two_started):
    t, after_one = session_two_started
    # Session 2: a big win at table 1 reshuffles the ranking.
    e, s, w, n = table_ids(t, 2, 1)
    win(t, 2, 1, 1, n, e)
    win(t, 2, 1, 2, n)
    result = progress.progress(t)
    assert result.session_numbers == (1, 2)
    assert summary(result.after[1]) == summary(after_one.rows)
    assert summary(result.after[2]) == summary(standings.standings(t).rows)
    assert summary(progress.standings_after(t, 1)) == summary(after_one.rows)
    assert summary(result.after[1]) != summary(result.after[2])  # the win above did move people
    with pytest.raises(NotFound):
        progress.standings_after(t, 3)


def test_rankings_of_sessions_before_the_one_in_play_are_reused(session_two_started):
    t, _ = session_two_started
    first = progress.progress(t)
    e, s, w, n = table_ids(t, 2, 1)
    win(t, 2, 1, 1, n, e)
    second = progress.progress(t)
    assert second.after[1] is first.after[1]  # session 1 did not change: not ranked again
    assert second.after[2] is not first.after[2]
    assert summary(second.after[2]) == summary(standings.standings(t).rows)


def test_history_gives_each_players_rank_after_each_session(session_two_started):
    t, after_one = session_two_started
    e, s, w, n = table_ids(t, 2, 1)
    win(t, 2, 1, 1, n, e)
    result = progress.progress(t)
    now = standings.standings(t)
    for row in now.rows:
        history = result.history(row.player_id)
        assert [h.session for h in history] == [1, 2]
        before = next(r for r in after_one.rows if r.player_id == row.player_id)
        assert (history[0].rank, history[0].table_points, history[0].score) == (before.rank, before.table_points,
                                                                                before.score)
        assert (history[1].rank, history[1].table_points, history[1].score) == (row.rank, row.table_points, row.score)
        assert history[1].field_size == 8


def test_a_penalty_in_session_two_counts_from_session_two_only(session_two_started):
    t, _ = session_two_started
    victim = table_ids(t, 2, 1)[0]
    before = progress.progress(t)
    penalties.give_penalty(t, player_id=victim, session_number=2, amount=500, reason="misconduct", user=None)
    after = progress.progress(t)
    assert summary(after.after[1]) == summary(before.after[1])
    last = after.history(victim)[-1]
    assert last.score == before.history(victim)[-1].score - 500
    # Table points come first: -500 puts the victim last among those with the same table points.
    same = [r for r in after.after[2] if r.table_points == last.table_points]
    assert same[-1].player_id == victim and last.rank == same[-1].rank
    assert [r.player_id for r in same] != [r.player_id for r in before.after[2] if r.table_points == last.table_points]


def test_player_record_lists_tables_opponents_winds_and_results(session_two_started):
    t, _ = session_two_started
    e, s, w, n = table_ids(t, 2, 1)
    win(t, 2, 1, 1, n, e)
    record = progress.player_record(t, n)
    assert [line.session for line in record.sessions] == [1, 2]
    line = record.sessions[1]
    assert (line.table, line.wind, line.status) == (1, "N", "in_play")
    assert [(o.player_id, o.wind) for o in line.opponents] == [(e, "E"), (s, "S"), (w, "W")]
    assert (line.hands_won, line.self_draws, line.deal_ins, line.fan_points) == (1, 0, 0, 22)
    results = {p.player_id: p for tr in standings.session_results(t, 2).tables for p in tr.players}
    assert (line.score, line.table_points, line.place) == (results[n].score, results[n].table_points,
                                                           results[n].place)
    assert line.rank_after is not None and line.rank_after.session == 2
    assert record.row is not None and record.row.player_id == n
    assert (22, 2, 1, 1, False) in [(h.points, h.session, h.table, h.hand, h.self_drawn) for h in record.hands]
    assert [h.points for h in record.hands] == sorted((h.points for h in record.hands), reverse=True)
    assert sum(h.points for h in record.hands) == sum(line.fan_points for line in record.sessions)
    dealer = progress.player_record(t, e)
    assert dealer.sessions[1].deal_ins == 1 and dealer.sessions[1].hands_won == 0


def test_player_record_counts_self_draws_and_penalties_of_session_one(session_two_started):
    t, _ = session_two_started
    e, s, w, n = table_ids(t, 1, 2)
    record = progress.player_record(t, w)
    first = record.sessions[0]
    assert (first.hands_won, first.self_draws, first.fan_points) == (1, 1, 24)
    penalised = progress.player_record(t, n).sessions[0]
    assert penalised.penalty == 10
    results = {p.player_id: p for tr in standings.session_results(t, 1).tables for p in tr.players}
    assert penalised.score == results[n].score  # penalty included, as on the results page
    assert penalised.table_points == results[n].table_points


def test_player_of_another_tournament_is_not_found(session_two_started, organiser):
    from tests.helpers import make_tournament

    t, _ = session_two_started
    other = make_tournament(organiser, name="Other Open")
    stranger = add_players(other, 1, start=100)[0]
    with pytest.raises(NotFound):
        progress.player_record(t, stranger.id)
    with pytest.raises(NotFound):
        progress.player_record(t, 10**9)


def test_no_session_in_play_means_an_empty_history(tournament):
    players = add_players(tournament, 4)
    draw_service.draw_next(tournament, seed=1)
    result = progress.progress(tournament)
    assert result.session_numbers == () and result.final == []
    record = progress.player_record(tournament, players[0].id)
    assert record.history == [] and record.sessions == []  # a draft seating is not shown


def test_shared_ranks_and_fractional_table_points_survive(tournament):
    add_players(tournament, 4)
    draw_service.draw_next(tournament, seed=1)
    lifecycle.start_session(tournament, 1)
    scoring.enter_hand(tournament, 1, 1, HandData(number=1, result="draw"), None)
    result = progress.progress(tournament)
    history = result.history(table_ids(tournament, 1, 1)[0])
    assert [(h.rank, h.shared, h.table_points) for h in history] == [(1, True, Fraction(7, 4))]
    assert history[0].rank_label == "1=" and history[0].table_points_text == "1.75"


def test_change_marker_moves_with_every_change_and_only_then(session_two_started):
    t, _ = session_two_started
    marker = progress.change_marker(t.id)
    assert marker == progress.change_marker(t.id)
    e, s, w, n = table_ids(t, 2, 1)
    win(t, 2, 1, 1, n, e)
    db.session.commit()
    after_hand = progress.change_marker(t.id)
    assert after_hand != marker
    penalty = penalties.give_penalty(t, player_id=e, session_number=2, amount=5, reason="noise", user=None)
    db.session.commit()
    after_penalty = progress.change_marker(t.id)
    assert after_penalty != after_hand
    penalties.cancel_penalty(t, penalty.id, "mistake", None)
    db.session.commit()
    after_cancel = progress.change_marker(t.id)
    assert after_cancel != after_penalty
    player = db.session.get(type(penalty.player), n)
    player.first_name = "Renamed"
    db.session.commit()
    after_rename = progress.change_marker(t.id)
    assert after_rename != after_cancel
    lifecycle.finish_session(t, 2, force=True)
    db.session.commit()
    assert progress.change_marker(t.id) != after_rename
    assert progress.change_marker(10**9) is None


def test_a_late_arrival_who_withdrew_is_ranked_from_the_session_they_played(session_two_started):
    from tournament.models import PlayerStatus

    t, _ = session_two_started
    lifecycle.finish_session(t, 2, force=True)
    late = add_players(t, 4, start=100)
    draw_service.draw_next(t, seed=7)
    lifecycle.start_session(t, 3)
    late[0].status = PlayerStatus.WITHDRAWN  # played session 3, then left
    late[1].status = PlayerStatus.WITHDRAWN
    db.session.commit()
    seated = {seat.player_id for seat in play.get_session(t, 3).seats}
    assert late[0].id in seated
    result = progress.progress(t)
    for player in late[:2]:
        history = result.history(player.id)
        if player.id in seated:  # ranked once they have played, not before
            assert [h.session for h in history] == [3]
        else:
            assert history == []
    # A late arrival still registered is ranked from the session they first played too (issue 20: a player
    # who had played nothing was ranked, and exported, with 0).
    assert late[2].id in seated
    assert [h.session for h in result.history(late[2].id)] == [3]
