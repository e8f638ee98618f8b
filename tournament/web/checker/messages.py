"""The checker's verdicts in the reader's language.

The service (tournament.services.hand_check) and the engine word their reasons in English, for the JSON and
the command line. The pages say them again from the verdict and the engine's error code: in full where the
check carries every number the sentence needs, else one sentence per code. An English reader keeps the
engine's own sentence there, which also names the very character or tile at fault.
"""

from __future__ import annotations

from flask_babel import gettext, ngettext

from tournament.i18n import DEFAULT_LANGUAGE, N_, current_language
from tournament.mcr.api import MINIMUM_POINTS
from tournament.services.hand_check import HAND_TILES, MAX_HAND_LENGTH, HandCheck, Verdict

# One sentence per engine error code (tournament/mcr: notation.py, wincontext.py, rulesets.py).
CODE_MESSAGES = {
    "suit_without_digit": N_("A suit letter (m, p or s) has no tile numbers before it."),
    "digit_without_suit": N_("A tile number is not followed by a suit letter (m, s, p or z)."),
    "bad_tile": N_("The hand names a tile that does not exist."),
    "unknown_character": N_("The hand contains a character the notation does not use."),
    "set_after_tiles": N_("Declared sets must be written before the concealed tiles."),
    "bad_meld": N_("A declared set is not a chow, pung or kong, or its brackets do not match."),
    "bad_hand": N_("The hand must be a text."),
    "too_many_of_tile": N_("The hand holds a fifth copy of a tile (there are only four of each)."),
    "too_many_sets": N_("At most four declared sets."),
    "unknown_ruleset": N_("Unknown ruleset."),
}
# bad_context: the win context refused, by the flag the service blames
CONTEXT_MESSAGES = {
    "kong": N_("The Kong flag does not fit this hand: a win on a replacement tile needs a declared kong, "
               "and a robbed kong's tile can be neither in the hand twice nor the last of the wall."),
    "last_tile": N_("The winning tile cannot be the last of its kind: the hand holds another one."),
}
OTHER_MESSAGE = N_("The hand cannot be read.")


def reason_text(result: HandCheck) -> str:
    """Why the hand is no win (or cannot be checked), for the reader; '' for a valid win."""
    if result.verdict == Verdict.VALID:
        return ""
    if result.verdict == Verdict.UNDER_MINIMUM:
        return ngettext("%(num)d point: under the %(minimum)d-point minimum, flowers not counted",
                        "%(num)d points: under the %(minimum)d-point minimum, flowers not counted",
                        result.fan_points, minimum=MINIMUM_POINTS)
    if result.verdict == Verdict.NOT_WINNING:
        return gettext("not a winning hand")
    if result.code == "wrong_tile_count" and result.tiles is not None:
        return ngettext("%(num)d tile, %(expected)d expected", "%(num)d tiles, %(expected)d expected",
                        result.tiles, expected=HAND_TILES)
    if result.code == "too_long":
        return gettext("the hand is too long: at most %(max)d characters", max=MAX_HAND_LENGTH)
    if current_language() == DEFAULT_LANGUAGE and result.reason:
        return result.reason
    if result.code == "bad_context":
        return gettext(CONTEXT_MESSAGES.get(result.field, OTHER_MESSAGE))
    return gettext(CODE_MESSAGES.get(result.code, OTHER_MESSAGE))
