"""A checked hand's reason as a message (HandCheck.reason_message): in English the check's own reason to the
letter (the JSON and the command line), in the other languages one catalogue sentence per verdict and code."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

from tournament.i18n.service_messages import translate
from tournament.services.play.hand_check import CODE_MESSAGES, CONTEXT_MESSAGES, check_hand

PURE_STRAIGHT = "123456789m123s5p5p"


@pytest.mark.parametrize(
    ("hand", "flags", "template"),
    [
        ("[234m][456p][678s]22s23s4s", {}, "%(num)d point: under the %(minimum)d-point minimum, flowers not counted"),
        ("123m456p789s2345sE", {}, "not a winning hand"),
        ("1m2m3m", {}, "%(num)d tile, %(expected)d expected"),
        ("1" * 201, {}, "the hand is too long: at most %(max)d characters"),
        ("123456789m123s5x5p", {}, CODE_MESSAGES["unknown_character"].template),
        ("123456789m[123s]5p5p", {}, CODE_MESSAGES["set_after_tiles"].template),
        (PURE_STRAIGHT, {"kong": True}, CONTEXT_MESSAGES["kong"].template),
        (PURE_STRAIGHT, {"ruleset": "foo"}, CODE_MESSAGES["unknown_ruleset"].template),
    ],
)
def test_the_reason_message_is_the_reason_in_english(hand, flags, template):
    check = check_hand(hand, **flags)
    reason = check.reason_message
    assert reason is not None and reason == check.reason and reason.template == template
    assert pickle.loads(pickle.dumps(reason)) == check.reason  # a cached refusal keeps the engine's sentence


def test_a_valid_win_has_no_reason_message():
    assert check_hand(PURE_STRAIGHT).reason_message is None


def test_the_reason_reads_in_finnish_and_keeps_the_engines_sentence_in_english(app):
    reason = check_hand("123456789m123s5x5p").reason_message
    with app.test_request_context("/?lang=fi"):
        app.preprocess_request()
        assert translate(reason) == "Kädessä on merkki, jota merkintätapa ei käytä."
    with app.test_request_context("/?lang=en"):
        app.preprocess_request()
        assert translate(reason) == "unknown character 'x' (at position 16)"


def test_the_hand_check_stays_free_of_flask():
    code = "import sys, tournament.services.play.hand_check; print('flask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
