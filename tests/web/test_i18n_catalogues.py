"""The gettext catalogues are complete: every text pybabel extracts from the source (babel.cfg) is translated
in every language, none kept English but the few words listed below, and the committed .mo files say what
their .po files say. Every fan the engine knows has its name in every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from tournament.i18n import LANGUAGES
from tournament.i18n.fans import FAN_CONTEXT, FAN_NAMES
from tournament.mcr.fans import FANS

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "tournament" / "translations"
TRANSLATED = [code for code in LANGUAGES if code != "en"]

# Texts that may stay as the English msgid, and why.
SAME_AS_ENGLISH = {
    ("Kong", "fi"): "the game term the Finnish fan list keeps (Neljä kongia)",
    ("Kong", "sv"): "the game term Swedish mahjong texts keep",
    ("Kong", "es"): "the game term the MCR rules keep in Spanish",
    ("Fan", "sv"): "the Chinese scoring term (番) Swedish texts keep",
    ("Fan", "es"): "the Chinese scoring term (番) Spanish texts keep",
    ("Hand", "sv"): "the same word in Swedish",
    ("Hand: %(words)s", "sv"): "the same word in Swedish",
    **{(f"{term} [ ]", lang): "the tile picker's set button: the game term and the notation's brackets"
       for term in ("Chow", "Pung", "Kong") for lang in ("fi", "sv", "es")},
    ("Total", "es"): "the same word in Spanish",
    ("Club", "es"): "the same word in Spanish",
    ("no", "es"): "the same word in Spanish",
    ("plan", "sv"): "the same word in Swedish (a draw method)",
    ("plan", "es"): "the same word in Spanish (a draw method)",
    ("Status", "sv"): "the same word in Swedish",
    ("Status: %(status)s", "sv"): "the same word in Swedish",
    ("Hand %(num)d", "sv"): "the same word in Swedish",
    ("Hand %(number)s", "sv"): "the same word in Swedish",
    ("FM %(num)d", "sv"): "false mahjong's initials: falsk mahjong",
    ("FM %(num)d", "es"): "false mahjong's initials: falso mahjong",
    ("%(ranks)s %(suit)s", "fi"): "only placeholders: numbers then suit, the English order",
    ("%(ranks)s %(suit)s", "sv"): "only placeholders: numbers then suit, the English order",
    ("%(ranks)s %(suit)s", "es"): "only placeholders: numbers then suit, the English order",
}


def catalogue(lang: str):
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.po", "rb") as f:
        return read_po(f, locale=lang)


def test_the_source_marks_the_texts_of_the_translated_pages(source_messages):
    ids = {msgid for _, msgid in source_messages}
    # a sample of each file wrapped in this slice: if extraction broke, the completeness test would prove nothing
    for text in ("Hand checker", "Log in", "Please correct %(num)d field:", "Seat wind", "Self-drawn",
                 "not a winning hand", "East wind", "Keep me logged in on this device", "Wrong email or password."):
        assert text in ids, text
    assert {msgid for context, msgid in source_messages if context == FAN_CONTEXT} == set(FAN_NAMES)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated(lang, source_messages):
    cat = catalogue(lang)
    missing, empty, english, fuzzy = [], [], [], []
    for (context, msgid), forms in source_messages.items():
        message = cat.get(msgid, context=context)
        if message is None:
            missing.append(msgid)
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            fuzzy.append(msgid)
        if not all(s.strip() for s in strings) or len(strings) != (cat.num_plurals if len(forms) > 1 else 1):
            empty.append(msgid)
        elif any(s in forms for s in strings) and (msgid, lang) not in SAME_AS_ENGLISH:
            english.append(msgid)
    assert not missing, f"{lang}: not in the catalogue (make translations-update): {missing}"
    assert not empty, f"{lang}: untranslated: {empty}"
    assert not fuzzy, f"{lang}: fuzzy, to check: {fuzzy}"
    assert not english, f"{lang}: left in English: {english}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_the_placeholders(lang):
    problems = [(message.id, [str(e) for e in errors]) for message, errors in catalogue(lang).check()]
    assert not problems, problems


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_committed_mo_says_what_the_po_says(lang):
    def table(messages):  # read_mo gives the plural forms as lists, read_po as tuples
        return {(m.context, tuple(m.id) if isinstance(m.id, list | tuple) else m.id):
                tuple(m.string) if isinstance(m.string, list | tuple) else m.string for m in messages if m.id}

    po = table(catalogue(lang))
    with open(TRANSLATIONS / lang / "LC_MESSAGES" / "messages.mo", "rb") as f:
        mo = table(read_mo(f))
    assert mo == po, f"run `make translations` and commit {lang}'s messages.mo"


def test_every_fan_of_the_engine_is_listed_for_translation():
    assert set(FAN_NAMES) == {fan.name for fan in FANS}
    assert len(FAN_NAMES) == len(FANS) == 82  # the 81 of the Green Book and the chinese ruleset's extra fan


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_fan_has_a_name_in_each_language(lang):
    cat = catalogue(lang)
    names = {fan.name: cat.get(fan.name, context=FAN_CONTEXT) for fan in FANS}
    assert all(m is not None and m.string.strip() and m.string != name for name, m in names.items()), lang
    assert len({m.string for m in names.values()}) == len(FANS), f"{lang}: two fans share a name"


def test_fan_names_from_the_sources():
    # Finnish as shared/seeds/003 writes them, Chinese the Green Book's (issue 24)
    fi, zh = catalogue("fi"), catalogue("zh")
    for english, finnish, chinese in [
        ("Big Four Winds", "Neljä isoa tuulta", "大四喜"),
        ("All Terminals and Honors", "Vain pääty- ja arvotiiliä", "混幺九"),
        ("Half Flush", "Puoliväri", "混一色"),
        ("Pure Terminal Chows", "Puhtaat pääty-chow’t", "一色双龙会"),
        ("Flower Tiles", "Kukat", "花牌"),
    ]:
        assert fi.get(english, context=FAN_CONTEXT).string == finnish
        assert zh.get(english, context=FAN_CONTEXT).string == chinese
