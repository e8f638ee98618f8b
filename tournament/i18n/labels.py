"""The words the pages show from values the models and services name in English: a session's or hand's
status or a false mahjong's kind, a seat wind, the ruleset and the tie-breaks. Each is marked here for the catalogues (``N_``) and
translated where it is shown: the ``tr`` filter (``{{ tournament.ruleset_label|tr }}``), ``status_text`` for a
status; a value not listed is shown as it is."""

from __future__ import annotations

from flask_babel import gettext

from tournament.i18n import N_
from tournament.i18n.service_messages import translate
from tournament.messages import Message, MessageList

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
    # a hand's result other than a win (the score history)
    "draw": N_("draw"),
    "not_scored": N_("not scored"),
    # why a substitute came in (SubstitutionReason)
    "late": N_("late"),
    "ill": N_("ill"),
    "left": N_("left the table"),
    "disqualified": N_("disqualified"),
    "other": N_("other"),
    # a session's clock
    "not_started": N_("not started"),
    "running": N_("running"),
    "paused": N_("paused"),
    "ended": N_("ended"),
}

# The models' labels, as tournament/models/tournaments.py spells them (shown on the public pages).
LABELS = (
    N_("EMA (Green Book)"),
    N_("Chinese practice"),
    N_("Most first places"),
    N_("Most second places"),
    N_("Best session score"),
    N_("Fewest penalty points"),
    # a player's status (services/registration STATUS_LABELS: the badges, the status filter and field)
    N_("Registered"),
    N_("Present"),
    N_("Withdrawn"),
    N_("Disqualified"),
    # who enters the hands (ENTRY_MODES)
    N_("Staff enter the hands; players may confirm them from their links"),
    N_("Players enter their table's hands from their links; a hand counts once all four confirm"),
    # who the draw keeps apart at a table (DRAW_SEPARATIONS)
    N_("Teammates"),
    N_("Clubmates"),
    N_("Nobody (only avoid repeat opponents)"),
    # what the draw avoids first (DRAW_PRIORITIES)
    N_("Repeat opponents first, then teammates apart"),
    N_("Teams apart first, then repeat opponents (a team event)"),
    # seat winds (tournament/draws/model.py SEAT_WIND_NAMES)
    N_("East"),
    N_("South"),
    N_("West"),
    N_("North"),
    # what happens when time is called (END_RULES)
    N_("Finish the hand in progress (EMA 2019)"),
    N_("Stop at once; the hand in progress scores nothing (GB 3.5.6)"),
    # the default foul types (DEFAULT_FOUL_TYPES); those an organiser types stay as typed
    N_("Late arrival"),
    N_("Slow play"),
    N_("Passing information"),
    N_("Wrong call"),
    N_("Exposed or dropped tiles"),
    N_("Wrong number of tiles"),
    N_("Touching the wall"),
    N_("Conduct"),
    N_("Other"),
    # the score history's actions (services: record_score_change)
    N_("hand entered"),
    N_("hand entered by a player"),
    N_("hand corrected"),
    N_("hand deleted"),
    N_("hand not scored (time called)"),
    N_("hand deleted (time call undone)"),
    N_("hand confirmed by the table"),
    N_("hand disputed by a player"),
    N_("hand stands as entered"),
    N_("totals entered"),
    N_("totals corrected"),
    N_("totals cleared"),
    N_("substitution"),
    N_("penalty given"),
    N_("penalty cancelled"),
    # the referee board's plain reasons (services/clock.board; "finished" is a session's status above)
    N_("playing"),
    N_("waiting"),
    N_("over time: call time and record the hand in progress"),
)


def translated(text) -> str:
    """A label in the reader's language: one of the texts marked above, a service's message (its template and
    values, i18n.service_messages), else the text unchanged."""
    if isinstance(text, Message | MessageList):
        return translate(text)
    return gettext(str(text)) if text else ""


def status_text(status) -> str:
    """A session's or hand's status in the reader's language ('in_play' -> 'in play' in English)."""
    value = str(status)
    return gettext(STATUS_LABELS[value]) if value in STATUS_LABELS else value.replace("_", " ")
