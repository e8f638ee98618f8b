"""Types shared by the draw engine."""

from __future__ import annotations

Table = tuple[int, int, int, int]
"""Player ids in seat order East, South, West, North."""


class DrawError(ValueError):
    """A draw that cannot be made from the given players, substitutes and history."""
