"""Text helpers shared by every layer (services, pdf, web). Pure: no Flask, no database."""

from __future__ import annotations

import unicodedata
from fractions import Fraction
from functools import lru_cache

# Ł/ł, Ø/ø and friends have no Unicode decomposition: the usual ones are mapped by hand.
_NO_DECOMPOSITION = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss",
                                   "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th"})


@lru_cache(maxsize=16384)  # names come back on every standings and list
def fold(text: str) -> str:
    """Lower case without accents, the one fold for searching and sorting: 'Łukasz' sorts next to 'Lukas'
    and a search for 'lukasz' finds him."""
    decomposed = unicodedata.normalize("NFKD", text or "").translate(_NO_DECOMPOSITION)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def format_points(points: Fraction | int) -> str:
    """Table points for people: exact values rounded half up to 2 decimals, no trailing zeros.

    3 -> "3", 7/4 -> "1.75", 7/3 -> "2.33", 5/2 -> "2.5".
    """
    value = Fraction(points)
    sign = "-" if value < 0 else ""
    hundredths = (abs(value) * 100 + Fraction(1, 2)).__floor__()
    whole, cents = divmod(hundredths, 100)
    if cents == 0:
        return f"{sign}{whole}"
    return f"{sign}{whole}.{cents:02d}".rstrip("0")
