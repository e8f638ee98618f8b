"""Types shared by the draw engine."""

from __future__ import annotations

Table = tuple[int, int, int, int]
"""Player ids in seat order East, South, West, North."""

# The one home of the seat winds: seat order at a table, and their names for people.
SEAT_WINDS = ("E", "S", "W", "N")
SEAT_WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}
WIND_ORDER = {wind: i for i, wind in enumerate(SEAT_WINDS)}  # sort key: E, S, W, N


class DrawError(ValueError):
    """A draw that cannot be made from the given players, substitutes and history."""
