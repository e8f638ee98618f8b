"""The checker's query parameters: read strictly, one message per field, shared by the page and the JSON.

The hand and its flags live in the URL query (a GET form), so a player can share a checked hand.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from flask_babel import gettext

from tournament.draws.model import SEAT_WIND_NAMES, SEAT_WINDS
from tournament.i18n import N_
from tournament.mcr import WIN_FLAGS, WinContext
from tournament.mcr.rulesets import RULESETS
from tournament.services.play.hand_check import MAX_FLOWERS, MAX_HAND_LENGTH

FLAGS = WIN_FLAGS
# Labels in English, marked for the catalogues with N_ and translated where they are shown.
FLAG_LABELS = {
    "self_drawn": N_("Self-drawn"),
    "last_tile": N_("Last tile (the other three of the winning tile are visible)"),
    "wall_last": N_("Last of the wall (or the last discard)"),
    "kong": N_("Kong (won on a kong's replacement tile, or robbed a kong)"),
}
FLAG_SHORT_LABELS = {  # the same flags, named in an error message
    "self_drawn": N_("Self-drawn"),
    "last_tile": N_("Last tile"),
    "wall_last": N_("Last of the wall"),
    "kong": N_("Kong"),
}
WIND_LABELS = SEAT_WIND_NAMES  # one home: tournament.draws.model (a pure module: its names marked here)
_WIND_NAMES_FOR_CATALOGUES = (N_("East"), N_("South"), N_("West"), N_("North"))
RULESET_LABELS = {"ema": "EMA", "chinese": N_("Chinese")}
_TRUE = ("1", "true", "on", "yes")
_FALSE = ("", "0", "false", "off", "no")


@dataclass(frozen=True)
class CheckRequest(WinContext):
    """The hand checker's question: the engine's WinContext, the hand and the ruleset."""

    hand: str = ""
    ruleset: str = "ema"

    def flags(self) -> dict:
        """The keyword arguments of :func:`tournament.services.play.hand_check.check_hand`, hand excepted."""
        values = asdict(self)
        del values["hand"]
        return values

    def query(self) -> dict[str, str]:
        """The URL query that reproduces this check (the shareable link)."""
        return {
            "hand": self.hand,
            **{f: "1" if getattr(self, f) else "0" for f in FLAGS},
            "seat_wind": self.seat_wind,
            "prevalent_wind": self.prevalent_wind,
            "flowers": str(self.flowers),
            "ruleset": self.ruleset,
        }


def read_check_args(args) -> tuple[CheckRequest, dict[str, str]]:
    """The request read from a query mapping, and {field: message} for every value refused. Refused
    fields keep their default so the page can still be drawn around the messages."""
    errors: dict[str, str] = {}
    values: dict = {}

    hand = args.get("hand", "")
    if len(hand) > MAX_HAND_LENGTH:
        errors["hand"] = gettext("The hand is too long: at most %(max)d characters.", max=MAX_HAND_LENGTH)
    elif "\x00" in hand:
        errors["hand"] = gettext("The hand contains a character that cannot be read.")
    else:
        values["hand"] = hand.strip()

    for name in FLAGS:
        raw = args.get(name, "").strip().lower()
        if raw in _TRUE:
            values[name] = True
        elif raw not in _FALSE:
            errors[name] = gettext("%(flag)s: use 1 (yes) or 0 (no).", flag=gettext(FLAG_SHORT_LABELS[name]))

    for name in ("seat_wind", "prevalent_wind"):
        raw = args.get(name, "").strip().upper()
        if raw in SEAT_WINDS:
            values[name] = raw
        elif raw:
            if name == "seat_wind":
                errors[name] = gettext("Seat wind: use E, S, W or N.")
            else:
                errors[name] = gettext("Prevalent wind: use E, S, W or N.")

    raw = args.get("flowers", "").strip()
    if raw.isascii() and raw.isdigit() and int(raw) <= MAX_FLOWERS:
        values["flowers"] = int(raw)
    elif raw:
        errors["flowers"] = gettext("Flowers: a whole number from 0 to %(max)d.", max=MAX_FLOWERS)

    raw = args.get("ruleset", "").strip().lower()
    if raw in RULESETS:
        values["ruleset"] = raw
    elif raw:
        errors["ruleset"] = gettext("Ruleset: use one of %(names)s.", names=", ".join(RULESETS))

    return CheckRequest(**values), errors
