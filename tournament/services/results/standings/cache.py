"""What the standings keep between computations, with one `clear()` (the live pages keep their bodies and
compressed answers beside their views, `web/live/cache.py`; a tournament's language for the pages is kept by
`web/languages.py`).

- the standings, keyed by tournament and change marker, and the facts of the last standings computed per
  tournament (what the next one is brought up to date from);
- the rankings after each session (the rank history), keyed by every input of the ranking
  (`RankingInputs`: its fields are the ranking's arguments, so no input can be left out of the key);

The standings are kept per database engine (an app has one): tests that reset a database get
a fresh app and fresh caches. The rankings are kept under their inputs themselves, so one store serves all.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import fields
from typing import Any, NamedTuple

from tournament.extensions import db
from tournament.services.results.ranking import Entrant, RankedRow, TableResult, rank_players

STANDINGS_SIZE = 16
RANKINGS_SIZE = 24  # a ranking of 1,000 players over 10 sessions holds ~10,000 cells

_lock = threading.Lock()
_standings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> LRU of (tid, *marker) -> Standings
_last_facts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> {tid: TournamentFacts}
# The ranking after a session, keyed by everything it is computed from: while a session is in play, the
# rankings after the sessions before it do not change and are reused.
rankings: OrderedDict[RankingInputs, list[RankedRow]] = OrderedDict()


def clear() -> None:
    """Forget everything kept (benches measure the computations themselves)."""
    with _lock:
        _standings.clear()
        _last_facts.clear()
        rankings.clear()
        _table_keys.clear()


def _trim(cache: OrderedDict, size: int) -> None:
    while len(cache) > size:
        cache.popitem(last=False)


# ----------------------------------------------------------------------------- standings


def standings_lookup(key: tuple) -> tuple[Any, Any]:
    """The standings kept under `key` ((tournament id, *marker)) or None, and the facts of the tournament's last
    standings computed (None when there are none, or when the standings themselves were found)."""
    tournament_id = key[0]
    with _lock:
        cache = _standings.setdefault(db.engine, OrderedDict())
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            return hit, None
        return None, _last_facts.setdefault(db.engine, {}).get(tournament_id)


def standings_keep(key: tuple, result: Any, facts: Any) -> None:
    """Keeps the standings under `key` and their facts (those with the most score changes of two in flight)."""
    with _lock:
        cache = _standings.setdefault(db.engine, OrderedDict())
        cache[key] = result
        _trim(cache, STANDINGS_SIZE)
        kept = _last_facts.setdefault(db.engine, {})
        tournament_id = key[0]
        if kept.get(tournament_id) is None or kept[tournament_id].changes <= facts.changes:  # the newer of two
            kept[tournament_id] = facts


# ----------------------------------------------------------------------------- rankings


class RankingInputs(NamedTuple):
    """The arguments of `ranking.rank_players`, by name: what a ranking is computed from and kept under."""

    entrants: Sequence[Entrant]
    tables: Sequence[TableResult]
    table_points: Sequence[int]
    tie_breaks: Sequence[str]
    penalties: Mapping[int, int]
    session_numbers: Sequence[int]


# The key of a table result by the object's id, kept with the object (so that its id cannot be reused while it
# is here): the rank history ranks the same tables once per later session, and their keys would cost more than
# the rest of a key if built again each time.
_table_keys: dict[int, tuple[TableResult, tuple]] = {}
TABLE_KEYS_SIZE = 10_000  # a 1,000-player tournament of 10 sessions has 2,500 tables


def _table_key(table: TableResult) -> tuple:
    kept = _table_keys.get(id(table))
    if kept is not None and kept[0] is table:
        return kept[1]
    placing = None if table.placing_scores is None else tuple(sorted(table.placing_scores.items()))
    key = (table.session, table.table, tuple(sorted(table.scores.items())), table.counted, placing)  # every field
    if len(_table_keys) >= TABLE_KEYS_SIZE:
        _table_keys.clear()
    _table_keys[id(table)] = (table, key)
    return key


if tuple(f.name for f in fields(TableResult)) != ("session", "table", "scores", "counted", "placing_scores"):
    raise RuntimeError("A field of TableResult is missing from the rankings' key (cache._table_key).")


def _tables_key(tables: Sequence[TableResult]) -> tuple:
    return tuple(map(_table_key, tables))


# How each input enters the key (hashable, equal for equal inputs); a field without one fails at import.
_KEY_OF: RankingInputs = RankingInputs(
    entrants=tuple, tables=_tables_key, table_points=tuple, tie_breaks=tuple,
    penalties=lambda penalties: tuple(sorted(penalties.items())), session_numbers=tuple,
)


def ranking_key(inputs: RankingInputs) -> RankingInputs:
    """The key a ranking is kept under: every input, made hashable."""
    return RankingInputs._make([key_of(value) for key_of, value in zip(_KEY_OF, inputs, strict=True)])


def ranked(inputs: RankingInputs) -> list[RankedRow]:
    """`rank_players` of the inputs, kept under all of them (`ranking_key`)."""
    key = ranking_key(inputs)
    with _lock:
        rows = rankings.get(key)
        if rows is not None:
            rankings.move_to_end(key)
            return rows
    rows = rank_players(**inputs._asdict())
    with _lock:
        rankings[key] = rows
        _trim(rankings, RANKINGS_SIZE)
    return rows
