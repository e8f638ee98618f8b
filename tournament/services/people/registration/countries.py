"""Countries as ISO 3166-1 alpha-2 codes: what the registration stores, and the names people read."""

from __future__ import annotations

import pycountry


def country_code(value: str | None) -> str | None:
    """The upper-case alpha-2 code for an alpha-2 or alpha-3 code or an exact English name; '' for
    empty input; None when the country is unknown."""
    value = " ".join((value or "").split())
    if not value:
        return ""
    country = None
    if len(value) == 2 and value.isalpha():
        country = pycountry.countries.get(alpha_2=value)
    elif len(value) == 3 and value.isalpha():
        country = pycountry.countries.get(alpha_3=value)
    if country is None:
        for key in ("name", "common_name", "official_name"):
            country = pycountry.countries.get(**{key: value})
            if country is not None:
                break
    return country.alpha_2.upper() if country is not None else None


def country_name(code: str | None) -> str:
    """English name of an alpha-2 code ('' when empty; the code itself when unknown)."""
    if not code:
        return ""
    country = pycountry.countries.get(alpha_2=code)
    if country is None:
        return code
    return getattr(country, "common_name", None) or country.name


def country_names() -> list[str]:
    """Every country's English name, for suggestions in the form."""
    return sorted(getattr(c, "common_name", None) or c.name for c in pycountry.countries)
