"""A tournament's default language for the pages about it, found for i18n (which reads no database itself:
`init_i18n` is handed this lookup at start-up).

The live pages' polls: their 304 costs the change marker's one query (tournament/web/live), which starts with
the tournament's version (a settings edit bumps it); (tournament id, version) -> its default language is kept
here, so the poll needs no second query. Tournaments are never deleted and every settings edit bumps the
version, so the pair names one state of one tournament. Kept per database engine, as the live pages' cache.
"""

from __future__ import annotations

import threading
import weakref

from tournament.extensions import db
from tournament.i18n import offered
from tournament.models import Tournament

KEPT_SIZE = 10_000
_lock = threading.Lock()
_kept: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> {(tid, version): language}
_UNKNOWN = object()  # none kept (a tournament's language may be None: the app's default)


def clear() -> None:
    with _lock:
        _kept.clear()


def tournament_language(tournament_id: int, marker: object) -> str | None:
    """The tournament's default language (None: no such tournament); `marker` is the live marker the request
    found, if any (its first field the tournament's version)."""
    key = (tournament_id, marker[0]) if isinstance(marker, tuple) and marker else None
    if key is not None:
        with _lock:
            known = _kept.setdefault(db.engine, {}).get(key, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]
    t = db.session.get(Tournament, tournament_id)  # the identity map keeps it for the view, which loads it too
    if t is None:
        return None
    language = offered(t.language)
    if key is not None and key[1] == t.version:
        with _lock:
            kept = _kept.setdefault(db.engine, {})
            if len(kept) >= KEPT_SIZE:
                kept.clear()
            kept[key] = language
    return language
