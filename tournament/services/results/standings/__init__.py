"""Standings computed from the recorded facts: seats, hand payments, totals-only tables, penalties.

One feature, one folder:

- `facts`: the facts (`TableFacts` per table, `TournamentFacts` per tournament), their loaders and the update
  after score changes; shared with the rank history (`services.results.progress`);
- `marker`: the change marker (`ChangeMarker`), the one small query that says when those facts changed;
- `cache`: every cache of the standings, the rankings and the live pages, with one `clear()`;
- `results`: the standings and one session's results.

`from tournament.services import standings; standings.standings(t)` and the other names below are the
public API.
"""

from tournament.services.results.standings import cache, facts
from tournament.services.results.standings.facts import COUNTED_STATUSES, TableFacts, TournamentFacts
from tournament.services.results.standings.marker import ChangeMarker, change_marker, seating_marker
from tournament.services.results.standings.results import (
    WIND_ORDER,
    PlayerResult,
    SessionResults,
    Standings,
    TableResults,
    compute,
    session_results,
    standings,
)

clear_caches = cache.clear

__all__ = [
    "COUNTED_STATUSES", "WIND_ORDER", "ChangeMarker", "PlayerResult", "SessionResults", "Standings", "TableFacts",
    "TableResults", "TournamentFacts", "cache", "change_marker", "clear_caches", "compute", "facts",
    "seating_marker", "session_results", "standings",
]
