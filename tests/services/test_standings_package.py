"""The standings package's seams: the change marker's named parts, the one cache module with one `clear()`, the
rankings kept under every input of the ranking, and the one writer of score changes the marker follows."""

from __future__ import annotations

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import ScoreAction, ScoreChange
from tournament.services.play import penalties, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.results import progress, standings
from tournament.services.results.standings import cache
from tournament.services.results.standings.marker import ChangeMarker

VALID_22 = "123456789m123s5p5p"  # 22 fan points on a discard


def table_ids(t, table: int) -> list[int]:
    return [sp.player_id for sp in play.table_players(play.get_session(t, 1), table)]


def test_the_marker_names_its_parts_and_each_part_moves_with_its_own_change(in_play):
    t = in_play
    before = standings.change_marker(t.id)
    assert isinstance(before, ChangeMarker) and before.changes == 0 and before.last_change == 0
    e, s, w, n = table_ids(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=e, discarder_id=s, hand=VALID_22), None)
    db.session.commit()
    after_hand = standings.change_marker(t.id)
    assert after_hand.changes == 1 and after_hand.last_change > 0
    assert after_hand.seating == before.seating and after_hand.penalty_part == before.penalty_part
    assert standings.seating_marker(after_hand) == after_hand.seating
    penalties.give_penalty(t, player_id=w, session_number=1, amount=5, reason="slow play", user=None)
    db.session.commit()
    after_penalty = standings.change_marker(t.id)
    assert after_penalty.penalty_part != after_hand.penalty_part and after_penalty.changes == 2
    assert after_penalty.seating == before.seating
    t.name = "Renamed"
    db.session.commit()
    assert standings.change_marker(t.id).tournament_version > after_penalty.tournament_version


def test_every_score_write_records_one_score_change(in_play):
    t = in_play
    e, s, w, n = table_ids(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=e, discarder_id=s, hand=VALID_22), None)
    scoring.delete_hand(t, 1, 1, 1, None)
    penalty = penalties.give_penalty(t, player_id=w, session_number=1, amount=5, reason="slow play", user=None)
    penalties.cancel_penalty(t, penalty.id, "a mistake", None)
    db.session.commit()
    actions = db.session.scalars(select(ScoreChange.action).order_by(ScoreChange.id)).all()
    assert actions == [ScoreAction.HAND_ENTERED, ScoreAction.HAND_DELETED, ScoreAction.PENALTY_GIVEN, ScoreAction.PENALTY_CANCELLED]
    assert standings.change_marker(t.id).changes == db.session.scalar(select(func.count(ScoreChange.id))) == 4


def test_one_clear_forgets_the_standings_and_the_rankings(in_play):
    t = in_play
    standings.standings(t)
    progress.progress(t)
    assert cache.rankings and cache.standings_lookup((t.id, *standings.change_marker(t.id)))[0] is not None
    standings.clear_caches()
    assert not cache.rankings
    assert cache.standings_lookup((t.id, *standings.change_marker(t.id))) == (None, None)


def test_every_input_of_a_ranking_is_in_its_key(in_play):
    t = in_play
    e, s, w, n = table_ids(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=e, discarder_id=s, hand=VALID_22), None)
    db.session.commit()
    known = standings.facts.read(t)
    inputs = cache.RankingInputs(
        entrants=[standings.facts.entrant(p, set()) for p in known.players], tables=known.table_results(),
        table_points=[4, 2, 1, 0], tie_breaks=[], penalties={}, session_numbers=(1,),
    )
    other = {"entrants": inputs.entrants[:-1], "tables": inputs.tables[:1], "table_points": [3, 2, 1, 0],
             "tie_breaks": ["firsts"], "penalties": {e: 5}, "session_numbers": (1, 2)}
    assert set(other) == set(cache.RankingInputs._fields)  # a new input needs its line here too
    key = cache.ranking_key(inputs)
    for name, value in other.items():
        assert cache.ranking_key(inputs._replace(**{name: value})) != key, name


def test_the_rank_history_follows_a_change_of_table_points(in_play):
    """Changed settings give a new ranking, not the one kept for the old ones."""
    t = in_play
    e, s, w, n = table_ids(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=e, discarder_id=s, hand=VALID_22), None)
    db.session.commit()
    top = progress.progress(t).after[1][0]
    assert top.player_id == e and top.table_points == 4
    t.table_points = [8, 4, 2, 0]
    db.session.commit()
    assert progress.progress(t).after[1][0].table_points == 8
