"""The `int` URL converter, bounded to what the database can hold.

Every id column is PostgreSQL's `integer`: binding 2^31 or more to a query is an "integer out of range"
error (a 500), and SQLite overflows at 2^63. Such an id cannot exist, so the URL matches no route: a 404
before any view or query runs, for every route present and future, pages and API alike.

The range is in the converter's regex, not only in `to_python`: werkzeug's router picks a rule by its
regex and does not try the others when `to_python` refuses, so `DELETE .../hands/2147483648` would be a
405 (the GET rule of the same shape "allows" other methods) instead of a 404.
"""

from __future__ import annotations

from flask import Flask
from werkzeug.routing import IntegerConverter, Map

from tournament.constants import MAX_ID, MIN_INT


def digits_at_most(bound: int, zero: bool = True) -> str:
    """A regex of the decimal numbers 0 (or 1) .. bound, leading zeros allowed: no number past the bound."""
    text = str(bound)
    choices = [rf"[1-9]\d{{0,{len(text) - 2}}}"] if len(text) > 1 else []  # fewer digits than the bound
    for i, digit in enumerate(text):
        low = 1 if i == 0 else 0
        if int(digit) > low:
            rest = len(text) - i - 1
            choices.append(text[:i] + f"[{low}-{int(digit) - 1}]" + (rf"\d{{{rest}}}" if rest else ""))
    choices.append(text)
    if zero:
        choices.append("0")
    return "0*(?:" + "|".join(sorted(set(choices), key=len, reverse=True)) + ")"


class DatabaseIntegerConverter(IntegerConverter):
    """`<int:x>` accepts 1 .. 2^31-1 (ids start at 1); `<int(signed=True):x>` accepts -2^31 .. 2^31-1.
    Explicit `min`/`max` still narrow the range; they cannot widen it past the database's."""

    def __init__(
        self,
        map: Map,
        fixed_digits: int = 0,
        min: int | None = None,
        max: int | None = None,
        signed: bool = False,
    ) -> None:
        floor = MIN_INT if signed else 1
        lowest = floor if min is None or min < floor else min
        highest = MAX_ID if max is None or max > MAX_ID else max
        super().__init__(map, fixed_digits=fixed_digits, min=lowest, max=highest, signed=signed)
        positive = digits_at_most(highest if highest > 0 else 0, zero=lowest <= 0)
        self.regex = f"(?:-{digits_at_most(-lowest)}|{positive})" if lowest < 0 else positive


def init_app(app: Flask) -> None:
    """Must run before the blueprints are registered: rules bind their converter when added."""
    app.url_map.converters["int"] = DatabaseIntegerConverter
