"""Text helpers shared by every layer (services, pdf, web): folding, number formats, the control characters a
field refuses. Pure: no Flask, no database (Babel's number formats are data, not Flask)."""

from __future__ import annotations

import re
import unicodedata
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache

from babel import numbers as babel_numbers

from tournament.messages import Message, msg

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


@lru_cache(maxsize=16384)
def local_number(value, language) -> str:
    """A number in a language's format, the one the pages and the printed documents share: 1,75 and −280 in
    Finnish, 1.75 and -280 in English, 1 234 in Swedish. `language`: a code ('fi') or a Babel Locale.

    Cached: Babel's formatting costs ~20 µs a number, a 400-player standings page writes 2,400 of them and the
    same few hundred values come back on every render (issue 23's live pool)."""
    return babel_numbers.format_decimal(value, locale=language)


@lru_cache(maxsize=4096)
def local_points(points: Fraction | int, language) -> str:
    """Table points in a language's format, rounded as format_points: 11,5 in Finnish, 11.5 in English."""
    return local_number(Decimal(format_points(points)), language)  # exact fractions rounded: as costly


# Control characters: C0 (line feed, carriage return, tab ...), DEL, C1 (NEL among them) and the Unicode line and
# paragraph separators. One in a name breaks the line it is written on: a calendar's (the timetable's .ics was a
# 500), a CSV's, a PDF cell's, a log's. A field of several lines (notes, an appeal) keeps line breaks and tabs.
# The character classes as regular-expression text (the API's OpenAPI document states them as patterns).
ONE_LINE_CONTROLS = r"\x00-\x1f\x7f-\x9f\u2028\u2029"
LINES_CONTROLS = r"\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029"  # all of them but tab, LF and CR
_ONE_LINE = re.compile(f"[{ONE_LINE_CONTROLS}]")
_LINES = re.compile(f"[{LINES_CONTROLS}]")


def control_character(text: str, *, multiline: bool = False) -> str | None:
    """The first control character `text` may not hold, as "U+000A"; None when there is none. `multiline`:
    line feeds, carriage returns and tabs are allowed."""
    found = (_LINES if multiline else _ONE_LINE).search(text) if isinstance(text, str) else None
    return None if found is None else f"U+{ord(found.group()):04X}"


def control_refusal(text: str, what: str, *, multiline: bool = False) -> Message | None:
    """Why `text` cannot be kept in the field `what` names ("the venue", a `msg` so that it is translated), or
    None: the one check of every free text a person types (`control_character`)."""
    code = control_character(text, multiline=multiline)
    if code is None:
        return None
    if multiline:
        return msg("Remove the control character (%(code)s) from %(what)s: line breaks and tabs are fine, other "
                   "control characters cannot be kept.", code=code, what=what)
    return msg("Remove the line break or other control character (%(code)s) from %(what)s: it is one line of "
               "text.", code=code, what=what)
