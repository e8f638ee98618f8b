"""The checker's verdicts in the reader's language.

The reasons are worded once, below the pages, as messages (tournament.services.play.hand_check:
``HandCheck.reason_message``, one sentence per verdict and engine error code), so the score entry refusals
that quote a reason say it the same way. An English reader keeps the engine's own sentence, which also names
the very character or tile at fault.
"""

from __future__ import annotations

from tournament.i18n.service_messages import translate
from tournament.services.play.hand_check import HandCheck


def reason_text(result: HandCheck) -> str:
    """Why the hand is no win (or cannot be checked), for the reader; '' for a valid win."""
    reason = result.reason_message
    return "" if reason is None else str(translate(reason))
