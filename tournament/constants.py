"""Values every layer shares (models, services, the web forms and URL converters, the API schemas, pdf), each
defined once here. Pure: no Flask, no database."""

from __future__ import annotations

from typing import Any

# The database's integer columns are 32-bit signed (PostgreSQL INTEGER): ids, seeds and counts past these
# cannot be stored, and asking the database about one is an overflow error, not an answer.
MAX_INT = 2**31 - 1
MIN_INT = -(2**31)
MAX_ID = MAX_INT
MAX_SEED = MAX_INT  # a draw's seed is stored with its session

DEFAULT_TABLE_POINTS: tuple[int, int, int, int] = (4, 2, 1, 0)  # 1st..4th place at a table

# The interface's languages (code -> its own name) and the default: what an account or a tournament may choose,
# here for the services and models to check without Flask-Babel (tournament.i18n speaks them).
LANGUAGES = {"en": "English", "fi": "Suomi", "sv": "Svenska", "es": "Español", "zh": "中文"}
DEFAULT_LANGUAGE = "en"


def is_int(value: Any) -> bool:
    """A whole number, and not a bool (True is an int to Python, not to a JSON body or a backup)."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_id(value: Any) -> bool:
    """Could be a row's id: a whole number from 1 to MAX_ID."""
    return is_int(value) and 0 < value <= MAX_ID
