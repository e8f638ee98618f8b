"""A tournament's default language for the pages about it, found for i18n (which reads no database itself:
`init_i18n` is handed this lookup at start-up).

The live pages' polls: their 304 costs the change marker's one query (tournament/web/live), which starts with
the tournament's version (a settings edit bumps it); the standings' cache module keeps (tournament id,
version) -> its default language, so the poll needs no second query.
"""

from __future__ import annotations

from tournament.extensions import db
from tournament.i18n import offered
from tournament.models import Tournament
from tournament.services.results.standings import cache


def tournament_language(tournament_id: int, marker: object) -> str | None:
    """The tournament's default language (None: no such tournament); `marker` is the live marker the request
    found, if any (its first field the tournament's version)."""
    key = (tournament_id, marker[0]) if isinstance(marker, tuple) and marker else None
    if key is not None and (known := cache.language_lookup(key)) is not cache.UNKNOWN_LANGUAGE:
        return known  # type: ignore[return-value]
    t = db.session.get(Tournament, tournament_id)  # the identity map keeps it for the view, which loads it too
    if t is None:
        return None
    language = offered(t.language)
    if key is not None and key[1] == t.version:
        cache.language_keep(key, language)
    return language
