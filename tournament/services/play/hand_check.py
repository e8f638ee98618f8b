"""Check a claimed win with the fan engine: one verdict, the fans and a reason a referee can read.

Shared by the public hand checker, its JSON endpoint and score entry, so every screen says the same
thing about the same hand. Pure: no Flask, no database.

Verdicts:
    valid          a winning hand of at least 8 fan points (flowers not counted)
    under_minimum  a winning hand under 8 fan points: a false mahjong (the smaller penalty)
    not_winning    the tiles form no winning hand: a false mahjong (the larger penalty)
    invalid        the text or the win context cannot be read as a 14-tile hand, so it cannot be classified
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from tournament.mcr import WIN_CONTEXT_FIELDS, MCRError, WinContext, score_hand
from tournament.mcr.api import FLOWER_FAN, MINIMUM_POINTS
from tournament.mcr.rulesets import RULESETS
from tournament.mcr.wincontext import MAX_FLOWERS
from tournament.messages import Message, msg, msg_n


class Verdict(StrEnum):
    """The engine's word on a claimed win (the two false mahjongs are FalseMahjongKind's values)."""

    VALID = "valid"
    UNDER_MINIMUM = "under_minimum"
    NOT_WINNING = "not_winning"
    INVALID = "invalid"


HAND_TILES = 14
MAX_HAND_LENGTH = 200  # a 14-tile hand with spaces and brackets fits in well under 100 characters

# Words of the engine's context messages (code bad_context) and the flag each one blames.
_CONTEXT_FIELDS = {"replacement": "kong", "robbing": "kong", "last of its kind": "last_tile"}

# The reasons in the other languages (HandCheck.reason_message): one sentence per engine error code
# (tournament/mcr: notation.py, wincontext.py, rulesets.py). In English the engine's own sentence stays, as it
# names the very character or tile at fault.
CODE_MESSAGES = {
    "suit_without_digit": msg("A suit letter (m, p or s) has no tile numbers before it."),
    "digit_without_suit": msg("A tile number is not followed by a suit letter (m, s, p or z)."),
    "bad_tile": msg("The hand names a tile that does not exist."),
    "unknown_character": msg("The hand contains a character the notation does not use."),
    "set_after_tiles": msg("Declared sets must be written before the concealed tiles."),
    "bad_meld": msg("A declared set is not a chow, pung or kong, or its brackets do not match."),
    "bad_hand": msg("The hand must be a text."),
    "too_many_of_tile": msg("The hand holds a fifth copy of a tile (there are only four of each)."),
    "too_many_sets": msg("At most four declared sets."),
    "unknown_ruleset": msg("Unknown ruleset."),
}
# bad_context: the win context refused, by the flag the service blames
CONTEXT_MESSAGES = {
    "kong": msg("The Kong flag does not fit this hand: a win on a replacement tile needs a declared kong, "
                "and a robbed kong's tile can be neither in the hand twice nor the last of the wall."),
    "last_tile": msg("The winning tile cannot be the last of its kind: the hand holds another one."),
}
OTHER_MESSAGE = msg("The hand cannot be read.")
NOT_WINNING_REASON = msg("not a winning hand")


def _under_minimum(fan_points: int) -> Message:
    return msg_n("%(num)d point: under the %(minimum)d-point minimum, flowers not counted",
                 "%(num)d points: under the %(minimum)d-point minimum, flowers not counted",
                 fan_points, minimum=MINIMUM_POINTS)


def _tile_count(tiles: int) -> Message:
    return msg_n("%(num)d tile, %(expected)d expected", "%(num)d tiles, %(expected)d expected", tiles,
                 expected=HAND_TILES)


TOO_LONG = msg("the hand is too long: at most %(max)d characters", max=MAX_HAND_LENGTH)


@dataclass(frozen=True)
class FanLine:
    name: str
    points: int  # points of one occurrence
    count: int
    sets: tuple[str, ...]  # the sets the fan uses, in notation ("123m", "EEEE"); empty for hand-wide fans

    @property
    def total(self) -> int:
        return self.points * self.count


@dataclass(frozen=True)
class HandCheck:
    verdict: Verdict
    hand: str
    ruleset: str
    fans: tuple[FanLine, ...] = ()  # the engine's fans, flowers not included (see flower_points)
    fan_points: int = 0
    flower_points: int = 0
    total: int = 0  # fan points + flower points
    reason: str = ""  # empty for a valid win
    code: str = ""  # the engine's error code for "invalid" and "not_winning" ("wrong_tile_count" ...)
    field: str = ""  # the input to blame for "invalid": "hand", "kong", "last_tile", "ruleset" ...
    tiles: int | None = None  # tiles counted when the count is wrong (a kong counts 3)

    @property
    def is_win(self) -> bool:
        return self.verdict == Verdict.VALID

    @property
    def is_false_mahjong(self) -> bool:
        """A claimed win the engine could classify as no win (the tiles were readable)."""
        return self.verdict in (Verdict.UNDER_MINIMUM, Verdict.NOT_WINNING)

    @property
    def reason_message(self) -> Message | None:
        """The reason as a message the pages translate (tournament.messages), None for a valid win. Its
        English is `reason` itself, to the letter: the JSON and the command line say what they said."""
        if self.verdict == Verdict.VALID:
            return None
        if self.verdict == Verdict.UNDER_MINIMUM:
            return _under_minimum(self.fan_points)
        if self.verdict == Verdict.NOT_WINNING:
            return NOT_WINNING_REASON
        if self.code == "wrong_tile_count" and self.tiles is not None:
            return _tile_count(self.tiles)
        if self.code == "too_long":
            return TOO_LONG
        words = (CONTEXT_MESSAGES.get(self.field, OTHER_MESSAGE) if self.code == "bad_context"
                 else CODE_MESSAGES.get(self.code, OTHER_MESSAGE))
        return Message(words.template, english=self.reason or None)

    def to_json(self) -> dict:
        fans = [{"name": f.name, "points": f.points, "count": f.count, "sets": list(f.sets)} for f in self.fans]
        if self.flower_points:
            fans.append({"name": FLOWER_FAN, "points": 1, "count": self.flower_points, "sets": []})
        return {
            "verdict": self.verdict,
            "is_win": self.is_win,
            "hand": self.hand,
            "ruleset": self.ruleset,
            "fans": fans,
            "fan_points": self.fan_points,
            "flower_points": self.flower_points,
            "total": self.total,
            "minimum": MINIMUM_POINTS,
            "reason": self.reason,
            "code": self.code or None,
            "field": self.field or None,
            "tiles": self.tiles,
        }


def count_tiles(hand: str) -> int:
    """Tiles toward the 14 as the notation counts them: a declared set counts 3 (a kong too, its fourth
    tile is the replacement draw), every other digit or honour letter counts 1. Meant for text the parser
    read up to the tile count, so brackets are balanced."""
    count = 0
    in_set = False
    for ch in hand:
        if ch in "[{":
            in_set = True
            count += 3
        elif ch in "]}":
            in_set = False
        elif not in_set and (ch.isdigit() or ch in "ESWNCFP"):
            count += 1
    return count


def check_hand(hand: str, *, ruleset: str = "ema", **context: Any) -> HandCheck:
    """Classify a claimed win; `context` is WinContext's fields (self_drawn, seat_wind, flowers ...), their
    defaults WinContext's. Never raises for bad input: that is the "invalid" verdict with a reason."""
    hand = (hand or "").strip() if isinstance(hand, str) else ""
    if len(hand) > MAX_HAND_LENGTH:
        return HandCheck(Verdict.INVALID, hand[:MAX_HAND_LENGTH], str(ruleset), code="too_long", field="hand",
                         reason=str(TOO_LONG))
    try:
        result = score_hand(hand, WinContext(**context), ruleset)
    except MCRError as e:
        return _refused(hand, str(ruleset), e)
    fans = tuple(FanLine(f.name, f.points, f.count, tuple(f.sets)) for f in result.fans)
    checked = HandCheck(
        Verdict.VALID,
        hand,
        ruleset,
        fans=fans,
        fan_points=result.fan_points,
        flower_points=result.flower_points,
        total=result.total,
    )
    if result.meets_minimum:
        return checked
    return HandCheck(
        Verdict.UNDER_MINIMUM,
        hand,
        ruleset,
        fans=fans,
        fan_points=result.fan_points,
        flower_points=result.flower_points,
        total=result.total,
        reason=str(_under_minimum(result.fan_points)),
    )


def _refused(hand: str, ruleset: str, e: MCRError) -> HandCheck:
    if e.code == "not_winning":
        return HandCheck(Verdict.NOT_WINNING, hand, ruleset, reason=str(NOT_WINNING_REASON), code=e.code)
    if e.code == "wrong_tile_count":
        n = count_tiles(hand)
        return HandCheck(Verdict.INVALID, hand, ruleset, code=e.code, field="hand", tiles=n,
                         reason=str(_tile_count(n)))
    if e.code == "unknown_ruleset":
        return HandCheck(Verdict.INVALID, hand, ruleset, code=e.code, field="ruleset", reason=e.message)
    if e.code == "bad_context":
        blamed = next((f for words, f in _CONTEXT_FIELDS.items() if words in e.message), "")
        if not blamed:  # a flag value the engine refuses (bad wind, flowers out of range ...)
            blamed = e.message.split(" ", 1)[0] if e.message.split(" ", 1)[0] in WIN_CONTEXT_FIELDS else ""
        return HandCheck(Verdict.INVALID, hand, ruleset, code=e.code, field=blamed, reason=e.message)
    return HandCheck(Verdict.INVALID, hand, ruleset, code=e.code, field="hand", reason=str(e))


__all__ = [
    "MAX_FLOWERS",
    "MAX_HAND_LENGTH",
    "RULESETS",
    "FanLine",
    "HandCheck",
    "Verdict",
    "check_hand",
    "count_tiles",
]
