"""Every cache the standings and the live pages keep, in one place, with one `clear()`.

- the standings, keyed by tournament and change marker, and the facts of the last standings computed per
  tournament (what the next one is brought up to date from);
- the rankings after each session (the rank history), keyed by every input of the ranking
  (`RankingInputs`: its fields are the ranking's arguments, so no input can be left out of the key);
- the live pages' computed content, with the marker it was computed at;
- the live pages' gzip-compressed answers, kept under a digest of the uncompressed body: a page served again
  (nginx's micro-cache asks every 2 s, per language) costs no compression;
- each tournament's default language under (tournament id, version): a live page's 304 needs it to choose the
  language and should cost no more than the change marker's one query (`tournament.i18n`).

The standings and live caches are kept per database engine (an app has one): tests that reset a database get
a fresh app and fresh caches. The rankings are kept under their inputs themselves, so one store serves all.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

from tournament.extensions import db
from tournament.services.results.ranking import Entrant, RankedRow, TableResult, rank_players

STANDINGS_SIZE = 16
LIVE_SIZE = 16
# The live pages' compressed answers kept per process, in bytes: the 170 KB standings page of 1,000 players is
# ~25 KB compressed, one copy per page, language and state.
LIVE_GZIP_BYTES = 8 * 1024 * 1024
LIVE_GZIP_LEVEL = 6  # once per page, language and state, not per answer: worth more than nginx's 5
RANKINGS_SIZE = 24  # a ranking of 1,000 players over 10 sessions holds ~10,000 cells

_lock = threading.Lock()
_standings: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> LRU of (tid, *marker) -> Standings
_last_facts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> {tid: TournamentFacts}
_live: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> LRU of (page, tid) -> LiveEntry
# Digest of an uncompressed live answer -> its gzip bytes (the same bytes for the same body, whatever the
# database: no engine needed), and the bytes kept.
_live_gzip: OrderedDict[bytes, bytes] = OrderedDict()
_live_gzip_size = 0
_languages: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> {(tid, version): language}
LANGUAGES_SIZE = 10_000
# The ranking after a session, keyed by everything it is computed from: while a session is in play, the
# rankings after the sessions before it do not change and are reused.
rankings: OrderedDict[RankingInputs, list[RankedRow]] = OrderedDict()


def clear() -> None:
    """Forget everything kept (benches measure the computations themselves)."""
    with _lock:
        _standings.clear()
        _last_facts.clear()
        _live.clear()
        _clear_live_gzip()
        rankings.clear()
        _table_keys.clear()
        _languages.clear()


def clear_live() -> None:
    """Forget the live pages' content alone (a bench measuring a page with the standings kept)."""
    with _lock:
        _live.clear()
        _clear_live_gzip()


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


# ----------------------------------------------------------------------------- tournaments' languages

UNKNOWN_LANGUAGE = object()  # none kept (a tournament's language may be None: the app's default)


def language_lookup(key: tuple[int, int]) -> object:
    """The default language kept for (tournament id, version), or `UNKNOWN_LANGUAGE`. Tournaments are never
    deleted and every settings edit bumps the version, so the pair names one state of one tournament."""
    with _lock:
        return _languages.setdefault(db.engine, {}).get(key, UNKNOWN_LANGUAGE)


def language_keep(key: tuple[int, int], language: str | None) -> None:
    with _lock:
        kept = _languages.setdefault(db.engine, {})
        if len(kept) >= LANGUAGES_SIZE:
            kept.clear()
        kept[key] = language


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


# ----------------------------------------------------------------------------- live pages


@dataclass
class LiveEntry:
    marker: tuple[int, ...]
    at: float
    value: Any


def live_lookup(key: tuple, usable: Callable[[LiveEntry], bool]) -> LiveEntry | None:
    """The live content kept under `key` ((page, tournament id)) if `usable` says it still is."""
    with _lock:
        cache = _live.setdefault(db.engine, OrderedDict())
        entry = cache.get(key)
        if entry is None or not usable(entry):
            return None
        cache.move_to_end(key)
        return entry


def live_keep(key: tuple, entry: LiveEntry) -> None:
    with _lock:
        cache = _live.setdefault(db.engine, OrderedDict())
        cache[key] = entry
        cache.move_to_end(key)
        _trim(cache, LIVE_SIZE)


def _clear_live_gzip() -> None:
    global _live_gzip_size
    _live_gzip.clear()
    _live_gzip_size = 0


def live_gzip(body: bytes) -> bytes:
    """`body` gzip-compressed, compressed once and then kept under the digest of `body`: the same page in the
    same state (and language) is compressed once per process, however often it is served. The digest of the
    body itself, not its ETag, is the key: a body that differs for any reason is never given another's bytes.
    No time in the gzip header (mtime 0): every worker makes the same bytes of the same body."""
    global _live_gzip_size
    key = hashlib.blake2b(body, digest_size=16).digest()
    with _lock:
        kept = _live_gzip.get(key)
        if kept is not None:
            _live_gzip.move_to_end(key)
            return kept
    packed = gzip.compress(body, compresslevel=LIVE_GZIP_LEVEL, mtime=0)  # outside the lock
    with _lock:
        if key not in _live_gzip:
            _live_gzip[key] = packed
            _live_gzip_size += len(packed)
            while _live_gzip_size > LIVE_GZIP_BYTES and len(_live_gzip) > 1:
                _, dropped = _live_gzip.popitem(last=False)
                _live_gzip_size -= len(dropped)
    return packed
