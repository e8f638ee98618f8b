"""Issue 25: the session-by-session draw is as good as the plan (teams apart, no repeats, winds balanced),
substitutes spread, and the report leaves substitutes out of the wind list."""

from __future__ import annotations

import pytest

from tournament.draws import Entrants, draw_session, plan_tournament, quality_report


def _weekend(players, sessions, groups=None, substitutes=(), seeds=None, change=None):
    history, used = [], []
    for k in range(sessions):
        if change:
            players = change(k, players)
        seed = seeds[k] if seeds else 11
        history.append(draw_session(Entrants(players, groups=groups, substitutes=substitutes), seed=seed,
                                    history=history, total_sessions=sessions, history_seeds=list(used)))
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


def _figures(history, groups, substitutes, sessions):
    """(clashes, excess repeats, players who played every session with a wind off floor/ceil)."""
    q = quality_report(history, groups, substitutes)
    full = [c for c in q.wind_counts.values() if sum(c) == sessions]
    off = sum(1 for c in full if min(c) < sessions // 4 or max(c) > -(-sessions // 4))
    return len(q.clashes), q.excess_repeats, off


def _plan_is_clean(players, sessions, groups, seed):
    return _figures(plan_tournament(players, sessions, seed=seed, groups=groups), groups, (), sessions) == (0, 0, 0)


def test_withdrawal_and_late_arrival_replan_as_well_as_the_plan():
    # 32 players in 8 teams of 4, 3 substitutes, 7 sessions with a new seed each; one player withdraws before
    # session 3 and a late arrival checks in before session 5: the re-plan left 6-10 tables with teammates where
    # the plan of the same field had none (bench/draws.py: 663 clashes over 100 seeds)
    players, subs = list(range(1, 33)), [901, 902, 903]
    groups = {p: (p - 1) // 4 for p in range(1, 34)}
    for seed in (1, 2, 3):
        assert _plan_is_clean(players, 7, groups, seed)
        gone = 1 + seed % 32

        def change(k, field, gone=gone):
            if k == 2:
                return [p for p in field if p != gone]
            return field + [33] if k == 4 else field

        history = _weekend(players, 7, groups, substitutes=subs, seeds=[seed * 1000 + k for k in range(7)],
                           change=change)
        assert _figures(history, groups, subs, 7) == (0, 0, 0), seed
        assert all(gone not in t for session in history[2:] for t in session)
        assert all(any(33 in t for t in session) for session in history[4:])
        late = quality_report(history, groups, subs).wind_counts[33]
        assert sorted(late) == [0, 1, 1, 1]  # three sessions played: three different winds


def test_a_no_show_keeps_the_plan_and_comes_back_to_it():
    # a player absent from session 4 only: a substitute takes their seats, they take them back for session 5
    players, subs = list(range(1, 33)), [901, 902, 903]
    groups = {p: (p - 1) // 4 for p in players}
    seed = 2
    assert _plan_is_clean(players, 7, groups, seed)
    history = _weekend(players, 7, groups, substitutes=subs, seeds=[seed * 1000 + k for k in range(7)],
                       change=lambda k, field: [p for p in players if k != 3 or p != 7])
    assert _figures(history, groups, subs, 7) == (0, 0, 0)
    assert all(7 not in t for t in history[3]) and all(any(7 in t for t in s) for s in history[4:])
    q = quality_report(history, groups, subs)
    c = q.wind_counts[7]
    assert sum(c) == 6 and max(c) - min(c) <= 1


def test_a_replan_keeps_everyone_else_at_their_planned_tables():
    # the plan in force is repaired, not thrown away: apart from the seats of who left, the next session seats
    # everyone with the opponents the plan gave them
    players, subs = list(range(1, 17)), [101]
    plan = plan_tournament(players, 4, seed=5)
    history = [draw_session(Entrants(players, substitutes=subs), seed=5, total_sessions=4)]
    history.append(draw_session(Entrants(players, substitutes=subs), seed=6, history=history, total_sessions=4,
                                history_seeds=[5]))
    assert [{frozenset(t) for t in s} for s in history] == [{frozenset(t) for t in s} for s in plan[:2]]
    nxt = draw_session(Entrants([p for p in players if p != 3], substitutes=subs), seed=7, history=history,
                       total_sessions=4, history_seeds=[5, 6])
    assert {frozenset(101 if p == 3 else p for p in t) for t in plan[2]} == {frozenset(t) for t in nxt}


@pytest.mark.slow
def test_four_withdrawals_without_substitutes_repair_the_plan_with_a_table_fewer():
    # 32 players in 8 teams of 4 over 7 sessions; four players of four teams withdraw before session 3 and no
    # substitute is called: the plan in force loses a table (its players fill the seats left free) and is searched
    # again, instead of a fresh plan of 28 players against the history, which repeated 5, 2 and 3 pairs for seeds
    # 1-3. 28 players leave no plan free of both repeats and teammates that the search finds: measured on these
    # seeds, 0-2 excess repeats and 13-21 of the 35 tables with teammates (bench/draws.py, "a table fewer")
    players = list(range(1, 33))
    groups = {p: (p - 1) // 4 for p in players}
    for seed in (1, 2, 3, 12):
        gone = {1 + (seed + 9 * i) % 32 for i in range(4)}
        history = _weekend(players, 7, groups, seeds=[seed * 1000 + k for k in range(7)],
                           change=lambda k, field, gone=gone: [p for p in field if p not in gone] if k == 2 else field)
        assert all(len(session) == 7 for session in history[2:])
        assert not gone & {p for session in history[2:] for t in session for p in t}
        q = quality_report(history, groups)
        assert q.excess_repeats <= 2 and q.wind_balanced, seed
        assert len(q.clashes) <= 21, seed


def test_teams_of_four_apart_in_every_plan_seed():
    # 32 players in 8 teams of 4 over 7 sessions: teams packed onto a design round the plan leaves out never meet
    # (a search from a random labelling left teammates together on 25 of 100 seeds, 3 of these 20)
    players = list(range(1, 33))
    groups = {p: (p - 1) // 4 for p in players}
    for seed in range(0, 20_000, 1000):
        q = quality_report(plan_tournament(players, 7, seed=seed, groups=groups), groups)
        assert q.clashes == [] and q.excess_repeats == 0 and q.wind_balanced, seed


def test_teams_that_do_not_pack_onto_one_round_still_get_a_plan():
    # a team of five cannot sit on one table of a left-out round: the search from a random labelling takes over
    players = list(range(1, 33))
    groups = {p: 0 if p <= 5 else 1 + (p - 6) // 3 for p in players}
    plan = plan_tournament(players, 7, seed=3, groups=groups)
    assert all(sorted(p for t in session for p in t) == players for session in plan)
    q = quality_report(plan, groups)
    assert q.excess_repeats == 0 and q.wind_balanced
    assert len(q.clashes) <= 2  # measured on seeds 0-4: 1-2 tables where two of the five meet
