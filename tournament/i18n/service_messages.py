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
    params = {name: translate(value) for name, value in text.params.items()}
    if text.plural is not None:
        params.pop("num", None)
        return ngettext(text.template, text.plural, text.count, **params)
    return gettext(text.template, **params) if params else gettext(text.template)

