"""Scoring: every decomposition is scored, exclusions applied, the best one kept (High-versus-Low).

The fan detectors work on small tuples; the chow and pung combination fans (the only place where
Non-Separation, Non-Identical and Account-Once matter) are computed by cached pure functions.

Speed notes (results never depend on the cache state; every cache is bounded):
- what does not depend on the reading is computed once per hand: the context fans (cached on the
  context flags), the tile fans (cached on a few facts of the tile kinds, :func:`tile_facts`, which
  recur far more than the kinds themselves), Tile Hog, Nine Gates, the waits; the tile counts come
  from the parser (``ParsedHand.tallies``), which counts them anyway to refuse a fifth tile;
- a set is a tuple ``(kind, tile, concealed, notation, bits)`` taken from a table built at import
  (``_SETS``), so the fans carry ready-made notations and the detectors are plain loops over at most
  five sets, with the per-set facts of Outside Hand / All Five / All Even Pungs as bits;
- a reading's fans are a dict ``name -> (count, sets)``; the exclusion step depends only on which
  fans were detected, so its outcome (the surviving fans in table order, with points) is cached on
  that set of names; a third of such sets recur in a batch, and the rest take one pass in table
  order over set operations (``_plan``);
- the special forms exclude Single Wait, so their waits are only computed when :func:`explain` wants
  every detected fan (see ``_Hand._single_wait``).
"""

from __future__ import annotations

from functools import lru_cache, reduce
from itertools import compress
from operator import or_
from typing import NamedTuple

from . import decompose as dc
from .errors import MCRError
from .fans import FAN_BY_NAME
from .notation import CHOW as M_CHOW
from .notation import KONG as M_KONG
from .notation import ParsedHand, format_tiles
from .rulesets import Ruleset, lookup
from .tiles import (
    ALL_CODES,
    DRAGONS,
    GREEN_TILES,
    REVERSIBLE_TILES,
    WIND_INDEX,
    WINDS,
    code,
    is_terminal_or_honor,
)

CHOW, PUNG, KONG, PAIR = 0, 1, 2, 3  # CHOW and PUNG equal decompose's, so its sets are used as they are
_NO_LIMIT = (0,) * 34
_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # the 13 tiles of Nine Gates in one suit
_KNITTED_NOTA = tuple(format_tiles(p) for p in dc.KNITTED_PATTERNS)
_FAN_ORDER = {f.name: f.id for f in FAN_BY_NAME.values()}
_new_tuple = tuple.__new__


class Context(NamedTuple):  # a tuple: built once per hand, cheaply (see make_context)
    self_drawn: bool
    last_tile: bool
    wall_last: bool
    kong: bool
    seat: int  # 27..30
    prevalent: int
    flowers: int


def _notation_table(kind: int) -> tuple[str | None, ...]:
    if kind == CHOW:
        return tuple(format_tiles((t, t + 1, t + 2)) if t < 27 and t % 9 <= 6 else None for t in range(34))
    n = {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    return tuple(format_tiles((t,) * n) for t in range(34))


# _NOTA[kind][tile]: the notation of every set, computed once ("123m", "555p", "EEEE", "55p")
_NOTA = tuple(_notation_table(k) for k in (CHOW, PUNG, KONG, PAIR))


def set_notation(kind: int, tile: int) -> str:
    return _NOTA[kind][tile]


# --------------------------------------------------------------------------- chow / pung families

def _suit(t: int) -> int:
    return t // 9


def _rank(t: int) -> int:
    return t % 9 + 1


def _three_chow_fan(a: int, b: int, c: int) -> str | None:
    a, b, c = sorted((a, b, c))
    if _suit(a) == _suit(b) == _suit(c):
        if a == b == c:
            return "Pure Triple Chow"
        if b - a == 3 and c - b == 3 and _rank(a) == 1:
            return "Pure Straight"
        if b - a == c - b and b - a in (1, 2):
            return "Pure Shifted Chows"
        return None
    if len({_suit(a), _suit(b), _suit(c)}) != 3:
        return None
    ra, rb, rc = sorted((_rank(a), _rank(b), _rank(c)))
    if ra == rb == rc:
        return "Mixed Triple Chow"
    if (ra, rb, rc) == (1, 4, 7):
        return "Mixed Straight"
    if rb == ra + 1 and rc == rb + 1:
        return "Mixed Shifted Chows"
    return None


def _two_chow_fan(a: int, b: int) -> str | None:
    if _suit(a) == _suit(b):
        if a == b:
            return "Pure Double Chow"
        if abs(a - b) == 3:
            return "Short Straight"
        if abs(a - b) == 6:
            return "Two Terminal Chows"
        return None
    if _rank(a) == _rank(b):
        return "Mixed Double Chow"
    return None


def _three_pung_fan(a: int, b: int, c: int) -> str | None:
    a, b, c = sorted((a, b, c))
    if _suit(a) == _suit(b) == _suit(c):
        if b == a + 1 and c == b + 1:
            return "Pure Shifted Pungs"
        return None
    if len({_suit(a), _suit(b), _suit(c)}) != 3:
        return None
    ra, rb, rc = sorted((_rank(a), _rank(b), _rank(c)))
    if ra == rb == rc:
        return "Triple Pung"
    if rb == ra + 1 and rc == rb + 1:
        return "Mixed Shifted Pungs"
    return None


def _two_pung_fan(a: int, b: int) -> str | None:
    if _suit(a) != _suit(b) and _rank(a) == _rank(b):
        return "Double Pung"
    return None


_EMA_POINTS = {f.name: f.points.get("ema") for f in FAN_BY_NAME.values()}
# the order in which combination fans are preferred: more (ema) points first, then table order
_fan_key = {f.name: (-(f.points.get("ema") or 0), f.id) for f in FAN_BY_NAME.values()}.__getitem__


def _pairwise(items: tuple[int, ...], two) -> list[tuple[str, tuple[int, ...]]]:
    """Account-Once for pairs: choose pair fans greedily (best fan first) so that every chosen fan
    brings in a set not yet linked to the others (the chosen pairs form a forest)."""
    edges = []
    n = len(items)
    for i in range(n):
        for j in range(i + 1, n):
            f = two(items[i], items[j])
            if f:
                edges.append((_fan_key(f), i, j, f))
    edges.sort()
    comp = list(range(n))  # component label of each set (at most four sets)
    out = []
    for _, i, j, f in edges:
        ci, cj = comp[i], comp[j]
        if ci != cj:
            comp = [ci if c == cj else c for c in comp]
            out.append((f, (items[i], items[j])))
    return out


def _combine(items: tuple[int, ...], four, three, two) -> tuple[tuple[str, tuple[int, ...]], ...]:
    n = len(items)
    if n == 4:
        f4 = four(items)
        if f4:  # reported together with the lesser fans of the same sets, which it excludes
            return ((f4, items),) + _combine(items, _none, three, two)
    if n >= 3:
        best = None
        idx = range(n)
        for skip in (idx if n == 4 else (None,)):
            trio = items if skip is None else items[:skip] + items[skip + 1:]
            f3 = three(*trio)
            if not f3:
                continue
            cand = [(f3, trio)]
            score = _EMA_POINTS[f3] * 100
            if skip is not None:
                extra = None
                for t in trio:
                    f2 = two(items[skip], t)
                    if f2 and (extra is None or _fan_key(f2) < _fan_key(extra[0])):
                        extra = (f2, tuple(sorted((items[skip], t))))
                if extra:
                    cand.append(extra)
                    score += _EMA_POINTS[extra[0]]
            if best is None or score > best[0]:
                best = (score, cand)
        if best:
            return tuple(best[1])
    return tuple(_pairwise(items, two))


def _none(_items) -> None:
    return None


def _four_chow_fan(c: tuple[int, ...]) -> str | None:
    a, b, x, d = c
    if _suit(a) != _suit(d):
        return None
    if a == b == x == d:
        return "Quadruple Chow"
    step = b - a
    if step in (1, 2) and x - b == step and d - x == step:
        return "Four Pure Shifted Chows"
    return None


def _four_pung_fan(p: tuple[int, ...]) -> str | None:
    a, b, c, d = p
    if _suit(a) == _suit(d) and b == a + 1 and c == b + 1 and d == c + 1:
        return "Four Pure Shifted Pungs"
    return None


# the pair and trio verdicts recur across many chow (pung) combinations: cache them
_two_chow = lru_cache(maxsize=4096)(_two_chow_fan)
_three_chow = lru_cache(maxsize=16384)(_three_chow_fan)
_two_pung = lru_cache(maxsize=4096)(_two_pung_fan)
_three_pung = lru_cache(maxsize=16384)(_three_pung_fan)


def chow_fans(chows: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Combination fans of sorted chow tiles: (fan, the chows it uses) in the order found."""
    return _combine(chows, _four_chow_fan, _three_chow, _two_chow)


def pung_fans(pungs: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Combination fans of sorted suited pung (or kong) tiles."""
    return _combine(pungs, _four_pung_fan, _three_pung, _two_pung)


def _as_hits(found, kind: int) -> tuple[tuple[str, tuple[int, tuple[str, ...]]], ...]:
    """(fan, used sets) pairs -> dict items ``name -> (count, notations)``, repeats merged in order."""
    merged: dict[str, tuple[int, tuple[str, ...]]] = {}
    nota = _NOTA[kind]
    for name, used in found:
        sets = tuple(nota[t] for t in used)
        e = merged.get(name)
        merged[name] = (1, sets) if e is None else (e[0] + 1, e[1] + sets)
    return tuple(merged.items())


@lru_cache(maxsize=16384)
def _chow_hits(chows: tuple[int, ...]):
    return _as_hits(chow_fans(chows), CHOW)


@lru_cache(maxsize=16384)
def _pung_hits(pungs: tuple[int, ...]):
    return _as_hits(pung_fans(pungs), PUNG)


# --------------------------------------------------------------------------- tile fans

def _mask(tiles) -> int:
    """A set of tile kinds as a bit mask (bit t for tile t)."""
    m = 0
    for t in tiles:
        m |= 1 << t
    return m


_SUIT_MASKS = tuple(_mask(range(9 * s, 9 * s + 9)) for s in range(3))
_HONOR_MASK = _mask(range(27, 34))
_WIND_MASK = _mask(WINDS)
_DRAGON_MASK = _mask(DRAGONS)
_TERM_HONOR_MASK = _mask(t for t in range(34) if is_terminal_or_honor(t))
_GREEN_MASK = _mask(GREEN_TILES)
_REVERSIBLE_MASK = _mask(REVERSIBLE_TILES)


def _ranks(*ranks: int) -> int:
    """The suited tiles of these ranks, as a mask."""
    return _mask(t for t in range(27) if t % 9 + 1 in ranks)


# tile fans of hands without honours, by the ranks they may use
_RANK_FANS = (
    ("Upper Tiles", _ranks(7, 8, 9)),
    ("Middle Tiles", _ranks(4, 5, 6)),
    ("Lower Tiles", _ranks(1, 2, 3)),
    ("Upper Four", _ranks(6, 7, 8, 9)),
    ("Lower Four", _ranks(1, 2, 3, 4)),
    ("All Simples", _ranks(2, 3, 4, 5, 6, 7, 8)),
    ("All Terminals", _ranks(1, 9)),
)


# What decides the tile fans: for each of these masks, whether the hand holds a tile in it. These
# facts of a hand are the OR of the same facts of its tile kinds (``_TILE_FACTS``), and a handful of
# combinations recur, so the fans are cached on them.
_SUIT_FACTS = 0b111  # bits 0-2: the suits present
_SUITED_MASK = _SUIT_MASKS[0] | _SUIT_MASKS[1] | _SUIT_MASKS[2]
_ALL_MASK = _SUITED_MASK | _HONOR_MASK
_FACT_MASKS = (
    *_SUIT_MASKS,
    _HONOR_MASK,  # bit 3
    _WIND_MASK,  # bit 4
    _DRAGON_MASK,  # bit 5
    _ALL_MASK & ~_GREEN_MASK,  # bit 6: a tile that is not green
    _ALL_MASK & ~_TERM_HONOR_MASK,  # bit 7: a simple
    _ALL_MASK & ~_REVERSIBLE_MASK,  # bit 8: a tile that is not reversible
    *(_SUITED_MASK & ~allowed for _, allowed in _RANK_FANS),  # bits 9-15: a rank outside the fan's
)
_TILE_FACTS = tuple(sum(1 << j for j, m in enumerate(_FACT_MASKS) if m >> t & 1) for t in range(34))
_HONOR, _WIND, _DRAGON, _NOT_GREEN, _SIMPLE, _NOT_REVERSIBLE = (1 << j for j in range(3, 9))
_RANK_FAN_FACTS = tuple((name, 1 << (9 + j)) for j, (name, _) in enumerate(_RANK_FANS))


def tile_facts(counts: tuple[int, ...]) -> int:
    """The facts (bits, see ``_FACT_MASKS``) of a hand's tile counts."""
    return reduce(or_, compress(_TILE_FACTS, counts), 0)


@lru_cache(maxsize=4096)
def _tile_fans(facts: int) -> tuple[str, ...]:
    """Fans decided by the tile kinds of the whole hand alone (given as :func:`tile_facts`), except
    Tile Hog."""
    out = []
    n_suits = (facts & 1) + (facts >> 1 & 1) + (facts >> 2 & 1)
    if not facts & _NOT_GREEN:
        out.append("All Green")
    if not facts & _HONOR:
        if n_suits == 1:
            out.append("Full Flush")
        out.append("No Honors")
        for name, outside in _RANK_FAN_FACTS:
            if not facts & outside:
                out.append(name)
    else:
        if n_suits == 1:
            out.append("Half Flush")
        if not n_suits:
            out.append("All Honors")
    if n_suits == 2:
        out.append("One Voided Suit")
    if not facts & _SIMPLE:
        out.append("All Terminals and Honors")
    if not facts & _NOT_REVERSIBLE:
        out.append("Reversible Tiles")
    if n_suits == 3 and facts & _WIND and facts & _DRAGON:
        out.append("All Types")
    return tuple(out)


# --------------------------------------------------------------------------- exclusions

def _points_or_none(rs: Ruleset, name: str) -> int | None:
    """Points of a fan, None when the ruleset lacks it (such a fan is never detected there)."""
    try:
        return rs.points(name)
    except KeyError:
        return None


@lru_cache(maxsize=64)  # one entry per ruleset (and per audit variant)
def _rules(ruleset: str) -> dict[str, tuple[frozenset[str], int | None, tuple]]:
    """fan -> (fans it excludes, points, partial exclusions) in a ruleset."""
    rs = lookup(ruleset)
    return {n: (rs.excludes(n), _points_or_none(rs, n), tuple(rs.reduce_counts.get(n, ()))) for n in FAN_BY_NAME}


@lru_cache(maxsize=64)  # one entry per ruleset (and per audit variant)
def _rules_by_name(ruleset: str) -> tuple[dict, dict, dict]:
    """name -> the names it excludes; name -> its survivor entry (name, points); name -> its partial
    exclusions (only the fans that have some)."""
    rules = _rules(ruleset)
    excl = {n: ex for n, (ex, _, _) in rules.items()}
    entry = {n: (n, p) for n, (_, p, _) in rules.items()}
    red = {n: partial for n, (_, _, partial) in rules.items() if partial}
    return excl, entry, red


_ID_OF = _FAN_ORDER.__getitem__


@lru_cache(maxsize=16384)
def _plan(ruleset: str, detected: frozenset[str]) -> tuple:
    """Exclusions for a set of detected fans: (the surviving fans as (name, points) in table order,
    their count reductions as {name: n} or None, every fan an exclusion removed). A fan still alive
    when its turn comes (in table order) removes what it excludes."""
    excl, entry, red = _rules_by_name(ruleset)
    order = sorted(detected, key=_ID_OF)
    removed: set[str] = set()
    reduced = None
    for n in order:
        if n not in removed:
            removed |= excl[n]
            if n in red:
                if reduced is None:
                    reduced = {}
                for x, k in red[n]:
                    reduced[x] = reduced.get(x, 0) + k
    return tuple([entry[n] for n in order if n not in removed]), reduced, removed  # never changed later


@lru_cache(maxsize=64)
def _single_wait_inert(ruleset: str) -> bool:
    """Whether Single Wait excludes no fan and is never partly reduced (see _Hand._single_wait)."""
    rules = _rules(ruleset)
    return not rules["Single Wait"][0] and all(x != "Single Wait" for rule in rules.values() for x, _ in rule[2])


def _finish(d: dict, rs: Ruleset, form: str, detected: bool):
    """Apply the exclusions to a reading's fans ``d`` (name -> (count, sets)) and add up.
    Returns (fan_points, fans, form, found): ``found`` names every fan found before exclusions when
    ``detected`` (else it is empty)."""
    alive, reduced, _ = _plan(rs.name, frozenset(d))
    if reduced is None:
        out = [(n, pts) + d[n] for n, pts in alive]
        total = 0
        for f in out:
            total += f[1] * f[2]
    else:
        out = []
        total = 0
        for n, pts in alive:
            cnt, sets = d[n]
            cnt -= reduced.get(n, 0)
            if cnt > 0:
                total += pts * cnt
                out.append((n, pts, cnt, sets))
    found = tuple(sorted(d, key=_ID_OF)) if detected else ()
    if not out:
        pts = rs.points("Chicken Hand")
        return pts, (("Chicken Hand", pts, 1, ()),), form, found
    return total, tuple(out), form, found


def _add(d: dict, name: str, sets: tuple[str, ...]) -> None:
    """Add one occurrence of a fan that may be found several times in a reading (merging its sets)."""
    e = d.get(name)
    d[name] = (1, sets) if e is None else (e[0] + 1, e[1] + sets)


# per-set facts as bits, indexed [kind][tile] (kongs like pungs): 1 = fits Outside Hand,
# 2 = fits All Five, 4 = an even pung (All Even Pungs)
_OUTSIDE, _FIVE, _EVEN = 1, 2, 4


def _set_bits(kind: int, t: int) -> int:
    bits = 0
    r = t % 9 + 1
    if kind == CHOW:
        if t < 27 and r <= 7:
            bits |= _OUTSIDE if r in (1, 7) else 0
            bits |= _FIVE if 3 <= r <= 5 else 0
        return bits
    if is_terminal_or_honor(t):
        bits |= _OUTSIDE
    if t < 27 and r == 5:
        bits |= _FIVE
    if t < 27 and r % 2 == 0:
        bits |= _EVEN
    return bits


_PAIR_BITS = tuple(_set_bits(PUNG, t) for t in range(34))  # the pair checks the same tile facts
# every set a reading can hold, built once: _SETS[kind][concealed][tile] = (kind, tile, concealed,
# notation, bits); chows are never concealed sets for the fans
_SETS = tuple(
    tuple(
        tuple((k, t, conc, _NOTA[k][t], _set_bits(k, t)) if _NOTA[k][t] is not None else None for t in range(34))
        for conc in (False, True)
    )
    for k in (CHOW, PUNG, KONG)
)
_CHOW_SETS = _SETS[CHOW][False]
_CONCEALED_PUNGS = _SETS[PUNG][True]
_MELDED_PUNGS = _SETS[PUNG][False]


# --------------------------------------------------------------------------- context fans

@lru_cache(maxsize=4096)
def _context_fans(self_drawn: bool, wall_last: bool, kong: bool, last_tile: bool, open_melds: bool,
                  win: int) -> dict:
    """The fans of the win context (the same for every reading; Melded Hand is added by the caller).
    The dict is shared: readings copy it (``_Hand._start``) and never change it."""
    w = (ALL_CODES[win],)
    d = {}
    if not open_melds:
        d["Fully Concealed Hand" if self_drawn else "Concealed Hand"] = (1, ())
    if self_drawn:
        d["Self-Drawn"] = (1, w)
        if wall_last:
            d["Last Tile Draw"] = (1, w)
        if kong:
            d["Out with Replacement Tile"] = (1, w)
    else:
        if wall_last:
            d["Last Tile Claim"] = (1, w)
        if kong:
            d["Robbing the Kong"] = (1, w)
    if last_tile:
        d["Last Tile"] = (1, w)
    return d


# --------------------------------------------------------------------------- the hand

def held_four_before_win(full: tuple[int, ...], win: int, t: int) -> bool:
    """Whether the hand held all four copies of ``t`` before the winning tile came in (``full``: the
    counts of the whole 14-tile hand, declared sets included)."""
    return full[t] - (t == win) >= 4


class _Hand:
    """Per-hand facts shared by every decomposition."""

    __slots__ = (
        "p", "ctx", "rs", "detected", "win", "counts14", "full", "declared_sets", "base", "tile_names",
        "hog", "facts", "_counts13", "_waits", "_gates",
    )

    def __init__(self, p: ParsedHand, ctx: Context, rs: Ruleset, detected: bool = True):
        self.p = p
        self.ctx = ctx
        self.rs = rs
        self.detected = detected  # whether every detected fan is wanted (explain), not just the score
        w = self.win = p.win_tile
        self.counts14, c = p.tallies
        self.full = c
        self._counts13 = self._waits = self._gates = None
        open_melds = last_visible = False
        kong_tiles = ()
        if p.melds:
            declared = []
            open_win = 0  # copies of the winning tile in melded (open) sets
            for m in p.melds:
                t = m.tile
                if m.kind == M_CHOW:
                    declared.append(_CHOW_SETS[t])
                    if not m.concealed and t <= w <= t + 2:
                        open_win += 1
                else:
                    kong = m.kind == M_KONG
                    declared.append(_SETS[KONG if kong else PUNG][m.concealed][t])
                    if kong:
                        kong_tiles += (t,)
                    if not m.concealed and t == w:
                        open_win += 4 if kong else 3
                if not m.concealed:
                    open_melds = True
            self.declared_sets = declared
            last_visible = open_win == 3
        else:
            self.declared_sets = []
        self.facts = tile_facts(c)
        self.tile_names = _tile_fans(self.facts)
        self.hog = None
        if 4 in c:
            hogs = []
            t = -1
            for _ in range(c.count(4)):
                t = c.index(4, t + 1)
                if t not in kong_tiles:
                    hogs.append(t)
            if hogs:
                self.hog = (len(hogs), tuple(_NOTA[KONG][t] for t in hogs))
        ctx = self.ctx
        self.base = _context_fans(ctx.self_drawn, ctx.wall_last, ctx.kong, ctx.last_tile or last_visible,
                                  open_melds, w)
        if not ctx.self_drawn and len(p.melds) == 4 and not any(m.concealed for m in p.melds):
            # a melded set's notation is its set notation in brackets (Meld.notation)
            self.base = {**self.base, "Melded Hand": (
                1, tuple(f"[{s[3]}]" for s in self.declared_sets) + (_NOTA[PAIR][w],))}

    @property
    def counts13(self) -> tuple[int, ...]:
        """Counts of the concealed tiles before the win."""
        if self._counts13 is None:
            c = list(self.counts14)
            c[self.win] -= 1
            self._counts13 = tuple(c)
        return self._counts13

    @property
    def waits(self) -> tuple[int, ...]:
        """Every tile the 13 tiles before the win were waiting on (computed on first use)."""
        if self._waits is None:
            # cached on the concealed tiles alone (they recur more than whole hands), then the tiles
            # the hand already holds four of are dropped where the ruleset says so. "Holds" is before
            # the win: a winning tile that is the fourth of its kind was waited for (held three).
            found = dc.waits(self.counts13, len(self.p.melds), _NO_LIMIT)
            if self.rs.waits_ignore_held_four:
                found = tuple([t for t in found if not held_four_before_win(self.full, self.win, t)])
            self._waits = found
        return self._waits

    def _start(self, all_sets: tuple[str, ...]) -> dict:
        """A reading's fans dict, holding the context fans and the tile fans (on ``all_sets``)."""
        d = self.base.copy()
        for n in self.tile_names:
            d[n] = (1, all_sets)
        if self.hog:
            d["Tile Hog"] = self.hog
        return d

    def _wait_fan(self, d: dict, csets, pair: int | None) -> None:
        w = self.win
        found = None
        for kind, t in csets:
            if kind != CHOW or not (t <= w <= t + 2):
                continue
            if (w == t + 2 and t % 9 == 0) or (w == t and t % 9 == 6):  # 12 + 3 or 89 + 7
                found = ("Edge Wait", _NOTA[CHOW][t])
                break
            if w == t + 1 and found is None:
                found = ("Closed Wait", _NOTA[CHOW][t])
        if found is None and pair == w:
            found = ("Single Wait", _NOTA[PAIR][w])
        if found and len(self.waits) == 1:
            d[found[0]] = (1, (found[1],))

    # ---------------------------------------------------------------- set based fans
    def _set_fans(self, d: dict, sets, pair: int, knitted: bool = False, all_n: tuple | None = None) -> None:
        """``sets``: tuples (kind, tile, concealed, notation, bits) from ``_SETS``; ``all_n``: their
        notations and the pair's, when the caller has them. Fans that can only be found once per
        reading are stored directly, the others through :func:`_add`."""
        chows = []
        pungs = []
        bits = _OUTSIDE | _FIVE | _EVEN
        for s in sets:
            bits &= s[4]
            if s[0] == CHOW:
                chows.append(s[1])
            else:
                pungs.append(s)
        pair_n = _NOTA[PAIR][pair]
        spungs = self._pung_fans(d, pungs, pair, pair_n) if pungs else ()

        if all_n is None:
            all_n = tuple([s[3] for s in sets]) + (pair_n,)
        if knitted:
            if len(sets) == 1 and chows and pair < 27:
                d["All Chows"] = (1, all_n)
            return

        # whole-structure fans
        nch = len(chows)
        bits &= _PAIR_BITS[pair]
        if nch == 4 and pair < 27:
            d["All Chows"] = (1, all_n)
        if not nch:
            d["All Pungs"] = (1, all_n)
            if bits & _EVEN:
                d["All Even Pungs"] = (1, all_n)
        if bits & _OUTSIDE:
            d["Outside Hand"] = (1, all_n)
        if bits & _FIVE:
            d["All Five"] = (1, all_n)

        # chow and pung families
        if nch >= 2:
            chows.sort()
            if nch == 4:
                a, b, c, e = chows
                if (
                    a == b and c == e and _suit(a) == _suit(c) and _rank(a) == 1 and c == a + 6
                    and pair == a + 4
                ):
                    d["Pure Terminal Chows"] = (1, all_n)
                elif pair < 27 and _rank(pair) == 5:
                    s1, s2 = _suit(a), _suit(c)
                    if (
                        s1 != s2 and _suit(pair) not in (s1, s2)
                        and a == s1 * 9 and b == s1 * 9 + 6
                        and c == s2 * 9 and e == s2 * 9 + 6
                    ):
                        d["Three-Suited Terminal Chows"] = (1, all_n)
            for name, hit in _chow_hits(tuple(chows)):
                d[name] = hit
        if len(spungs) >= 2:
            spungs.sort()
            for name, hit in _pung_hits(tuple(spungs)):
                d[name] = hit

    def _pung_fans(self, d: dict, pungs, pair: int, pair_n: str) -> list[int]:
        """Fans of the pungs and kongs (honours, terminals, kongs, concealed pungs); returns the tiles
        of the suited ones for the pung families."""
        spungs = []
        winds = []
        dragons = []
        kongs = []
        cps = []
        for s in pungs:
            t = s[1]
            if t < 27:
                spungs.append(t)
            elif t < 31:
                winds.append(s)
            else:
                dragons.append(s)
            if s[0] == KONG:
                kongs.append(s)
            if s[2]:
                cps.append(s)

        # honours: the detectors report every fan the sets form; the exclusion table removes the
        # lesser ones (Non-Repeat)
        nw = len(winds)
        seat, prevalent = self.ctx.seat, self.ctx.prevalent
        if winds:
            if nw >= 3:
                wn = tuple([s[3] for s in winds])
                if nw == 4:
                    d["Big Four Winds"] = (1, wn)
                if pair in WINDS:
                    d["Little Four Winds"] = (1, wn + (pair_n,))
                d["Big Three Winds"] = (1, wn[:3])
            for s in winds:
                if s[1] == prevalent:
                    d["Prevalent Wind"] = (1, (s[3],))
                if s[1] == seat:
                    d["Seat Wind"] = (1, (s[3],))
        if dragons:
            nd = len(dragons)
            if nd >= 2:
                dn = tuple([s[3] for s in dragons])
                if nd == 3:
                    d["Big Three Dragons"] = (1, dn)
                elif pair in DRAGONS:
                    d["Little Three Dragons"] = (1, dn + (pair_n,))
                d["Two Dragon Pungs"] = (1, dn[:2])
            for s in dragons:
                _add(d, "Dragon Pung", (s[3],))
        # Pung of Terminals or Honors, set by set: a wind pung already used by Seat Wind, Prevalent
        # Wind or Big Three Winds is not counted again (Account-Once); dragon pungs score Dragon Pung.
        for s in pungs:
            t = s[1]
            if t < 27:
                if t % 9 in (0, 8):
                    _add(d, "Pung of Terminals or Honors", (s[3],))
            elif t < 31 and nw != 3 and t != seat and t != prevalent:
                _add(d, "Pung of Terminals or Honors", (s[3],))

        # kongs and concealed pungs
        nck = 0
        if kongs:
            nk = len(kongs)
            ck = [s for s in kongs if s[2]]
            mk = [s for s in kongs if not s[2]]
            nck = len(ck)
            if nk == 4:
                d["Four Kongs"] = (1, tuple(s[3] for s in kongs))
            if nk >= 3:
                d["Three Kongs"] = (1, tuple(s[3] for s in kongs))
            if nck >= 2:
                d["Two Concealed Kongs"] = (1, tuple(s[3] for s in ck))
            if len(mk) >= 2:
                d["Two Melded Kongs"] = (1, tuple(s[3] for s in mk))
            if ck and mk:
                if self.rs.mixed_kongs == "combined":
                    d["Concealed Kong and Melded Kong"] = (1, (ck[0][3], mk[0][3]))
                elif nk == 2:
                    d["Two Melded Kongs"] = (1, tuple(s[3] for s in kongs))  # GB 57: with the Concealed Kong, 6
            for s in ck:
                _add(d, "Concealed Kong", (s[3],))
            for s in mk:
                _add(d, "Melded Kong", (s[3],))
        ncp = len(cps)
        if ncp >= 2:
            cn = tuple([s[3] for s in cps])
            if ncp == 4:
                d["Four Concealed Pungs"] = (1, cn)
            if ncp >= 3 and not (len(kongs) == 3 and nck < 3 and self.rs.three_kongs_needs_concealed):
                d["Three Concealed Pungs"] = (1, cn)
            d["Two Concealed Pungs"] = (1, cn)
        return spungs

    # ---------------------------------------------------------------- forms
    def evaluate(self):
        """Yield (fan_points, fans, detected, form) for every reading of the hand."""
        p = self.p
        k = len(p.melds)
        c14 = self.counts14
        distinct = 34 - c14.count(0)
        if k == 0:
            if distinct <= 7 and dc.is_seven_pairs(c14):
                yield self._seven_pairs()
            if distinct >= 12 and dc.is_thirteen_orphans(c14):
                d = self._start(())
                d["Thirteen Orphans"] = (1, (format_tiles(sorted(p.all_concealed())),))
                self._single_wait(d, ALL_CODES[self.win])
                yield _finish(d, self.rs, "thirteen_orphans", self.detected)
            if distinct == 14 and dc.honors_knitted_pattern(c14) is not None:
                d = self._start(())
                tiles = tuple(t for t in range(34) if c14[t])
                nota = (format_tiles(tiles),)
                if tiles[-7] == 27:  # all seven honours
                    d["Greater Honors and Knitted Tiles"] = (1, nota)
                d["Lesser Honors and Knitted Tiles"] = (1, nota)
                suited = [t for t in tiles if t < 27]
                if len(suited) == 9:
                    d["Knitted Straight"] = (1, (format_tiles(suited),))
                self._single_wait(d, ALL_CODES[self.win])
                yield _finish(d, self.rs, "honors_knitted", self.detected)
        if k <= 1 and distinct >= 9 and self.facts & _SUIT_FACTS == _SUIT_FACTS:  # all three suits held
            for pi, rest in dc.knitted_straight_rests(c14):
                for pair, csets in dc.standard(rest):
                    yield self._knitted(pi, pair, csets)
        # standard readings last: on equal points the reference keeps the last best reading
        for pair, csets in dc.standard(c14):
            yield self._standard(pair, csets)

    def _single_wait(self, d: dict, nota: str) -> None:
        """Single Wait of a special form. These forms exclude it, so unless the caller wants every
        detected fan the waits are not computed when a surviving fan of ``d`` excludes Single Wait
        (it excludes nothing itself, so it cannot change which other fans survive)."""
        if not self.detected and _single_wait_inert(self.rs.name) and "Single Wait" in _plan(
                self.rs.name, frozenset(d))[2]:
            return
        if len(self.waits) == 1:
            d["Single Wait"] = (1, (nota,))

    def _build_sets(self, pair: int, csets):
        """Declared sets, then the concealed ones. A pung completed by a discarded winning tile is
        melded, unless the winning tile can be read into a chow or the pair of the same reading."""
        w = self.win
        sets = self.declared_sets.copy()
        discard = not self.ctx.self_drawn
        for kind, t in csets:
            if kind == CHOW:
                sets.append(_CHOW_SETS[t])
            elif t == w and discard and not (pair == w or any(k == CHOW and x <= w <= x + 2 for k, x in csets)):
                sets.append(_MELDED_PUNGS[t])
            else:
                sets.append(_CONCEALED_PUNGS[t])
        return sets

    def _standard(self, pair: int, csets):
        sets = self._build_sets(pair, csets)
        all_n = tuple([s[3] for s in sets]) + (_NOTA[PAIR][pair],)
        d = self._start(all_n)
        self._set_fans(d, sets, pair, False, all_n)
        if not self.p.melds and self._nine_gates():
            d["Nine Gates"] = (1, (format_tiles(sorted(self.p.all_concealed())),))
        self._wait_fan(d, csets, pair)
        return _finish(d, self.rs, "standard", self.detected)

    def _nine_gates(self) -> bool:
        if self._gates is None:
            # the 13 tiles are 1112345678999 of one suit (the 13 fill the suit, so nothing else)
            c = self.counts13
            self._gates = c.count(0) == 25 and _GATES in (c[0:9], c[9:18], c[18:27])
        return self._gates

    def _seven_pairs(self):
        pairs = sorted(self.p.all_concealed())[::2]  # every count is even: the sorted tiles pair up
        pn = tuple(_NOTA[PAIR][t] for t in pairs)
        d = self._start(pn)
        if (
            len(set(pairs)) == 7 and pairs[0] < 27 and _suit(pairs[0]) == _suit(pairs[6])
            and pairs[6] - pairs[0] == 6
        ):
            d["Seven Shifted Pairs"] = (1, pn)
        d["Seven Pairs"] = (1, pn)
        self._single_wait(d, _NOTA[PAIR][self.win])
        return _finish(d, self.rs, "seven_pairs", self.detected)

    def _knitted(self, pi: int, pair: int, csets):
        w = self.win
        pattern = dc.KNITTED_PATTERNS[pi]
        sets = self._build_sets(pair, csets)
        d = self._start(())
        d["Knitted Straight"] = (1, (_KNITTED_NOTA[pi],))
        self._set_fans(d, sets, pair, knitted=True)
        # ema: a winning tile of the knitted straight's kinds may be completing the straight, so it is
        # not read as an edge/closed/single wait of the set or pair; chinese reads it so when it can.
        if self.rs.knitted_wait_any_reading or w not in pattern:
            self._wait_fan(d, csets, pair)
        return _finish(d, self.rs, "knitted_straight", self.detected)


# --------------------------------------------------------------------------- entry points

def _check_context_values(self_drawn, last_tile, wall_last, kong, seat_wind, prevalent_wind, flowers) -> None:
    for name, v in (("self_drawn", self_drawn), ("last_tile", last_tile), ("wall_last", wall_last), ("kong", kong)):
        if not isinstance(v, bool):
            raise MCRError("bad_context", f"{name} must be true or false, not {v!r}")
    for name, v in (("seat_wind", seat_wind), ("prevalent_wind", prevalent_wind)):
        if not isinstance(v, str) or v not in WIND_INDEX:
            raise MCRError("bad_context", f"{name} must be one of E, S, W, N, not {v!r}")
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise MCRError("bad_context", f"flowers must be a whole number from 0 to 8, not {flowers!r}")


def make_context(
    p: ParsedHand,
    self_drawn=False,
    last_tile=False,
    wall_last=False,
    kong=False,
    seat_wind="E",
    prevalent_wind="E",
    flowers=0,
) -> Context:
    if not (  # valid input passes this one test; otherwise report the first problem, in order
        self_drawn.__class__ is last_tile.__class__ is wall_last.__class__ is kong.__class__ is bool
        and seat_wind.__class__ is str and seat_wind in WIND_INDEX
        and prevalent_wind.__class__ is str and prevalent_wind in WIND_INDEX
        and flowers.__class__ is int and 0 <= flowers <= 8
    ):
        _check_context_values(self_drawn, last_tile, wall_last, kong, seat_wind, prevalent_wind, flowers)
    w = p.win_tile
    if kong and self_drawn and not any(m.kind == M_KONG for m in p.melds):
        raise MCRError("bad_context", "a win on a kong's replacement tile needs a declared kong in the hand")
    if kong and not self_drawn:
        others = p.counts()[w] - 1
        if others:
            raise MCRError(
                "bad_context",
                f"robbing a kong of {code(w)} is impossible when the hand holds another {code(w)}"
                " (the other three are in the robbed kong)",
            )
    if last_tile and w in p.concealed:
        raise MCRError(
            "bad_context",
            f"the winning {code(w)} cannot be the last of its kind: the hand hides another {code(w)}",
        )
    # the tuple built directly: a named tuple's own __new__ is a Python function
    return _new_tuple(Context, (self_drawn, last_tile, wall_last, kong, 27 + WIND_INDEX[seat_wind],
                                27 + WIND_INDEX[prevalent_wind], flowers))


def explain(p: ParsedHand, ctx: Context, rs: Ruleset):
    """(fan_points, fans, form, detected) of the best reading; ``detected`` lists every fan the
    detectors found before exclusions were applied (the reasons behind a result)."""
    return _top(_Hand(p, ctx, rs))


def _top(hand: _Hand):
    """The best reading (High-versus-Low); on equal points the last one, as the reference does."""
    top = None
    for reading in hand.evaluate():
        if top is None or reading[0] >= top[0]:
            top = reading
    return top


def score_parsed(p: ParsedHand, ctx: Context, rs: Ruleset):
    """(fan_points, fans, form) of the best reading; raises ``not_winning`` when there is none."""
    top = _top(_Hand(p, ctx, rs, detected=False))
    if top is None:
        raise MCRError("not_winning", "the tiles do not form a winning hand")
    return top[:3]
