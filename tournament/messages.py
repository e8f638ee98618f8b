"""Messages of the services and the draw engine, English and translatable: pure, no Flask.

A refusal is worded once, with named placeholders in the catalogues' style::

    raise ConflictError(msg("Hand %(number)s is already entered at table %(table)s.", number=3, table=2))

The value is a ``str``: the English sentence, filled in, which the JSON API, the command line and the logs
show as before. It also keeps its ``template`` and ``params``, so that a page can say it again in the reader's
language (``tournament.i18n.service_messages.translate``: the catalogue's sentence, filled in with the same values).
``msg_n`` is the plural-sensitive form, for a sentence that depends on a count (``%(num)d``, as
``ngettext`` fills it in). pybabel extracts both (babel.cfg: ``msg``, ``msg_n:1,2``).
"""

from __future__ import annotations

from collections.abc import Mapping


class Message(str):
    """An English sentence that remembers how it was made: ``template % params``, or the singular/plural
    pair and its count.

    ``english``, when given, is the English sentence instead of the template's: one that says more than the
    catalogue can (the fan engine's own, naming the very tile at fault). The other languages say the template.
    """

    template: str
    plural: str | None
    count: int | None
    params: Mapping[str, object]
    english: str | None

    def __new__(cls, template: str, params: Mapping[str, object] | None = None, *,
                plural: str | None = None, count: int | None = None, english: str | None = None) -> Message:
        values = dict(params or {})
        if plural is not None:
            if count is None:
                raise TypeError("a plural message needs its count")
            values.setdefault("num", count)
            text = (template if count == 1 else plural) % values
        else:
            text = template % values if values else template
        self = super().__new__(cls, text if english is None else english)
        self.template = template
        self.plural = plural
        self.count = count
        self.params = values
        self.english = english
        return self

    def __reduce__(self):  # pickled (a cache, a queue) as the sentence it is, translations kept
        return _rebuild, (self.template, dict(self.params), self.plural, self.count, self.english)


class MessageList(str):
    """Messages joined by a separator ("; "): the English joined, each item said again on a page."""

    items: tuple
    separator: str

    def __new__(cls, separator: str, items) -> MessageList:
        items = tuple(items)
        self = super().__new__(cls, separator.join(str(item) for item in items))
        self.items = items
        self.separator = separator
        return self

    def __reduce__(self):
        return MessageList, (self.separator, self.items)


def _rebuild(template, params, plural, count, english=None) -> Message:
    return Message(template, params, plural=plural, count=count, english=english)


def as_data(message: Message) -> dict:
    """A message as JSON data, to be stored and worded again for each reader (`from_data`): its template, its
    values (a value that is a message too, nested), its plural and count."""
    params = {name: as_data(value) if isinstance(value, Message) else value
              for name, value in message.params.items() if not (message.plural is not None and name == "num")}
    data: dict = {"template": message.template, "params": params}
    if message.plural is not None:
        data.update(plural=message.plural, count=message.count)
    return data


def from_data(data: dict) -> Message:
    """The message `as_data` stored."""
    params = {name: from_data(value) if isinstance(value, dict) and "template" in value else value
              for name, value in (data.get("params") or {}).items()}
    return Message(data["template"], params, plural=data.get("plural"), count=data.get("count"))


def msg(template: str, /, **params: object) -> Message:
    """A service's message: ``template`` with ``%(name)s`` placeholders filled from ``params``."""
    return Message(template, params)


def msg_n(singular: str, plural: str, count: int, /, **params: object) -> Message:
    """A message whose wording depends on ``count`` (``%(num)d`` in both forms, filled with the count)."""
    return Message(singular, params, plural=plural, count=count)


# The words of the values the models name by an identifier (a StrEnum's value), in English and translatable: the
# one table of status words, said in a service's sentence (status_word) and shown on the pages
# (i18n.labels.status_text, the `status_text` filter). A value not listed is shown with its underscores as spaces.
STATUS_WORDS = {
    # a session (SessionStatus)
    "draft": msg("draft"), "published": msg("published"), "in_play": msg("in play"), "finished": msg("finished"),
    # a session's clock
    "not_started": msg("not started"), "running": msg("running"), "paused": msg("paused"), "ended": msg("ended"),
    # a hand on the players' pages (HandStatus)
    "pending": msg("pending"), "confirmed": msg("confirmed"), "disputed": msg("disputed"),
    # a false mahjong's kind (FalseMahjongKind)
    "under_minimum": msg("under minimum"), "not_winning": msg("not winning"),
    # a hand's result other than a win (HandResult: the score history)
    "draw": msg("draw"), "not_scored": msg("not scored"),
    # why a substitute came in (SubstitutionReason)
    "late": msg("late"), "ill": msg("ill"), "left": msg("left the table"), "other": msg("other"),
    # a player's (PlayerStatus)
    "registered": msg("registered"), "present": msg("present"), "withdrawn": msg("withdrawn"),
    "disqualified": msg("disqualified"),
}

# What a score change did (models.ScoreAction, stored as these names), worded only where it is shown: the score
# history's pages in the reader's language (i18n.labels.action_text), the backup document in English, as these
# phrases were stored before (services/documents/backup.py).
ACTION_WORDS = {
    "hand_entered": msg("hand entered"),
    "hand_entered_by_player": msg("hand entered by a player"),
    "hand_corrected": msg("hand corrected"),
    "hand_deleted": msg("hand deleted"),
    "hand_not_scored": msg("hand not scored (time called)"),
    "hand_deleted_time_call_undone": msg("hand deleted (time call undone)"),
    "hand_confirmed": msg("hand confirmed by the table"),
    "hand_disputed": msg("hand disputed by a player"),
    "hand_stands": msg("hand stands as entered"),
    "totals_entered": msg("totals entered"),
    "totals_corrected": msg("totals corrected"),
    "totals_cleared": msg("totals cleared"),
    "substitution": msg("substitution"),
    "penalty_given": msg("penalty given"),
    "penalty_cancelled": msg("penalty cancelled"),
}


def status_word(status: str) -> str:
    """A status value ("in_play") as a word for a message ("in play"), translatable when it is a known one."""
    return STATUS_WORDS.get(str(status), str(status).replace("_", " "))


def action_word(action: str) -> str:
    """A score change's action ("hand_entered") as its words ("hand entered"), translatable when it is a known
    one."""
    return ACTION_WORDS.get(str(action), str(action).replace("_", " "))
