"""The ranking rules, on plain rows: table points split exactly, the order, shared ranks, tie-breaks, teams."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.services.results.ranking import (
    Entrant,
    TableResult,
    format_points,
    points_number,
    rank_players,
    rank_teams,
    ranking_key,
    split_table_points,
)


def entrant(pid, name=None, team="", ranked=True, country="FI"):
    name = name or f"Player {pid:02d}"
    first, _, last = name.partition(" ")
    return Entrant(player_id=pid, name=name, sort_name=f"{last}, {first}", country=country, team=team,
                   ranked=ranked)


def points_of(scores):
    return {pid: placing.table_points for pid, placing in split_table_points(scores).items()}


def places_of(scores):
    return {pid: placing.place for pid, placing in split_table_points(scores).items()}


# ----------------------------------------------------------------------------- table points


def test_no_tie_gives_4_2_1_0():
    assert points_of({1: 40, 2: 10, 3: -20, 4: -30}) == {1: 4, 2: 2, 3: 1, 4: 0}
    assert places_of({1: 40, 2: 10, 3: -20, 4: -30}) == {1: 1, 2: 2, 3: 3, 4: 4}


@pytest.mark.parametrize(
    ("scores", "expected", "shown"),
    [
        # two tied first share 4 + 2
        ({1: 10, 2: 10, 3: -5, 4: -15}, {1: Fraction(3), 2: Fraction(3), 3: 1, 4: 0}, "3 3 1 0"),
        # two tied second share 2 + 1
        ({1: 10, 2: 0, 3: 0, 4: -10}, {1: 4, 2: Fraction(3, 2), 3: Fraction(3, 2), 4: 0}, "4 1.5 1.5 0"),
        # two tied last share 1 + 0
        ({1: 10, 2: 5, 3: -7, 4: -7}, {1: 4, 2: 2, 3: Fraction(1, 2), 4: Fraction(1, 2)}, "4 2 0.5 0.5"),
        # three tied first share 4 + 2 + 1
        ({1: 5, 2: 5, 3: 5, 4: -15}, {1: Fraction(7, 3), 2: Fraction(7, 3), 3: Fraction(7, 3), 4: 0}, "2.33 2.33 2.33 0"),
        # three tied second share 2 + 1 + 0
        ({1: 30, 2: -10, 3: -10, 4: -10}, {1: 4, 2: Fraction(1), 3: Fraction(1), 4: Fraction(1)}, "4 1 1 1"),
        # all four share 7
        ({1: 0, 2: 0, 3: 0, 4: 0}, {1: Fraction(7, 4), 2: Fraction(7, 4), 3: Fraction(7, 4), 4: Fraction(7, 4)},
         "1.75 1.75 1.75 1.75"),
    ],
)
def test_ties_share_the_points_of_the_places_they_span_exactly(scores, expected, shown):
    got = points_of(scores)
    assert got == expected
    assert all(isinstance(v, Fraction) for v in got.values())
    assert sum(got.values()) == 7
    assert " ".join(format_points(got[pid]) for pid in (1, 2, 3, 4)) == shown


def test_tied_players_share_the_best_place_of_their_span():
    assert places_of({1: 10, 2: 10, 3: -5, 4: -15}) == {1: 1, 2: 1, 3: 3, 4: 4}
    assert places_of({1: 30, 2: -10, 3: -10, 4: -10}) == {1: 1, 2: 2, 3: 2, 4: 2}


def test_tournament_table_points_list_is_used():
    got = points_of_list({1: 9, 2: 9, 3: 0, 4: -18}, (6, 3, 1, 0))
    assert got == {1: Fraction(9, 2), 2: Fraction(9, 2), 3: 1, 4: 0}


def points_of_list(scores, table_points):
    return {pid: p.table_points for pid, p in split_table_points(scores, table_points).items()}


@pytest.mark.parametrize(
    ("value", "text", "number"),
    [(Fraction(3), "3", 3), (Fraction(7, 4), "1.75", 1.75), (Fraction(7, 3), "2.33", 2.33),
     (Fraction(14, 3), "4.67", 4.67), (Fraction(3, 2), "1.5", 1.5), (Fraction(1, 12), "0.08", 0.08),
     (Fraction(0), "0", 0), (Fraction(-7, 3), "-2.33", -2.33), (Fraction(1, 200), "0.01", 0.01)],
)
def test_display_of_table_points(value, text, number):
    assert format_points(value) == text
    assert points_number(value) == number
    assert type(points_number(value)) is type(number)


# ----------------------------------------------------------------------------- order and ranks


def test_order_is_table_points_then_score():
    entrants = [entrant(i) for i in range(1, 5)]
    tables = [
        TableResult(1, 1, {1: 50, 2: 40, 3: -30, 4: -60}),
        TableResult(2, 1, {1: -100, 2: 10, 3: 60, 4: 30}),
    ]
    rows = rank_players(entrants, tables)
    # table points: 1: 4+0=4, 2: 2+1=3, 3: 1+4=5, 4: 0+2=2
    assert [r.player_id for r in rows] == [3, 1, 2, 4]
    assert [r.table_points for r in rows] == [5, 4, 3, 2]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert not any(r.shared for r in rows)
    # equal table points: the score decides
    rows = rank_players(entrants, [TableResult(1, 1, {1: 50, 2: 10, 3: -5, 4: -15}),
                                   TableResult(2, 1, {1: 1, 2: 9, 3: -5, 4: -5})])
    assert [r.player_id for r in rows][:2] == [1, 2]
    assert rows[0].table_points == rows[1].table_points == 6
    assert (rows[0].score, rows[1].score) == (51, 19)
    assert (rows[0].rank, rows[1].rank) == (1, 2)


def test_equal_players_share_the_rank_1_2_2_4_and_are_listed_by_name_without_accents():
    entrants = [entrant(1, "Anna Zeller"), entrant(2, "Zoë Łukasz"), entrant(3, "Bob Lukas"),
                entrant(4, "Carl Adams")]
    # 2 and 3 tie for second at the table: equal table points and score; 4 last
    rows = rank_players(entrants, [TableResult(1, 1, {1: 30, 2: 0, 3: 0, 4: -30})])
    assert [r.rank for r in rows] == [1, 2, 2, 4]
    assert [r.rank_label for r in rows] == ["1", "2=", "2=", "4"]
    # 'Łukasz' sorts as 'Lukasz', after 'Lukas' (accent-insensitive), not after 'Z'
    assert [r.name for r in rows] == ["Anna Zeller", "Bob Lukas", "Zoë Łukasz", "Carl Adams"]
    assert rows[1].shared and rows[2].shared and not rows[0].shared


def test_shared_rank_within_names_is_stable_whatever_the_input_order():
    entrants = [entrant(i) for i in range(1, 5)]
    tables = [TableResult(1, 1, {i: 0 for i in range(1, 5)})]
    forward = rank_players(entrants, tables)
    backward = rank_players(list(reversed(entrants)), tables)
    assert [r.player_id for r in forward] == [r.player_id for r in backward] == [1, 2, 3, 4]
    assert {r.rank for r in forward} == {1}
    assert all(r.table_points == Fraction(7, 4) for r in forward)


def _tie_on_points_and_score():
    """Players 1 and 2 end equal on table points (6) and score (0), different on every tie-break.

    Player 1: 1st (+40), 4th (-40), 2nd (0). Player 2: 2nd three times (+10, +10, -20).
    """
    entrants = [entrant(i) for i in range(1, 9)]
    tables = [
        TableResult(1, 1, {1: 40, 2: 10, 3: -20, 4: -30}),
        TableResult(2, 1, {1: -40, 5: 30, 2: 10, 6: 0}),
        TableResult(3, 1, {1: 0, 7: 50, 8: -10, 3: -40}),
        TableResult(3, 2, {2: -20, 5: 80, 6: -30, 4: -30}),
    ]
    return entrants, tables


def test_tie_breaks_firsts_seconds_best_session_in_the_tournament_order():
    entrants, tables = _tie_on_points_and_score()
    base = {r.player_id: r for r in rank_players(entrants, tables)}
    p1, p2 = base[1], base[2]
    # the construction: equal on table points and score, different tie-breaks
    assert (p1.table_points, p1.score) == (p2.table_points, p2.score) == (6, 0)
    assert (p1.firsts, p1.seconds, p1.best_session) == (1, 1, 40)
    assert (p2.firsts, p2.seconds, p2.best_session) == (0, 3, 10)
    assert p1.rank == p2.rank and p1.shared  # no tie-break: they share the rank

    def order(tie_breaks, penalties=None):
        rows = rank_players(entrants, tables, tie_breaks=tie_breaks, penalties=penalties)
        ranks = {r.player_id: r.rank for r in rows}
        return ranks[1], ranks[2]

    assert order(["firsts"])[0] < order(["firsts"])[1]
    assert order(["seconds"])[0] > order(["seconds"])[1]
    assert order(["best_session"])[0] < order(["best_session"])[1]
    # the first tie-break that separates them decides, in the tournament's order
    assert order(["seconds", "firsts"])[0] > order(["seconds", "firsts"])[1]
    assert order(["firsts", "seconds"])[0] < order(["firsts", "seconds"])[1]
    # penalties: fewer penalty points is better
    assert order(["fewest_penalties"], {1: 5, 2: 0})[0] > order(["fewest_penalties"], {1: 5, 2: 0})[1]
    assert order(["fewest_penalties"], {2: 5})[0] < order(["fewest_penalties"], {2: 5})[1]
    assert order(["fewest_penalties", "firsts"], {1: 5})[0] > order(["fewest_penalties", "firsts"], {1: 5})[1]
    # equal on a tie-break: the next one decides
    assert order(["fewest_penalties", "seconds"], {1: 3, 2: 3})[0] > order(["fewest_penalties", "seconds"],
                                                                            {1: 3, 2: 3})[1]


def test_shared_firsts_count_as_firsts():
    entrants = [entrant(i) for i in range(1, 5)]
    rows = {r.player_id: r for r in rank_players(entrants, [TableResult(1, 1, {1: 10, 2: 10, 3: 0, 4: -20})])}
    assert rows[1].firsts == rows[2].firsts == 1
    assert rows[3].firsts == 0 and rows[3].seconds == 0  # third place: the tie took places 1 and 2


def test_unknown_tie_break_is_refused():
    rows = rank_players([entrant(1)], [])
    with pytest.raises(ValueError, match="Unknown tie-break"):
        ranking_key(rows[0], ["coin_toss"])


# ----------------------------------------------------------------------------- substitutes, absences, teams


def test_substitutes_are_never_ranked_but_their_scores_place_the_others():
    entrants = [entrant(1), entrant(2), entrant(3), entrant(9, "Sub Stitute", ranked=False)]
    rows = rank_players(entrants, [TableResult(1, 1, {1: 10, 2: 0, 3: -40, 9: 30})])
    assert [r.player_id for r in rows] == [1, 2, 3]
    by_id = {r.player_id: r for r in rows}
    assert by_id[1].table_points == 2  # second behind the substitute
    assert by_id[3].table_points == 0


def test_a_replaced_player_gets_0_table_points_and_0_score_for_the_session():
    entrants = [entrant(i) for i in range(1, 5)] + [entrant(9, "Sub Stitute", ranked=False)]
    tables = [
        TableResult(1, 1, {1: 10, 2: 5, 3: -5, 4: -10}),
        TableResult(2, 1, {9: 20, 2: 5, 3: -5, 4: -20}),  # player 1 replaced by substitute 9
    ]
    rows = {r.player_id: r for r in rank_players(entrants, tables)}
    missed = rows[1].sessions[1]
    assert missed.session == 2 and missed.table is None and not missed.played
    assert missed.table_points == 0 and missed.score == 0 and missed.place is None
    assert rows[1].table_points == 4 and rows[1].score == 10
    assert rows[1].best_session == 10  # only sessions played count for the best session
    assert rows[2].table_points == 2 + 2
    assert [c.session for c in rows[2].sessions] == [1, 2]


def test_a_table_without_result_gives_no_table_points_but_keeps_penalties():
    entrants = [entrant(i) for i in range(1, 5)]
    tables = [TableResult(1, 1, {1: 0, 2: 0, 3: 0, 4: -10}, counted=False)]
    rows = {r.player_id: r for r in rank_players(entrants, tables)}
    assert all(r.table_points == 0 for r in rows.values())
    assert rows[4].score == -10 and rows[4].sessions[0].place is None and rows[4].sessions[0].played


def test_session_cells_follow_the_given_session_numbers():
    rows = rank_players([entrant(1)], [TableResult(2, 3, {1: 5, 2: 0, 3: 0, 4: -5})], session_numbers=[1, 2])
    cells = rows[0].sessions
    assert [(c.session, c.table, c.place) for c in cells] == [(1, None, None), (2, 3, 1)]
    assert rows[0].cell(2).table_points == 4 and rows[0].cell(7) is None


def test_team_ranking_sums_members_table_points_then_score_and_shares_ranks():
    entrants = [entrant(1, team="Red"), entrant(2, team="Red"), entrant(3, team="Blue"), entrant(4, team="blue "),
                entrant(5, team="Green"), entrant(6, team="Green"), entrant(7), entrant(8, team="Red", ranked=False)]
    tables = [
        TableResult(1, 1, {1: 30, 3: 20, 5: -20, 7: -30}),   # 1: 4, 3: 2, 5: 1, 7: 0
        TableResult(1, 2, {2: -30, 4: 20, 6: 30, 8: -20}),   # 6: 4, 4: 2, 8(sub): 1, 2: 0
    ]
    teams = rank_teams(rank_players(entrants, tables))
    # exact expectations: Green 1+4=5, Blue 2+2=4 (score 40), Red 4+0=4 (score 0); substitute not counted
    assert [t.team for t in teams] == ["Green", "Blue", "Red"]
    assert [(t.table_points, t.score) for t in teams] == [(5, 10), (4, 40), (4, 0)]
    assert [t.rank for t in teams] == [1, 2, 3]
    assert teams[1].members == ("Player 03", "Player 04")  # "blue " joins "Blue"
    assert len(teams[2].members) == 2  # the substitute is no member in the ranking


def test_teams_equal_on_points_and_score_share_the_rank():
    entrants = [entrant(1, team="B"), entrant(2, team="A"), entrant(3), entrant(4)]
    teams = rank_teams(rank_players(entrants, [TableResult(1, 1, {1: 10, 2: 10, 3: -10, 4: -10})]))
    assert [(t.team, t.rank, t.rank_label) for t in teams] == [("A", 1, "1="), ("B", 1, "1=")]


# ----------------------------------------------------------------------------- properties

scores_4 = st.lists(st.integers(min_value=-300, max_value=300), min_size=4, max_size=4)


@given(scores_4)
def test_table_points_of_a_table_always_sum_to_7(values):
    points = points_of(dict(enumerate(values, start=1)))
    assert sum(points.values()) == 7
    # a better score never gets fewer points; equal scores get equal points
    for a in points:
        for b in points:
            if values[a - 1] > values[b - 1]:
                assert points[a] > points[b]
            if values[a - 1] == values[b - 1]:
                assert points[a] == points[b]


tie_break_orders = st.permutations(["firsts", "seconds", "best_session", "fewest_penalties"]).flatmap(
    lambda order: st.integers(min_value=0, max_value=4).map(lambda n: order[:n])
)


@settings(max_examples=60, deadline=None)
@given(
    sessions=st.lists(st.lists(st.integers(min_value=-3, max_value=3), min_size=8, max_size=8),
                      min_size=1, max_size=3),
    shuffle=st.randoms(use_true_random=False),
    tie_breaks=tie_break_orders,
    penalties=st.dictionaries(st.integers(min_value=1, max_value=8), st.integers(min_value=1, max_value=3)),
)
def test_order_is_a_total_preorder_consistent_with_the_key(sessions, shuffle, tie_breaks, penalties):
    entrants = [entrant(i) for i in range(1, 9)]
    tables = []
    for number, values in enumerate(sessions, start=1):
        ids = list(range(1, 9))
        shuffle.shuffle(ids)
        tables.append(TableResult(number, 1, {pid: values[k] for k, pid in enumerate(ids[:4])}))
        tables.append(TableResult(number, 2, {pid: values[k + 4] for k, pid in enumerate(ids[4:])}))
    rows = rank_players(entrants, tables, tie_breaks=tie_breaks, penalties=penalties)
    assert sorted(r.player_id for r in rows) == list(range(1, 9))
    assert sum(r.table_points for r in rows) == 7 * 2 * len(sessions)
    keys = [ranking_key(r, tie_breaks) for r in rows]
    for i, (a, ka) in enumerate(zip(rows, keys, strict=True)):
        assert a.rank == 1 + sum(1 for k in keys if k > ka)  # rank = 1 + number strictly better
        for b, kb in zip(rows[i + 1:], keys[i + 1:], strict=True):
            assert ka >= kb  # listed best first
            assert (a.rank == b.rank) == (ka == kb)
            if ka == kb:
                assert a.shared and b.shared
