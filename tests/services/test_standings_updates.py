"""The standings are brought up to date from the last ones (only the tables with new score changes are read
again): after any sequence of score-entry writes they must equal the standings computed afresh, a change
that commits after one with a higher id must not be missed, nor a hand written while its session finishes."""

from __future__ import annotations

import random
import threading
import time

import pytest
from sqlalchemy import update

from tests.web.race_harness import POSTGRES_ONLY
from tournament.extensions import db
from tournament.models import ScoreChange, Tournament
from tournament.services import ConflictError
from tournament.services.play import penalties, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.results import standings
from tournament.services.seating import lifecycle

pytestmark = pytest.mark.postgres

VALID_22 = "123456789m123s5p5p"  # 22 fan points on a discard, 24 self-drawn


def table_ids(t, table: int) -> list[int]:
    return [sp.player_id for sp in play.table_players(play.get_session(t, 1), table)]


def fresh(t) -> standings.Standings:
    """The standings computed from all the facts, read afresh (no earlier computation used)."""
    return standings.compute(t, standings.facts.read(t))


def assert_same(got: standings.Standings, expected: standings.Standings) -> None:
    assert got.rows == expected.rows
    assert got.team_rows == expected.team_rows
    assert got.session_numbers == expected.session_numbers


def random_write(t, rng: random.Random, given: list[int]) -> None:
    """One score-entry write at a random table: a hand entered, corrected or deleted, totals entered or
    cleared, a penalty given or cancelled."""
    table = rng.randint(1, 3)
    players = table_ids(t, table)
    entered = sorted(h.number for h in scoring.table_sheet(t, 1, table).rows if h.hand is not None)
    kind = rng.choice(["enter", "enter", "enter", "correct", "delete", "totals", "clear", "penalty", "cancel"])
    winner = rng.choice(players)
    discarder = rng.choice([None, *[p for p in players if p != winner]])
    try:
        if kind == "enter":
            number = (entered[-1] + 1) if entered else 1
            scoring.enter_hand(t, 1, table, HandData(number=number, result="win", winner_id=winner,
                                                       discarder_id=discarder, hand=VALID_22), None)
        elif kind == "correct" and entered:
            number = rng.choice(entered)
            data = HandData(number=number, result=rng.choice(["win", "draw"]), winner_id=winner,
                            discarder_id=discarder, hand=VALID_22)
            if data.result == "draw":
                data = HandData(number=number, result="draw")
            scoring.correct_hand(t, 1, table, number, data, None)
        elif kind == "delete" and entered:
            scoring.delete_hand(t, 1, table, rng.choice(entered), None)
        elif kind == "totals" and not entered:
            scores = [rng.randint(-60, 60) for _ in range(3)]
            scoring.enter_totals(t, 1, table, dict(zip(players, [*scores, -sum(scores)], strict=True)), None)
        elif kind == "clear":
            scoring.clear_totals(t, 1, table, None)
        elif kind == "penalty":
            given.append(penalties.give_penalty(t, player_id=winner, session_number=1, amount=rng.choice([5, 10]),
                                                reason="noise", user=None).id)
        elif kind == "cancel" and given:
            penalties.cancel_penalty(t, given.pop(rng.randrange(len(given))), "a mistake", None)
        db.session.commit()
    except ConflictError:  # hands on a totals table, say: nothing written
        db.session.rollback()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_standings_brought_up_to_date_equal_the_standings_computed_afresh(teams_in_play, updates, seed):
    t = teams_in_play
    rng = random.Random(seed)
    given: list[int] = []
    for _ in range(40):
        random_write(t, rng, given)
        assert_same(standings.standings(t), fresh(t))
    # The comparison would be empty if every computation had read everything afresh.
    assert updates["updated"] >= 20


def test_a_change_committed_after_one_with_a_higher_id_is_not_missed(teams_in_play, updates):
    t = teams_in_play
    e, s, w, n = table_ids(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=e, discarder_id=s, hand=VALID_22), None)
    db.session.commit()
    # Table 1's change gets a high id, as if a change numbered before it were still to commit.
    db.session.execute(update(ScoreChange).values(id=1000))
    db.session.commit()
    first = standings.standings(t)
    assert_same(first, fresh(t))

    e2, s2, _, _ = table_ids(t, 2)
    scoring.enter_hand(t, 1, 2, HandData(number=1, result="win", winner_id=e2, discarder_id=s2, hand=VALID_22),
                       None)
    db.session.commit()
    # ... and here it is: table 2's change, with the lower id, commits after table 1's was seen.
    db.session.execute(update(ScoreChange).where(ScoreChange.id != 1000).values(id=500))
    db.session.commit()
    after = standings.standings(t)
    assert after.rows != first.rows
    assert_same(after, fresh(t))
    assert {row.player_id: row.score for row in after.rows}[e2] > 0


@POSTGRES_ONLY
def test_finishing_a_session_waits_for_the_hand_being_written(app, teams_in_play):
    """A hand written while the organiser finishes the session is stored while the session is still in play,
    never after the finish (where the change marker, which follows the sessions in play, would not see it)."""
    t_id = teams_in_play.id
    e, s, _, _ = table_ids(teams_in_play, 1)
    db.session.commit()
    written, moments = threading.Event(), {}

    def write_hand() -> None:
        with app.app_context():
            t = db.session.get(Tournament, t_id)
            scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=e, discarder_id=s,
                                                 hand=VALID_22), None)
            written.set()  # written, not committed: the finish starts now
            time.sleep(0.5)
            moments["hand committed"] = time.monotonic()
            db.session.commit()

    def finish() -> None:
        written.wait(5)
        with app.app_context():
            lifecycle.finish_session(db.session.get(Tournament, t_id), 1, force=True)
            db.session.commit()
            moments["session finished"] = time.monotonic()

    threads = [threading.Thread(target=write_hand), threading.Thread(target=finish)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert moments["session finished"] > moments["hand committed"]
    db.session.expire_all()
    assert_same(standings.standings(teams_in_play), fresh(teams_in_play))
    assert {row.player_id: row.score for row in standings.standings(teams_in_play).rows}[e] > 0
