"""Appeals (issue 20 defect 8): filed for a player of the table while the session is in play or within the
tournament's appeal window after it finished (GB 3.12.2: 30 minutes), decided once, changing no score."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import func, select

from tests.helpers import VALID_22, add_players
from tournament.extensions import db
from tournament.models import Appeal, ScoreAction, ScoreChange
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.play import appeals, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.seating import lifecycle, substitutions

pytestmark = pytest.mark.postgres


def _finish(t):
    session = lifecycle.finish_session(t, 1, force=True)
    db.session.commit()
    return session


def _changes() -> int:
    return db.session.scalar(select(func.count()).select_from(ScoreChange))


def test_an_appeal_in_play_is_filed_open_and_listed(seated, referee):
    t, (east, *_) = seated
    before = _changes()
    appeal = appeals.file_appeal(t, 1, 1, 3, east, "  No Last Tile was given.  ", referee)
    db.session.commit()
    assert appeal.decision is None and appeal.text == "No Last Tile was given." and appeal.filed_by_id == referee.id
    assert [a.id for a in appeals.appeals_of(t)] == [appeal.id]
    row = appeals.appeal_json(appeal)
    assert (row["session"], row["table"], row["hand"], row["player_id"]) == (1, 1, 3, east)
    assert row["decision"] is None and row["decided_at"] is None and row["correction_id"] is None
    assert _changes() == before  # an appeal is no score change


def test_finishing_a_session_records_when_and_reopening_clears_it(seated):
    t, _ = seated
    session = _finish(t)
    assert session.finished_at is not None
    lifecycle.reopen_session(t, 1)
    assert play.get_session(t, 1).finished_at is None


def test_within_the_window_after_the_session_it_is_filed(seated, referee):
    t, (east, *_) = seated
    finished = _finish(t).finished_at
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Penalty", referee, now=finished + timedelta(minutes=30))
    assert appeal.id is not None and appeal.hand_number is None


def test_after_the_window_it_is_refused_with_the_time_it_closed(seated, referee):
    t, (east, *_) = seated
    finished = _finish(t).finished_at
    closes = finished + timedelta(minutes=30)
    with pytest.raises(ConflictError) as refused:
        appeals.file_appeal(t, 1, 1, None, east, "Penalty", referee, now=closes + timedelta(seconds=1))
    assert f"the appeal window closed at {closes:%H:%M}" in refused.value.message
    assert refused.value.status_code == 409
    assert db.session.scalar(select(func.count()).select_from(Appeal)) == 0


def test_the_window_is_the_tournaments_setting(seated, referee):
    t, (east, *_) = seated
    t.appeal_minutes = 0
    finished = _finish(t).finished_at
    with pytest.raises(ConflictError, match="closed"):
        appeals.file_appeal(t, 1, 1, None, east, "Penalty", referee, now=finished + timedelta(minutes=1))
    t.appeal_minutes = 240
    assert appeals.file_appeal(t, 1, 1, None, east, "Penalty", referee, now=finished + timedelta(hours=3))


def test_a_session_finished_before_finish_times_were_kept_takes_appeals(seated, referee):
    t, (east, *_) = seated
    session = _finish(t)
    session.finished_at = None  # a session finished before the column existed
    assert appeals.file_appeal(t, 1, 1, None, east, "Penalty", referee, now=session.drawn_at + timedelta(days=3))


def test_a_session_not_yet_in_play_takes_no_appeal(tournament, referee):
    from tournament.services.seating import draws as draw_service

    add_players(tournament, 4)
    draw_service.draw_next(tournament, seed=1)
    player = play.table_players(play.get_session(tournament, 1), 1)[0].player_id
    with pytest.raises(ConflictError, match="has not started") as refused:
        appeals.file_appeal(tournament, 1, 1, None, player, "x", referee)
    assert refused.value.field == "session"


@pytest.mark.parametrize("change, error, field", [
    ({"session_number": 2}, NotFound, "session"),
    ({"session_number": "1"}, ServiceError, "session"),
    ({"table_number": 9}, NotFound, "table"),
    ({"table_number": 0}, ServiceError, "table"),
    ({"hand_number": 17}, ServiceError, "hand"),
    ({"hand_number": 0}, ServiceError, "hand"),
    ({"hand_number": True}, ServiceError, "hand"),
    ({"player_id": 10**6}, ServiceError, "player_id"),
    ({"player_id": None}, ServiceError, "player_id"),
    ({"text": "   "}, ServiceError, "text"),
    ({"text": "x" * 2001}, ServiceError, "text"),
    ({"text": None}, ServiceError, "text"),
])
def test_bad_input_is_refused_naming_the_field(seated, referee, change, error, field):
    t, (east, *_) = seated
    args = {"session_number": 1, "table_number": 1, "hand_number": 2, "player_id": east, "text": "Appeal"}
    with pytest.raises(error) as refused:
        appeals.file_appeal(t, **{**args, **change}, user=referee)
    assert refused.value.field == field


def test_a_player_of_another_table_cannot_appeal_for_this_one(seated, referee):
    t, ids = seated
    other = play.table_players(play.get_session(t, 1), 2)[0].player_id
    with pytest.raises(ServiceError, match="did not sit at table 1") as refused:
        appeals.file_appeal(t, 1, 1, None, other, "Appeal", referee)
    assert refused.value.field == "player_id"


def test_a_substitute_appeals_for_the_hands_they_played(seated, referee):
    t, (east, south, *_) = seated
    [sub] = add_players(t, 1, substitute=True, start=50)
    substitutions.substitute(t, 1, 1, out_player_id=south, in_player_id=sub.id, from_hand=5, reason="ill",
                             user=referee)
    assert appeals.file_appeal(t, 1, 1, 5, sub.id, "Appeal", referee)
    assert appeals.file_appeal(t, 1, 1, None, sub.id, "Appeal", referee)
    assert appeals.file_appeal(t, 1, 1, 4, south, "Appeal", referee)
    for hand, player in ((4, sub.id), (5, south)):
        with pytest.raises(ServiceError, match=f"at hand {hand}"):
            appeals.file_appeal(t, 1, 1, hand, player, "Appeal", referee)


def test_an_upheld_appeal_points_at_the_correction_made_after_it(seated, referee, organiser):
    t, (east, south, west, north) = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=south, hand=VALID_22),
                       referee)
    scoring.enter_hand(t, 1, 1, HandData(number=2, result="draw"), referee)
    appeal = appeals.file_appeal(t, 1, 1, 1, south, "West discarded the winning tile, not me.", referee)
    scoring.correct_hand(t, 1, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=west,
                                              hand=VALID_22), referee)
    scoring.enter_hand(t, 1, 1, HandData(number=3, result="draw"), referee)  # another hand: not the correction
    correction = db.session.scalar(select(ScoreChange).where(ScoreChange.hand_number == 1)
                                   .order_by(ScoreChange.id.desc()).limit(1))
    before = _changes()
    decided = appeals.decide(t, appeal.id, "upheld", "West's discard.", organiser)
    db.session.commit()
    assert decided.decision == "upheld" and decided.decision_text == "West's discard."
    assert decided.decided_by_id == organiser.id and decided.decided_at is not None
    assert decided.correction_id == correction.id and correction.action == ScoreAction.HAND_CORRECTED
    assert _changes() == before


def test_the_correction_can_be_named_and_must_belong_to_the_session(two_sessions_played, referee):
    t, ids = two_sessions_played
    appeal = appeals.file_appeal(t, 2, 2, 1, ids["c"], "Appeal", referee)
    db.session.commit()
    other_session = db.session.scalar(select(ScoreChange.id).where(ScoreChange.session_id != appeal.session_id))
    with pytest.raises(ServiceError) as refused:
        appeals.decide(t, appeal.id, "upheld", "ok", referee, score_change_id=other_session)
    assert refused.value.field == "score_change_id"
    own = db.session.scalar(select(ScoreChange.id).where(ScoreChange.session_id == appeal.session_id))
    assert appeals.decide(t, appeal.id, "upheld", "ok", referee, score_change_id=own).correction_id == own


def test_a_rejected_appeal_points_at_nothing_and_a_second_decision_is_a_conflict(seated, referee):
    t, (east, *_) = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), referee)
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Appeal", referee)
    scoring.enter_hand(t, 1, 1, HandData(number=2, result="draw"), referee)
    assert appeals.decide(t, appeal.id, "rejected", "The ruling stands.", referee).correction_id is None
    db.session.commit()
    for decision in ("upheld", "rejected"):
        with pytest.raises(ConflictError, match="already rejected"):
            appeals.decide(t, appeal.id, decision, "Changed my mind.", referee)
    assert db.session.get(Appeal, appeal.id).decision_text == "The ruling stands."


@pytest.mark.parametrize("decision, text, field", [("maybe", "x", "decision"), (None, "x", "decision"),
                                                   ("upheld", "", "text"), ("upheld", "x" * 2001, "text")])
def test_a_decision_needs_upheld_or_rejected_and_its_reasons(seated, referee, decision, text, field):
    t, (east, *_) = seated
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Appeal", referee)
    with pytest.raises(ServiceError) as refused:
        appeals.decide(t, appeal.id, decision, text, referee)
    assert refused.value.field == field and appeal.decision is None


def test_an_appeal_of_another_tournament_is_not_found(seated, referee, organiser):
    from tests.helpers import make_tournament

    t, (east, *_) = seated
    appeal = appeals.file_appeal(t, 1, 1, None, east, "Appeal", referee)
    other = make_tournament(organiser, name="Elsewhere")
    for appeal_id in (appeal.id, 10**6, "1", None):
        with pytest.raises(NotFound):
            appeals.decide(other, appeal_id, "upheld", "x", referee)
