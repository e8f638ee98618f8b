"""Issue 25: fixed tables for players with access needs: the player keeps a table number in every session and
the draw works around it (no repeats, teams apart and winds balanced as without)."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import pytest

from tournament.draws import (
    DrawError,
    Entrants,
    draw_session,
    place_fixed_tables,
    plan_tournament,
    quality_report,
)

ROOT = pathlib.Path(__file__).resolve().parents[2]
PLAYERS = list(range(1, 33))
TEAMS = {p: (p - 1) // 4 for p in range(1, 34)}


def test_a_plan_keeps_fixed_tables_and_its_quality():
    fixed = {5: 1, 9: 1 + 3, 22: 8}  # 5 and 9 would otherwise meet in this plan
    sched = plan_tournament(PLAYERS, 7, seed=3, groups=TEAMS, fixed=fixed)
    for session in sched:
        for player, number in fixed.items():
            assert player in session[number - 1]
    q = quality_report(sched, TEAMS)
    assert q.excess_repeats == 0 and q.clashes == [] and q.wind_balanced


def test_session_by_session_with_a_withdrawal_keeps_fixed_tables():
    fixed, subs = {5: 2, 30: 7}, [901, 902]
    history, seeds, players = [], [], PLAYERS
    for k in range(7):
        if k == 2:
            players = [p for p in players if p != 11]
        seed = 50 + k
        history.append(draw_session(Entrants(players, groups=TEAMS, substitutes=subs, fixed=fixed), seed=seed,
                                    history=history, total_sessions=7, history_seeds=seeds))
        seeds.append(seed)
    for session in history:
        assert 5 in session[1] and 30 in session[6]
    q = quality_report(history, TEAMS, subs)
    assert q.excess_repeats == 0 and q.clashes == []
    assert all(max(c) - min(c) <= 1 for p, c in q.wind_counts.items() if sum(c) == 7)


def test_two_fixed_players_drawn_together_are_moved_apart_keeping_their_winds():
    tables = [(1, 2, 3, 4), (5, 6, 7, 8)]
    placed = place_fixed_tables(tables, {1: 2, 3: 1})
    assert 3 in placed[0] and 1 in placed[1]
    assert placed[0].index(3) == 2 and placed[1].index(1) == 0  # same seat wind as drawn


def test_impossible_fixed_tables_are_clear_errors():
    with pytest.raises(DrawError, match="keeps table 9, but there are only 8 tables"):
        plan_tournament(PLAYERS, 2, seed=1, fixed={4: 9})
    with pytest.raises(DrawError, match="both keep table 3"):
        plan_tournament(PLAYERS, 2, seed=1, fixed={4: 3, 6: 3})


def test_cli_fixed_tables():
    r = subprocess.run([sys.executable, "-m", "tournament.draws", "--players", "20", "--sessions", "4",
                        "--fixed", "7:5", "--fixed", "8:1", "--json"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    for session in json.loads(r.stdout)["sessions"]:
        assert 7 in session[4] and 8 in session[0]
    bad = subprocess.run([sys.executable, "-m", "tournament.draws", "--players", "20", "--sessions", "4",
                          "--fixed", "seven"], cwd=ROOT, capture_output=True, text=True)
    assert bad.returncode == 2 and "--fixed seven" in bad.stderr
