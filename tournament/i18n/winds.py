"""A seat wind in the reader's language: its name ("Itä") where there is room, else the language's own initial
("I"), never the English letters E/S/W/N on a page or sheet in another language. In Finnish E is Etelä, South:
a Finnish player reading "E" for East sits in the wrong seat.

`wind_words` is the one function that words a wind, for the pages (the ``wind_name`` and ``wind_initial``
filters, set by the web layer), the PDFs (services/documents/exports.py hands them the words, in the document's
language) and the scripts (templates/_script_texts.html). The stored value stays the code, E, S, W or N
(tournament.draws.model.SEAT_WINDS): the CSS colours a badge by it (``wind-E``), the tiles and the API say it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from flask_babel import force_locale, get_locale, gettext

from tournament.constants import DEFAULT_LANGUAGE
from tournament.draws.model import SEAT_WINDS
from tournament.i18n import N_

# The names, marked for the catalogues: tournament.draws.model.SEAT_WIND_NAMES's English (a pure module).
NAMES = {"E": N_("East"), "S": N_("South"), "W": N_("West"), "N": N_("North")}

# Each language's own initials, in seat order East, South, West, North: the first letter of each name in that
# language (Itä, Etelä, Länsi, Pohjoinen; Öst, Syd, Väst, Nord; Este, Sur, Oeste, Norte; 东, 南, 西, 北).
# A language not listed takes the first character of its translated name.
INITIALS = {
    "en": "ESWN",
    "fi": "IELP",
    "sv": "ÖSVN",
    "es": "ESON",
    "zh": "东南西北",
}


class WindWords(NamedTuple):
    """A wind worded in one language: its name, and the initial a badge or a narrow column shows."""

    name: str
    initial: str


def wind_words(code: str, language: str | None = None) -> WindWords:
    """The name and the initial of the seat wind `code` (E, S, W or N) in `language` (a code such as 'fi'), or
    in the language in force (the reader's; a document's under force_locale) when None. A value that is no
    wind is shown as it is."""
    if code not in NAMES:
        text = str(code or "")
        return WindWords(text, text)
    if language is None:
        locale = get_locale()
        return _words(code, locale.language if locale is not None else DEFAULT_LANGUAGE)
    with force_locale(language):
        return _words(code, language)


def _words(code: str, language: str) -> WindWords:
    # gettext only in the request's or document's locale: _initial is the cached part
    name = gettext(NAMES[code])
    return WindWords(name, _initial(code, language, name))


@lru_cache(maxsize=64)
def _initial(code: str, language: str, name: str) -> str:
    initials = INITIALS.get(language)
    if initials:
        return initials[SEAT_WINDS.index(code)]
    return (name[:1] or code).upper()


def wind_name(code: str) -> str:
    """The wind's name in the reader's language ("Itä"): the ``wind_name`` filter."""
    return wind_words(code).name


def wind_initial(code: str) -> str:
    """The wind's initial in the reader's language ("I"): the ``wind_initial`` filter, for a badge."""
    return wind_words(code).initial


def all_winds(language: str | None = None) -> dict[str, WindWords]:
    """Every wind's words in `language` (None: the language in force), in seat order: for a PDF's words and the
    scripts' texts."""
    return {code: wind_words(code, language) for code in SEAT_WINDS}
