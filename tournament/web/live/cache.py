"""What the live pages keep between answers, beside the views that read it (the standings and rankings
themselves are kept by the services: `services/results/standings/cache.py`).

- each live page's computed content, with the change marker it was computed at (`lookup`/`keep`);
- the live pages' gzip-compressed answers, kept under a digest of the uncompressed body (`gzipped`): a page
  served again (nginx's micro-cache asks every 2 s, per language) costs no compression.

The content is kept per database engine (an app has one): tests that reset a database get a fresh app and
fresh caches. The compressed bytes need no engine: the same body gives the same bytes whatever the database.
"""

from __future__ import annotations

import gzip
import hashlib
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tournament.extensions import db

LIVE_SIZE = 16
# The compressed answers kept per process, in bytes: the 170 KB standings page of 1,000 players is ~25 KB
# compressed, one copy per page, language and state.
GZIP_BYTES = 8 * 1024 * 1024
GZIP_LEVEL = 6  # once per page, language and state, not per answer: worth more than nginx's 5

_lock = threading.Lock()
_live: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # engine -> LRU of (page, tid) -> LiveEntry
# Digest of an uncompressed answer -> its gzip bytes, and the bytes kept.
_gzipped: OrderedDict[bytes, bytes] = OrderedDict()
_gzipped_size = 0


@dataclass
class LiveEntry:
    marker: tuple[int, ...]
    at: float
    value: Any


def clear() -> None:
    """Forget the live pages' content and compressed answers (a bench measuring a page with the standings kept)."""
    global _gzipped_size
    with _lock:
        _live.clear()
        _gzipped.clear()
        _gzipped_size = 0


def lookup(key: tuple, usable: Callable[[LiveEntry], bool]) -> LiveEntry | None:
    """The live content kept under `key` ((page, tournament id)) if `usable` says it still is."""
    with _lock:
        cache = _live.setdefault(db.engine, OrderedDict())
        entry = cache.get(key)
        if entry is None or not usable(entry):
            return None
        cache.move_to_end(key)
        return entry


def keep(key: tuple, entry: LiveEntry) -> None:
    with _lock:
        cache = _live.setdefault(db.engine, OrderedDict())
        cache[key] = entry
        cache.move_to_end(key)
        while len(cache) > LIVE_SIZE:
            cache.popitem(last=False)


def gzipped(body: bytes) -> bytes:
    """`body` gzip-compressed, compressed once and then kept under the digest of `body`: the same page in the
    same state (and language) is compressed once per process, however often it is served. The digest of the
    body itself, not its ETag, is the key: a body that differs for any reason is never given another's bytes.
    No time in the gzip header (mtime 0): every worker makes the same bytes of the same body."""
    global _gzipped_size
    key = hashlib.blake2b(body, digest_size=16).digest()
    with _lock:
        kept = _gzipped.get(key)
        if kept is not None:
            _gzipped.move_to_end(key)
            return kept
    packed = gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)  # outside the lock
    with _lock:
        if key not in _gzipped:
            _gzipped[key] = packed
            _gzipped_size += len(packed)
            while _gzipped_size > GZIP_BYTES and len(_gzipped) > 1:
                _, dropped = _gzipped.popitem(last=False)
                _gzipped_size -= len(dropped)
    return packed
