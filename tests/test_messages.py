"""A service's message is its English sentence, and remembers how it was made (tournament.messages)."""

from __future__ import annotations

import json
import pickle

import pytest

from tournament.messages import ACTION_WORDS, STATUS_WORDS, Message, action_word, msg, msg_n, status_word
from tournament.models import (
    FalseMahjongKind,
    HandResult,
    HandStatus,
    PlayerStatus,
    ScoreAction,
    SessionStatus,
    SubstitutionReason,
)
from tournament.services.core.errors import ConflictError, ServiceError
from tournament.services.play.clock import ClockPhase


def test_a_message_is_the_english_sentence_filled_in():
    message = msg("Hand %(number)s is already entered at table %(table)s.", number=3, table=2)
    assert message == "Hand 3 is already entered at table 2."
    assert str(message) == "Hand 3 is already entered at table 2." and isinstance(message, str)
    assert message.template == "Hand %(number)s is already entered at table %(table)s."
    assert message.params == {"number": 3, "table": 2}
    assert message.plural is None and message.count is None


def test_a_message_without_values_keeps_its_percent_signs():
    assert msg("100% sure.") == "100% sure." and msg("100% sure.").params == {}


def test_a_plural_message_picks_the_form_by_its_count():
    one = msg_n("%(num)d row has problems.", "%(num)d rows have problems.", 1)
    many = msg_n("%(num)d row has problems.", "%(num)d rows have problems.", 3)
    assert (one, many) == ("1 row has problems.", "3 rows have problems.")
    assert many.template == "%(num)d row has problems." and many.plural == "%(num)d rows have problems."
    assert many.count == 3 and many.params == {"num": 3}
    with pytest.raises(TypeError):
        Message("%(num)d row", plural="%(num)d rows")


def test_a_message_inside_a_message_reads_in_english():
    where = msg("at table %(table)s %(after)s", table=1, after=msg("during hand %(hand)s", hand=6))
    outer = msg("Time was called %(where)s: hand %(number)s was not played.", where=where, number=7)
    assert outer == "Time was called at table 1 during hand 6: hand 7 was not played."
    assert isinstance(outer.params["where"], Message)


def test_a_refusal_keeps_the_message_and_the_json_and_pickle_see_the_english():
    error = ConflictError(msg("Session %(number)s is not finished.", number=2), field="session")
    assert error.message == "Session 2 is not finished." and isinstance(error.message, Message)
    assert error.errors == {"session": error.message} and str(error) == "Session 2 is not finished."
    assert json.dumps({"error": error.message}) == '{"error": "Session 2 is not finished."}'
    again = pickle.loads(pickle.dumps(error.message))
    assert again == error.message and again.template == error.message.template and again.params == {"number": 2}
    assert ServiceError("plain text").message == "plain text"  # a plain str still works


def test_status_words_are_messages_for_known_statuses_only():
    assert status_word("in_play") == "in play" and isinstance(status_word("in_play"), Message)
    assert status_word("something_else") == "something else" and not isinstance(status_word("something_else"), Message)


def test_one_table_words_every_status_the_pages_and_the_services_name():
    statuses = {*SessionStatus, *HandStatus, *FalseMahjongKind, *SubstitutionReason, *PlayerStatus, *ClockPhase,
                *(set(HandResult) - {HandResult.WIN})}
    assert statuses == set(STATUS_WORDS)
    assert all(isinstance(status_word(s), Message) for s in statuses)
    assert status_word(SubstitutionReason.LEFT) == "left the table" and status_word(HandStatus.PENDING) == "pending"


def test_every_score_action_has_its_words_and_nothing_else_has():
    assert set(ACTION_WORDS) == {a.value for a in ScoreAction}
    assert action_word(ScoreAction.HAND_NOT_SCORED) == "hand not scored (time called)"
    assert isinstance(action_word(ScoreAction.SUBSTITUTION), Message)
    assert len({str(words) for words in ACTION_WORDS.values()}) == len(ScoreAction)  # read back unambiguously
