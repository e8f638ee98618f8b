"""The words the pages show from values the models and services name in English: a session's or hand's
status or a false mahjong's kind, a seat wind, the ruleset and the tie-breaks. Each is marked here for the catalogues (``N_``) and
translated where it is shown: the ``tr`` filter (``{{ tournament.ruleset_label|tr }}``), ``status_text`` for a
status; a value not listed is shown as it is."""

from __future__ import annotations

from flask_babel import gettext

from tournament.i18n import N_

STATUS_LABELS = {
    # a session
    "draft": N_("draft"),
    "published": N_("published"),
    "in_play": N_("in play"),
    "finished": N_("finished"),
    # a hand on the players' pages
    "pending": N_("pending"),
    "confirmed": N_("confirmed"),
    "disputed": N_("disputed"),
    # a false mahjong's kind
    "under_minimum": N_("under minimum"),
    "not_winning": N_("not winning"),
}

# The models' labels, as tournament/models/tournaments.py spells them (shown on the public pages).
LABELS = (
    N_("EMA (Green Book)"),
    N_("Chinese practice"),
    N_("Most first places"),
    N_("Most second places"),
    N_("Best session score"),
    N_("Fewest penalty points"),
    # seat winds (tournament/draws/model.py SEAT_WIND_NAMES)
    N_("East"),
    N_("South"),
    N_("West"),
    N_("North"),
)


def translated(text) -> str:
    """A label in the reader's language: one of the texts marked above, else the text unchanged."""
    return gettext(str(text)) if text else ""


def status_text(status) -> str:
    """A session's or hand's status in the reader's language ('in_play' -> 'in play' in English)."""
    value = str(status)
    return gettext(STATUS_LABELS[value]) if value in STATUS_LABELS else value.replace("_", " ")
