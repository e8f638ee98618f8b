"""Countries as people write them (issue 35): ISO alpha-2 and alpha-3 codes, the codes EMA's results use and the
country's name in the five languages of the app (and its own), all read to one alpha-2 code from Babel's data;
and named back in the reader's language."""

from __future__ import annotations

import pytest

from tournament.constants import LANGUAGES
from tournament.services.people.registration import countries
from tournament.services.people.registration.countries import country3, country_code, country_name

# A country, its codes and its name in each language (CLDR's words, as Babel ships them).
NAMES = {
    "FI": {"en": "Finland", "fi": "Suomi", "sv": "Finland", "es": "Finlandia", "zh": "芬兰"},
    "DE": {"en": "Germany", "fi": "Saksa", "sv": "Tyskland", "es": "Alemania", "zh": "德国"},
    "NL": {"en": "Netherlands", "fi": "Alankomaat", "sv": "Nederländerna", "es": "Países Bajos", "zh": "荷兰"},
    "CH": {"en": "Switzerland", "fi": "Sveitsi", "sv": "Schweiz", "es": "Suiza", "zh": "瑞士"},
    "DK": {"en": "Denmark", "fi": "Tanska", "sv": "Danmark", "es": "Dinamarca", "zh": "丹麦"},
    "CN": {"en": "China", "fi": "Kiina", "sv": "Kina", "es": "China", "zh": "中国"},
}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_countrys_name_in_each_language_reads_back_to_its_code(language):
    assert len(countries.countries()) == 249  # ISO 3166-1, without CLDR's regions and reserved codes
    for code in countries.countries():
        name = country_name(code, language)
        assert name and name != code, (language, code)
        assert country_code(name) == code, (language, code, name)
        assert country_code(name.upper()) == code and country_code(f"  {name.lower()} ") == code
    for code, names in NAMES.items():
        assert country_name(code, language) == names[language]
        assert country_code(names[language]) == code


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_names_offered_in_a_form_are_that_languages(language):
    offered = countries.country_names(language)
    assert len(offered) == len(set(offered)) == 249
    assert NAMES["FI"][language] in offered and NAMES["DE"][language] in offered


def test_codes_iso_and_ema():
    for given, code in [("fi", "FI"), ("FIN", "FI"), ("nld", "NL"), ("NED", "NL"), ("GER", "DE"), ("deu", "DE"),
                        ("DEN", "DK"), ("SUI", "CH"), ("POR", "PT"), ("CRO", "HR"), ("TPE", "TW"), ("GBR", "GB"),
                        ("UK", "GB"), ("", "")]:
        assert country_code(given) == code, given
    assert [country3(c) for c in ("de", "NL", "CH", "PT", "SI", "HR", "FR", "CN", "FIN", "Suomi", "", "XX")] == [
        "GER", "NED", "SUI", "POR", "SLO", "CRO", "FRA", "CHN", "FIN", "FIN", "", ""]
    # every country has a 3-letter code, and reads back from it
    assert all(country_code(country3(code)) == code for code in countries.countries())


def test_emas_codes_name_no_other_country_in_iso():
    iso3 = {countries.country3(code) for code in countries.countries() if code not in countries.IOC_CODES}
    assert not set(countries.IOC_CODES.values()) & iso3
    assert len({country3(code) for code in countries.countries()}) == 249


def test_a_countrys_own_name_and_names_in_common_use():
    for given, code in [("Deutschland", "DE"), ("Nederland", "NL"), ("Schweiz", "CH"), ("Suisse", "CH"),
                        ("Svizzera", "CH"), ("España", "ES"), ("espana", "ES"), ("Österreich", "AT"),
                        ("Magyarország", "HU"), ("Polska", "PL"), ("Italia", "IT"), ("Danmark", "DK"),
                        ("日本", "JP"), ("Россия", "RU"), ("Holland", "NL"), ("Turkey", "TR"), ("Türkiye", "TR"),
                        ("Czech Republic", "CZ"), ("England", "GB")]:
        assert country_code(given) == code, given


@pytest.mark.parametrize("given", ["XX", "ZZ", "EU", "UN", "DDR", "ZAR", "Atlantis", "Narnia", "F1", "ABCD", "Europe"])
def test_what_is_no_country(given):
    assert country_code(given) is None


def test_names_shown():
    assert country_name("DE", "fi") == "Saksa" and country_name("NED", "zh") == "荷兰"
    assert country_name("DE", "xx") == "Germany"  # an unknown language: English
    assert country_name("", "fi") == "" and country_name("QQ", "fi") == "QQ"
    assert countries.names_of("FI") == ["Finland", "Suomi", "Finland", "Finlandia", "芬兰"]
