"""Types shared by the draw modules."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

Table = tuple[int, int, int, int]
"""Player ids in seat order East, South, West, North."""

Rounds = Sequence[Sequence[Sequence[int]]]
"""Sessions (rounds) of tables of players, read only: player ids, or the internal indices 0..n-1 of a draw."""

RoundList = list[list[list[int]]]
"""Rounds built or changed in place (the search works on these)."""

Plan = tuple[tuple[Table, ...], ...]
"""Sessions of tables as the caches keep them (hashable)."""

# The one home of the seat winds: seat order at a table, and their names for people.
SEAT_WINDS = ("E", "S", "W", "N")
SEAT_WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
WIND_ORDER = {wind: i for i, wind in enumerate(SEAT_WINDS)}  # sort key: E, S, W, N


class DrawError(ValueError):
    """A draw that cannot be made from the given players, substitutes and history."""


@dataclass(frozen=True)
class Entrants:
    """Who a draw seats, and whom it keeps apart.

    ``players``: the active players now (withdrawn players left out, late players in); ``substitutes``: who may
    fill the last tables, in order of preference (seated only when the players are not a multiple of four);
    ``groups``: player -> team/club key, members of one group kept apart where the sizes allow; ``fixed``: a
    player with access needs -> the table number they keep (1 is the first table); ``teams_first``: no two
    members of a group at a table comes before no repeat opponents (a team event), else after."""

    players: Sequence[int]
    substitutes: Sequence[int] = ()
    groups: Mapping[int, Hashable] | None = None
    fixed: Mapping[int, int] | None = None
    teams_first: bool = False
