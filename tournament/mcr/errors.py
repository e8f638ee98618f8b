"""The one exception type of the engine."""

from __future__ import annotations


class MCRError(ValueError):
    """A hand or context the engine refuses.

    ``code`` is a stable machine-readable identifier (``unknown_character``, ``digit_without_suit``,
    ``too_many_of_tile``, ``wrong_tile_count``, ``bad_meld``, ``bad_context``, ``not_winning`` ...),
    ``message`` a human sentence and ``position`` the 1-based character position in the hand text
    when the problem has one.
    """

    def __init__(self, code: str, message: str, position: int | None = None):
        self.code = code
        self.message = message
        self.position = position
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.position is None:
            return self.message
        return f"{self.message} (at position {self.position})"

    def __reduce__(self):
        return (type(self), (self.code, self.message, self.position))
