"""Issue 25: the session-by-session draw is as good as the plan (teams apart, no repeats, winds balanced),
substitutes spread, and the report leaves substitutes out of the wind list."""

from __future__ import annotations

from tournament.draws import draw_session, plan_tournament, quality_report


def _weekend(players, sessions, groups=None, substitutes=(), seeds=None, change=None):
    history, used = [], []
    for k in range(sessions):
        if change:
            players = change(k, players)
        seed = seeds[k] if seeds else 11
        history.append(draw_session(players, seed=seed, history=history, groups=groups, substitutes=substitutes,
                                    total_sessions=sessions, history_seeds=list(used)))
        used.append(seed)
    return history


def test_teams_apart_drawn_one_session_at_a_time_with_new_seeds():
    # defect 1: 11-16 tables with teammates together for seeds 11-13; the plan gets 0
    players = list(range(1, 33))
    groups = {p: (p - 1) // 4 for p in players}
    for base in (11, 12, 13):
        history = _weekend(players, 7, groups, seeds=[base + 100 * k for k in range(7)])
        q = quality_report(history, groups)
        assert q.clashes == [] and q.excess_repeats == 0 and q.wind_balanced


def test_winds_balanced_with_a_new_seed_every_session():
    # defect 2: 36 players, 7 sessions, a new seed per session left 1-3 players off floor/ceil
    players = list(range(1, 37))
    history = _weekend(players, 7, seeds=[5 + 31 * k for k in range(7)])
    q = quality_report(history)
    assert q.excess_repeats == 0 and q.wind_balanced


def test_substitutes_spread_one_per_table():
    # defect 5: 33 players + 3 substitutes sat two substitutes at one table in sessions 1-2
    players, subs = list(range(1, 34)), [101, 102, 103]
    for sched in (plan_tournament(players, 7, seed=1, substitutes=subs),
                  _weekend(players, 3, substitutes=subs, seeds=[1, 2, 3])):
        for session in sched:
            assert all(sum(p in subs for p in t) <= 1 for t in session)


def test_report_wind_list_leaves_substitutes_out():
    sched = [[(1, 2, 3, 101)], [(1, 2, 3, 101)]]
    q = quality_report(sched, substitutes=[101])
    assert 101 not in q.wind_counts and 1 in q.wind_counts


def test_withdrawal_mid_weekend_keeps_the_rest_apart_and_seats_no_one_gone():
    players = list(range(1, 33))
    groups = {p: (p - 1) // 4 for p in players}
    gone = {5, 9}

    def change(k, field):
        return [p for p in field if p not in gone] if k == 3 else field

    history = _weekend(players, 7, groups, substitutes=[201, 202], seeds=[3 + k for k in range(7)], change=change)
    assert all(p not in gone for session in history[3:] for t in session for p in t)
    q = quality_report(history, groups, substitutes=[201, 202])
    assert q.excess_repeats == 0
