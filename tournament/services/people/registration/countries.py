"""Countries as people write them, from Babel's CLDR data alone (no other package).

What is stored: a player's country as its ISO 3166-1 alpha-2 code (`FI`); a tournament's host country as the
3-letter code EMA's results use (`NED`, see `country3`). What is read (`country_code`), letter case, accents and
spacing aside:

- an ISO 3166-1 alpha-2 or alpha-3 code (`NL`, `NLD`), alpha-3 from CLDR's territory aliases;
- the code EMA's results workbook writes where it differs from ISO alpha-3: the IOC-style codes of
  `IOC_CODES` (`NED`, `GER`, `DEN`, `SUI` ...);
- the country's name in any of the app's five languages (`Finland`, `Suomi`, `Finlandia`, `芬兰`), in its own
  official languages (`Deutschland`, `Nederland`, `Schweiz`, `Suisse`, loaded once, when first needed) and a few
  names everyone uses that CLDR words otherwise (`Holland`, `UK`, `Turkey`).

What is shown: `country_name(code, language)`, Babel's territory name in the reader's language.

The countries are the 249 of ISO 3166-1: Babel's two-letter territories without the regions and reserved codes
(`NOT_COUNTRIES`); an alpha-3 code retired from ISO (`DDR`, `ZAR` ...) is not read.
"""

from __future__ import annotations

import pickle
from functools import cache

from babel import Locale, UnknownLocaleError, localedata
from babel.core import get_global

from tournament.constants import DEFAULT_LANGUAGE, LANGUAGES
from tournament.text import fold

# Two-letter territories of CLDR that are no ISO 3166-1 country: exceptional reservations (Ascension, Clipperton,
# Sark, Diego Garcia, Ceuta and Melilla, Canary Islands, Tristan da Cunha, the EU, the Eurozone, the UN) and
# user-assigned codes (Outlying Oceania, the pseudo-locales, Kosovo, Unknown Region).
NOT_COUNTRIES = frozenset({"AC", "CP", "CQ", "DG", "EA", "EU", "EZ", "IC", "QO", "TA", "UN", "XA", "XB", "XK", "ZZ"})
# Alpha-3 codes CLDR still maps that ISO 3166-1 retired (Burma, East Germany, Metropolitan France, East Timor,
# South Yemen, Zaire): the current code of the country is its alpha-3.
RETIRED_ALPHA3 = frozenset({"BUR", "DDR", "FXX", "TMP", "YMD", "ZAR"})

# The codes EMA's results use where they differ from ISO alpha-3, for the countries an EMA tournament meets (EMA
# members and the usual guests): IOC-style, as in the links of EMA's ranking site (`Country/NED_Information.html`).
# None of them is the ISO alpha-3 code of another country (tests/services/test_countries.py checks).
IOC_CODES = {
    "BG": "BUL", "CH": "SUI", "CL": "CHI", "DE": "GER", "DK": "DEN", "DZ": "ALG", "GR": "GRE", "HR": "CRO",
    "ID": "INA", "LV": "LAT", "MC": "MON", "MN": "MGL", "MY": "MAS", "NL": "NED", "PH": "PHI", "PT": "POR",
    "SI": "SLO", "TW": "TPE", "VN": "VIE", "ZA": "RSA",
}

# Names in common use that CLDR gives otherwise in English (folded as `fold` folds).
ALIASES = {
    "holland": "NL", "the netherlands": "NL", "uk": "GB", "great britain": "GB", "britain": "GB", "england": "GB",
    "scotland": "GB", "wales": "GB", "northern ireland": "GB", "usa": "US", "united states of america": "US",
    "america": "US", "turkey": "TR", "czech republic": "CZ", "czechia": "CZ", "ivory coast": "CI",
    "macedonia": "MK", "burma": "MM", "swaziland": "SZ", "east timor": "TL", "cape verde": "CV",
    "hong kong": "HK", "macau": "MO", "macao": "MO", "palestine": "PS", "vatican": "VA", "korea": "KR",
    "south korea": "KR", "north korea": "KP", "russian federation": "RU", "viet nam": "VN",
}


def _key(name: str) -> str:
    """A name as the indexes hold it: folded (case and accents aside), spaces tidied, no final full stop."""
    return fold(" ".join(name.split())).strip(" .")


@cache
def _codes() -> tuple[frozenset[str], dict[str, str], dict[str, str]]:
    """The alpha-2 codes of the countries; alpha-2 -> ISO alpha-3; every 3-letter code read -> alpha-2."""
    territories = Locale(DEFAULT_LANGUAGE).territories
    alpha2 = frozenset(code for code in territories
                       if len(code) == 2 and code.isalpha() and code not in NOT_COUNTRIES)
    iso3 = {alias: targets[0] for alias, targets in get_global("territory_aliases").items()
            if len(alias) == 3 and alias.isalpha() and len(targets) == 1 and targets[0] in alpha2
            and alias not in RETIRED_ALPHA3}
    alpha3 = {two: three for three, two in iso3.items()}
    return alpha2, alpha3, {**iso3, **{three: two for two, three in IOC_CODES.items()}}


def countries() -> frozenset[str]:
    """The alpha-2 code of every country (ISO 3166-1)."""
    return _codes()[0]


@cache
def _names(language: str) -> dict[str, str]:
    """alpha-2 -> the country's name in `language` (Babel's territory names)."""
    try:
        territories = Locale.parse(language).territories
    except (UnknownLocaleError, ValueError):
        territories = Locale(DEFAULT_LANGUAGE).territories
    return {code: territories.get(code, code) for code in countries()}


@cache
def _by_name() -> dict[str, str]:
    """Folded name in any of the five languages (and the common aliases) -> alpha-2."""
    index = dict(ALIASES)
    for language in LANGUAGES:
        index.update({_key(name): code for code, name in _names(language).items()})
    return index


@cache
def _by_own_name() -> dict[str, str]:
    """Folded name of each country in its own official languages -> alpha-2 (names two countries share left
    out). Read straight from Babel's locale files, one per language, without keeping them: about a second and
    a few megabytes, once per process, and only for a name none of the five languages knows."""
    official = ("official", "de_facto_official")
    wanted: dict[str, list[str]] = {}
    for code, spoken in get_global("territory_languages").items():
        if code in countries():
            for language, info in spoken.items():
                if info.get("official_status") in official:
                    wanted.setdefault(language, []).append(code)
    found: dict[str, set[str]] = {}
    for language, codes in wanted.items():
        if not localedata.exists(language):
            continue
        with open(localedata.resolve_locale_filename(language), "rb") as data:
            names = pickle.load(data).get("territories", {})  # Babel's own data file, shipped with it
        for code in codes:
            if name := names.get(code):
                found.setdefault(_key(name), set()).add(code)
    return {name: next(iter(codes)) for name, codes in found.items() if len(codes) == 1}


def country_code(value: str | None) -> str | None:
    """The alpha-2 code of a country as people write it (see the module's docstring); '' for empty input;
    None when no country is known by that code or name."""
    text = " ".join((value or "").split())
    if not text:
        return ""
    alpha2, _, three_letters = _codes()
    upper = text.upper()
    if text.isascii() and text.isalpha():
        if len(text) == 2 and upper in alpha2:
            return upper
        if len(text) == 3 and upper in three_letters:
            return three_letters[upper]
    key = _key(text)
    return _by_name().get(key) or _by_own_name().get(key)


def country3(code: str | None) -> str:
    """The 3-letter code EMA's results use for a country (its alpha-2 code, or anything `country_code` reads):
    the IOC-style code of `IOC_CODES` where it differs from ISO alpha-3, ISO alpha-3 otherwise; '' for none or
    an unknown one."""
    alpha2 = country_code(code)
    if not alpha2:
        return ""
    return IOC_CODES.get(alpha2) or _codes()[1][alpha2]


def country_name(code: str | None, language: str = DEFAULT_LANGUAGE) -> str:
    """A country's name in `language` from its alpha-2 (or 3-letter) code; '' when empty; the code itself when
    unknown."""
    if not code:
        return ""
    alpha2 = country_code(code) if len(code) == 3 else code.upper()
    return _names(language).get(alpha2 or "", code)


def country_names(language: str = DEFAULT_LANGUAGE) -> list[str]:
    """Every country's name in `language`, in the order a reader looks for it: suggestions in the forms."""
    return sorted(_names(language).values(), key=fold)


def names_of(code: str | None) -> list[str]:
    """A country's names in the five languages (what a search matches)."""
    if not code:
        return []
    return [name for language in LANGUAGES if (name := _names(language).get(code.upper()))]
