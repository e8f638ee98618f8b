"""Issue 33: a Swiss draw that keeps teammates apart, teams first where a team event wants it, and substitutes'
seat winds balanced like the players'."""

from __future__ import annotations

import pytest

from tournament.draws import Entrants, draw_session, plan_tournament, quality_report

TEAMS = {p: (p - 1) // 4 for p in range(1, 25)}  # 24 players in 6 teams of 4


def _clashes_in(session, groups) -> int:
    return sum(1 for t in session if len({groups[p] for p in t}) < len(t))


@pytest.mark.parametrize("seed", range(5))
def test_a_team_topping_the_standings_sits_apart(seed):
    players = list(range(1, 25))
    history = plan_tournament(players, 3, seed=seed, groups=TEAMS)
    ranking = players  # team 0 (players 1-4) tops the standings, then team 1 ...
    strict = draw_session(Entrants(players, groups=TEAMS), seed=seed, history=history, ranking=ranking)
    assert set(strict[0]) == {1, 2, 3, 4} and _clashes_in(strict, TEAMS) == 6  # a final: by rank, whoever
    apart = draw_session(Entrants(players, groups=TEAMS), seed=seed, history=history, ranking=ranking,
                         keep_apart=True)
    assert sorted(p for t in apart for p in t) == players
    assert _clashes_in(apart, TEAMS) == 0
    q = quality_report([*history, apart], TEAMS)
    assert q.excess_repeats == 0  # 3 sessions played: a Swiss session free of repeats exists, and is found
    assert 1 in apart[0]  # the leader stays at the top table


def test_keeping_apart_moves_players_no_further_than_it_must():
    # no teams, no history: nothing to keep apart, so the groups of four are the strict ones
    players = list(range(1, 17))
    ranking = list(reversed(players))
    apart = draw_session(Entrants(players), seed=3, ranking=ranking, keep_apart=True)
    strict = draw_session(Entrants(players), seed=3, ranking=ranking)
    assert [set(t) for t in apart] == [set(t) for t in strict]


@pytest.mark.parametrize("seed", range(3))
def test_teams_first_seats_no_teammates_session_by_session(seed):
    # 24 players in 6 teams of 4 over 7 sessions: zero repeats would need teammates together (each player meets
    # 21 others of 23); teams first accepts repeats instead
    players = list(range(1, 25))
    history = []
    for k in range(7):
        history.append(draw_session(Entrants(players, groups=TEAMS, teams_first=True), seed=seed * 10 + k,
                                    history=history, total_sessions=7, history_seeds=[seed * 10 + j
                                                                                     for j in range(k)]))
    q = quality_report(history, TEAMS)
    assert not q.clashes and not q.players_twice_in_a_session
    repeats_first = plan_tournament(players, 7, seed=seed, groups=TEAMS)
    assert quality_report(repeats_first, TEAMS).clashes  # the default keeps repeats down instead


def test_teams_first_plan_up_front():
    plan = plan_tournament(list(range(1, 25)), 7, seed=1, groups=TEAMS, teams_first=True)
    assert not quality_report(plan, TEAMS).clashes


def test_substitutes_winds_are_balanced_session_by_session():
    # 29 players and 4 substitutes taking turns (3 seated a session), 8 sessions drawn one at a time with no end
    # known: a substitute's winds spread over the sessions they sat in (before: 16 of 20 off floor/ceil, one with
    # East twice and nothing else; now 5)
    players, subs = list(range(1, 30)), [91, 92, 93, 94]
    off = 0
    for seed in range(5):
        history = []
        for k in range(8):
            history.append(draw_session(Entrants(players, subs), seed=seed * 100 + k, history=history))
        for sub in subs:
            counts = [sum(1 for session in history for t in session if t[w] == sub) for w in range(4)]
            played = sum(counts)
            assert played >= 5 and max(counts) - min(counts) <= 2, counts
            off += any(c < played // 4 or c > -(-played // 4) for c in counts)
    assert off <= 6
