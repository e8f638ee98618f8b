"""Issue 25: the sessions drawn ahead re-planned as one plan (`replan_sessions`) when four players of a planned
32 withdraw after session 2 (a table fewer): every session seats the 28 left once each, the later sessions are
the continuation of the plan the first was chosen for, and every seat wind ends within floor/ceil (re-planning
each later session on its own from the old sessions left players off balance, e.g. with this seed)."""

from tournament.draws import Entrants, draw_session, plan_tournament, quality_report, replan_sessions

TEAMS = {p: (p - 1) // 4 for p in range(1, 33)}
SEED = 9000


def test_a_table_fewer_is_re_planned_as_one_plan():
    plan = plan_tournament(list(range(1, 33)), 7, seed=SEED, groups=TEAMS)
    history = [list(s) for s in plan[:2]]
    gone = {10, 19, 28, 5}
    players = [p for p in range(1, 33) if p not in gone]
    out = replan_sessions(Entrants(players, groups=TEAMS), seed=SEED, history=history,
                          ahead=[list(s) for s in plan[2:]], total_sessions=7)
    assert len(out) == 5
    for session in out:
        seated = [p for t in session for p in t]
        assert len(session) == 7 and sorted(seated) == sorted(players)
    # the first session is what a draw of session 3 with the sessions drawn ahead gives
    assert out[0] == draw_session(Entrants(players, groups=TEAMS), seed=SEED, history=history,
                                  ahead=[list(s) for s in plan[2:]], total_sessions=7)
    report = quality_report(history + out, TEAMS)
    full = [c for p, c in report.wind_counts.items() if p not in gone]
    assert all(min(c) >= 1 and max(c) <= 2 for c in full), full
    assert report.excess_repeats <= 2
