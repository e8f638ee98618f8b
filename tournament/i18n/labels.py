"""The words the pages show from values the models and services name in English: a seat wind, the ruleset and
the tie-breaks, marked here for the catalogues (``N_``) and translated where they are shown by the ``tr`` filter
(``{{ tournament.ruleset_label|tr }}``); a value not listed is shown as it is. A status (a session's, a hand's,
a false mahjong's kind ...) and what a score change did are named by an identifier and worded by the tables of
tournament.messages (STATUS_WORDS, ACTION_WORDS): ``status_text`` and ``action_text`` say them here, as the
filters of the same names."""

from __future__ import annotations

from flask_babel import gettext

from tournament.i18n import N_
from tournament.i18n.service_messages import translate
from tournament.messages import Message, MessageList, action_word, status_word

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
    # (the seat winds' names: tournament/i18n/winds.py)
    # what the draw avoids first (DRAW_PRIORITIES)
    N_("Repeat opponents first, then teammates apart"),
    N_("Teams apart first, then repeat opponents (a team event)"),
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
    # an API token's default name (`flask users token`); a name given with --name stays as typed
    N_("command line"),
    # the referee board's plain reasons (services/clock.board; "finished" is a session's status: messages.STATUS_WORDS)
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
    """A status in the reader's language ('in_play' -> 'in play' in English): the words of
    tournament.messages.STATUS_WORDS, the one table of them; a value not listed has its underscores as spaces."""
    return translate(status_word(status))


def action_text(action) -> str:
    """What a score change did (models.ScoreAction) in the reader's language: messages.ACTION_WORDS."""
    return translate(action_word(action))
