"""MCR (Mahjong Competition Rules, "Chinese Official", 81 fans) scoring engine.

Pure Python, no Flask, no database. See RULINGS.md for the readings chosen where sources differ.
"""

from .api import (
    WIN_CONTEXT_FIELDS,
    WIN_FLAGS,
    FanHit,
    ScoredHand,
    WinContext,
    classify_claim,
    score_hand,
    winning_tiles,
)
from .errors import MCRError
from .fans import FAN_BY_NAME, FANS, Fan
from .notation import Meld, ParsedHand, parse_hand
from .rulesets import RULESETS
from .settlement import settle_false_mahjong, settle_win

__all__ = [
    "FANS",
    "FAN_BY_NAME",
    "RULESETS",
    "WIN_CONTEXT_FIELDS",
    "WIN_FLAGS",
    "Fan",
    "FanHit",
    "MCRError",
    "Meld",
    "ParsedHand",
    "ScoredHand",
    "WinContext",
    "classify_claim",
    "parse_hand",
    "score_hand",
    "settle_false_mahjong",
    "settle_win",
    "winning_tiles",
]
