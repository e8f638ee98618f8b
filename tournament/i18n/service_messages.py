"""A service's message (tournament.messages.Message) in the reader's language.

The services word their refusals in English with ``msg``/``msg_n``; the pages say them again through the
catalogues here. The JSON API keeps the English (``str(message)``). Any other text is shown as it is. A
message with its own English sentence (``Message.english``) keeps it for an English reader.
"""

from __future__ import annotations

from flask_babel import gettext, ngettext

from tournament.i18n import DEFAULT_LANGUAGE, current_language
from tournament.messages import Message, MessageList


def translate(text):
    """``text`` in the reader's language when it is a Message (its values that are Messages too), else as
    it is."""
    if isinstance(text, MessageList):
        return text.separator.join(str(translate(item)) for item in text.items)
    if not isinstance(text, Message):
        return text
    if text.english is not None and current_language() == DEFAULT_LANGUAGE:
        return str(text)  # its own English sentence says more than the catalogue's (see Message)
    params = {name: inside(value) for name, value in text.params.items()}
    if text.plural is not None:
        params.pop("num", None)
        return ngettext(text.template, text.plural, text.count, **params)
    return gettext(text.template, **params) if params else gettext(text.template)


def inside(value):
    """A value of a message in the reader's language, to stand inside another sentence (a message's, or a page's
    "Not a valid win: %(reason)s", the `tr_inside` filter): a message worded
    as a sentence of its own (the checker's reasons, the draw engine's refusals) loses its capital and its full
    stop there ("Ei kelvollinen voitto: kädessä on merkki, jota merkintätapa ei käytä."). A capital that is a
    name's (the sentence starts with a value, "%(name)s ...") or an abbreviation's ("EMA ...") stays."""
    said = translate(value)
    if not isinstance(value, Message) or not isinstance(said, str):
        return said
    said = said.rstrip(".。")
    raw = gettext(value.template) if value.plural is None else ""
    if len(said) > 1 and said[0].isupper() and said[1].islower() and raw[:1] == said[:1]:
        said = said[0].lower() + said[1:]
    return said
