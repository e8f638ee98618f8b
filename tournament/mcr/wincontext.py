"""The win context: validated flags and winds (:func:`make_context`), the fans they give, and the
held-four test of the waits."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .errors import MCRError
from .notation import ParsedHand
from .setkinds import KONG
from .tiles import ALL_CODES, WIND_INDEX, code

_new_tuple = tuple.__new__
MAX_FLOWERS = 8  # the eight flower and season tiles
# Robbing the Kong (kong on a discard win) with Last Tile Claim (wall_last on a discard win): the robbed tile
# is added to a kong, not discarded, and no kong can be made once the wall's last tile is drawn (no replacement).
ROBBED_LAST_CLAIM_MESSAGE = (
    "kong and wall_last cannot both be set on a win that is not self-drawn: Robbing the Kong and Last Tile"
    " Claim do not go together (a robbed kong tile is no discard, and no kong can be made on the last tile)"
)


class Context(NamedTuple):  # a tuple: built once per hand, cheaply (see make_context)
    self_drawn: bool
    last_tile: bool
    wall_last: bool
    kong: bool
    seat: int  # 27..30
    prevalent: int
    flowers: int


def _check_context_values(self_drawn, last_tile, wall_last, kong, seat_wind, prevalent_wind, flowers) -> None:
    for name, v in (("self_drawn", self_drawn), ("last_tile", last_tile), ("wall_last", wall_last), ("kong", kong)):
        if not isinstance(v, bool):
            raise MCRError("bad_context", f"{name} must be true or false, not {v!r}")
    for name, v in (("seat_wind", seat_wind), ("prevalent_wind", prevalent_wind)):
        if not isinstance(v, str) or v not in WIND_INDEX:
            raise MCRError("bad_context", f"{name} must be one of E, S, W, N, not {v!r}")
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= MAX_FLOWERS:
        raise MCRError("bad_context", f"flowers must be a whole number from 0 to {MAX_FLOWERS}, not {flowers!r}")


def make_context(
    p: ParsedHand,
    self_drawn=False,
    last_tile=False,
    wall_last=False,
    kong=False,
    seat_wind="E",
    prevalent_wind="E",
    flowers=0,
) -> Context:
    if not (  # valid input passes this one test; otherwise report the first problem, in order
        self_drawn.__class__ is last_tile.__class__ is wall_last.__class__ is kong.__class__ is bool
        and seat_wind.__class__ is str and seat_wind in WIND_INDEX
        and prevalent_wind.__class__ is str and prevalent_wind in WIND_INDEX
        and flowers.__class__ is int and 0 <= flowers <= MAX_FLOWERS
    ):
        _check_context_values(self_drawn, last_tile, wall_last, kong, seat_wind, prevalent_wind, flowers)
    return known_context(p, self_drawn, last_tile, wall_last, kong, 27 + WIND_INDEX[seat_wind],
                         27 + WIND_INDEX[prevalent_wind], flowers)


def known_context(p: ParsedHand, self_drawn: bool, last_tile: bool, wall_last: bool, kong: bool, seat: int,
                  prevalent: int, flowers: int) -> Context:
    """:func:`make_context` for values already known to be valid (flags as bools, the winds as tiles 27..30,
    flowers 0..8, as the CLI's usual input line gives them): only the checks against the hand are left."""
    if kong or last_tile:
        _check_against_hand(p, self_drawn, last_tile, wall_last, kong)
    # the tuple built directly: a named tuple's own __new__ is a Python function
    return _new_tuple(Context, (self_drawn, last_tile, wall_last, kong, seat, prevalent, flowers))


def _check_against_hand(p: ParsedHand, self_drawn: bool, last_tile: bool, wall_last: bool, kong: bool) -> None:
    if kong and wall_last and not self_drawn:
        raise MCRError("bad_context", ROBBED_LAST_CLAIM_MESSAGE)
    w = p.win_tile
    if kong and self_drawn and not any(m.kind == KONG for m in p.melds):
        raise MCRError("bad_context", "a win on a kong's replacement tile needs a declared kong in the hand")
    if kong and not self_drawn:
        others = p.counts()[w] - 1
        if others:
            raise MCRError(
                "bad_context",
                f"robbing a kong of {code(w)} is impossible when the hand holds another {code(w)}"
                " (the other three are in the robbed kong)",
            )
    if last_tile and w in p.concealed:
        raise MCRError(
            "bad_context",
            f"the winning {code(w)} cannot be the last of its kind: the hand hides another {code(w)}",
        )


@lru_cache(maxsize=4096)
def context_fans(self_drawn: bool, wall_last: bool, kong: bool, last_tile: bool, open_melds: bool,
                  win: int) -> dict:
    """The fans of the win context (the same for every reading; Melded Hand is added by the caller).
    The dict is shared: readings copy it (``_Hand._start``) and never change it."""
    w = (ALL_CODES[win],)
    d = {}
    if not open_melds:
        d["Fully Concealed Hand" if self_drawn else "Concealed Hand"] = (1, ())
    if self_drawn:
        d["Self-Drawn"] = (1, w)
        if wall_last:
            d["Last Tile Draw"] = (1, w)
        if kong:
            d["Out with Replacement Tile"] = (1, w)
    else:
        if wall_last:
            d["Last Tile Claim"] = (1, w)
        if kong:
            d["Robbing the Kong"] = (1, w)
    if last_tile:
        d["Last Tile"] = (1, w)
    return d



def held_four_before_win(full: tuple[int, ...], win: int, t: int) -> bool:
    """Whether the hand held all four copies of ``t`` before the winning tile came in (``full``: the
    counts of the whole 14-tile hand, declared sets included)."""
    return full[t] - (t == win) >= 4

