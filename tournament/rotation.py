"""The seat rotation of a session: the prevalent wind and every starting seat's seat wind in each of its
16 hands. Pure (no Flask, no database), so the printed score sheets and score entry share it.

The rotation of the rules (docs/rules/README.md, "A session") is decided here alone: everything that needs
a dealer, a seat wind or the prevalent wind asks :func:`hand_winds`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.draws.model import SEAT_WINDS

HANDS_PER_SESSION = 16  # four rounds of four hands

# Where each starting seat sits in each round, as the wind of its position (rows: starting seat; columns:
# the East, South, West and North rounds). Within a round the dealer passes to the right after every hand.
ROUND_POSITIONS: dict[str, tuple[str, str, str, str]] = {
    "E": ("E", "S", "N", "W"),
    "S": ("S", "E", "W", "N"),
    "W": ("W", "N", "E", "S"),
    "N": ("N", "W", "S", "E"),
}


@dataclass(frozen=True)
class HandWinds:
    number: int
    prevalent: str
    seat_winds: dict[str, str]  # starting seat -> seat wind in this hand

    @property
    def dealer(self) -> str:
        """The starting seat of the player who is East (the dealer) in this hand."""
        return next(start for start, wind in self.seat_winds.items() if wind == "E")


def hand_winds(number: int) -> HandWinds:
    """Prevalent wind and every starting seat's seat wind in hand `number` (1-16) of a session."""
    if not 1 <= number <= HANDS_PER_SESSION:
        raise ValueError(f"hand number {number} is outside 1-{HANDS_PER_SESSION}")
    round_index, hand_in_round = divmod(number - 1, 4)
    seat_winds = {}
    for start in SEAT_WINDS:
        position = SEAT_WINDS.index(ROUND_POSITIONS[start][round_index])
        seat_winds[start] = SEAT_WINDS[(position - hand_in_round) % 4]
    return HandWinds(number=number, prevalent=SEAT_WINDS[round_index], seat_winds=seat_winds)
