"""Scoring: every decomposition is scored, exclusions applied, the best one kept (High-versus-Low).

The fan detectors work on small tuples; the chow and pung combination fans (the only place where
Non-Separation, Non-Identical and Account-Once matter) are computed by cached pure functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache

from . import decompose as dc
from .errors import MCRError
from .fans import FAN_BY_NAME
from .notation import CHOW as M_CHOW
from .notation import KONG as M_KONG
from .notation import ParsedHand, format_tiles, parse_hand
from .rulesets import Ruleset
from .rulesets import get as get_ruleset
from .tiles import (
    DRAGONS,
    GREEN_TILES,
    REVERSIBLE_TILES,
    WIND_INDEX,
    WINDS,
    code,
    is_terminal_or_honor,
)

CHOW, PUNG, KONG, PAIR = 0, 1, 2, 3
_NO_LIMIT = (0,) * 34
_FAN_ORDER = {f.name: f.id for f in FAN_BY_NAME.values()}


@dataclass(frozen=True, slots=True)
class Context:
    self_drawn: bool
    last_tile: bool
    wall_last: bool
    kong: bool
    seat: int  # 27..30
    prevalent: int
    flowers: int


@cache
def set_notation(kind: int, tile: int) -> str:
    if kind == CHOW:
        return format_tiles((tile, tile + 1, tile + 2))
    n = {PUNG: 3, KONG: 4, PAIR: 2}[kind]
    return format_tiles((tile,) * n)


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


def _fan_key(name: str) -> tuple[int, int]:
    f = FAN_BY_NAME[name]
    return (-f.points["ema"], f.id)


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
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    out = []
    for _, i, j, f in edges:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[ri] = rj
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
            trio = tuple(items[i] for i in idx if i != skip)
            f3 = three(*trio)
            if not f3:
                continue
            cand = [(f3, trio)]
            score = FAN_BY_NAME[f3].points["ema"] * 100
            if skip is not None:
                extra = None
                for t in trio:
                    f2 = two(items[skip], t)
                    if f2 and (extra is None or _fan_key(f2) < _fan_key(extra[0])):
                        extra = (f2, tuple(sorted((items[skip], t))))
                if extra:
                    cand.append(extra)
                    score += FAN_BY_NAME[extra[0]].points["ema"]
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


@lru_cache(maxsize=4096)
def chow_fans(chows: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return _combine(chows, _four_chow_fan, _three_chow_fan, _two_chow_fan)


@lru_cache(maxsize=4096)
def pung_fans(pungs: tuple[int, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    return _combine(pungs, _four_pung_fan, _three_pung_fan, _two_pung_fan)


# --------------------------------------------------------------------------- hits

class _Hits:
    __slots__ = ("d",)

    def __init__(self) -> None:
        self.d: dict[str, list] = {}

    def add(self, name: str, sets: tuple[str, ...] = (), count: int = 1) -> None:
        e = self.d.get(name)
        if e is None:
            self.d[name] = [count, list(sets)]
        else:
            e[0] += count
            e[1].extend(sets)


def _tile_fans(h: _Hits, full: tuple[int, ...], kong_tiles: tuple[int, ...], all_sets: tuple[str, ...]) -> None:
    kinds = [t for t in range(34) if full[t]]
    suits = {t // 9 for t in kinds if t < 27}
    honors = [t for t in kinds if t >= 27]
    ranks = {t % 9 + 1 for t in kinds if t < 27}
    if all(t in GREEN_TILES for t in kinds):
        h.add("All Green", all_sets)
    if not honors:
        if len(suits) == 1:
            h.add("Full Flush", all_sets)
        h.add("No Honors", all_sets)
        if ranks <= {7, 8, 9}:
            h.add("Upper Tiles", all_sets)
        if ranks <= {4, 5, 6}:
            h.add("Middle Tiles", all_sets)
        if ranks <= {1, 2, 3}:
            h.add("Lower Tiles", all_sets)
        if ranks <= {6, 7, 8, 9}:
            h.add("Upper Four", all_sets)
        if ranks <= {1, 2, 3, 4}:
            h.add("Lower Four", all_sets)
        if ranks <= {2, 3, 4, 5, 6, 7, 8}:
            h.add("All Simples", all_sets)
        if ranks <= {1, 9}:
            h.add("All Terminals", all_sets)
    else:
        if len(suits) == 1:
            h.add("Half Flush", all_sets)
        if not suits:
            h.add("All Honors", all_sets)
    if len(suits) == 2:
        h.add("One Voided Suit", all_sets)
    if all(is_terminal_or_honor(t) for t in kinds):
        h.add("All Terminals and Honors", all_sets)
    if all(t in REVERSIBLE_TILES for t in kinds):
        h.add("Reversible Tiles", all_sets)
    if len(suits) == 3 and any(t in WINDS for t in honors) and any(t in DRAGONS for t in honors):
        h.add("All Types", all_sets)
    hogs = [t for t in kinds if full[t] == 4 and t not in kong_tiles]
    if hogs:
        h.add("Tile Hog", tuple(code(t) * 4 if t >= 27 else format_tiles((t,) * 4) for t in hogs), len(hogs))


def _finish(h: _Hits, rs: Ruleset):
    """Apply the exclusions (a fan that survives removes what it excludes, in table order) and add up.
    Returns (fan_points, fans, detected) where ``detected`` names every fan found before exclusions."""
    names = sorted(h.d, key=_FAN_ORDER.__getitem__)
    alive = set(names)
    reduced: dict[str, int] = {}
    for n in names:
        if n in alive:
            alive -= rs.excludes(n)
            for x, k in rs.reduce_counts.get(n, ()):
                reduced[x] = reduced.get(x, 0) + k
    out = []
    total = 0
    for n in names:
        if n in alive:
            cnt, sets = h.d[n]
            cnt -= reduced.get(n, 0)
            if cnt <= 0:
                continue
            pts = rs.points(n)
            total += pts * cnt
            out.append((n, pts, cnt, tuple(sets)))
    if not out:
        out.append(("Chicken Hand", rs.points("Chicken Hand"), 1, ()))
        total = rs.points("Chicken Hand")
    return total, tuple(out), tuple(names)


# --------------------------------------------------------------------------- the hand

class _Hand:
    """Per-hand facts shared by every decomposition."""

    __slots__ = (
        "p", "ctx", "rs", "win", "counts14", "counts13", "full", "open_melds", "declared_sets",
        "kong_tiles", "open_counts", "_waits",
    )

    def __init__(self, p: ParsedHand, ctx: Context, rs: Ruleset):
        self.p = p
        self.ctx = ctx
        self.rs = rs
        self.win = p.win_tile
        c = [0] * 34
        for t in p.concealed:
            c[t] += 1
        self.counts13 = tuple(c)
        c[p.win_tile] += 1
        self.counts14 = tuple(c)
        self.full = tuple(p.counts())
        self.open_melds = any(not m.concealed for m in p.melds)
        self.declared_sets = tuple(
            ((CHOW if m.kind == M_CHOW else KONG if m.kind == M_KONG else PUNG), m.tile, m.concealed, True)
            for m in p.melds
        )
        self.kong_tiles = tuple(m.tile for m in p.melds if m.kind == M_KONG)
        oc = [0] * 34
        for m in p.melds:
            if not m.concealed:
                for t in m.tiles:
                    oc[t] += 1
        self.open_counts = oc
        self._waits = None

    @property
    def waits(self) -> tuple[int, ...]:
        """Every tile the 13 tiles before the win were waiting on (computed on first use)."""
        if self._waits is None:
            limit = self.full if self.rs.waits_ignore_held_four else _NO_LIMIT
            self._waits = dc.waits(self.counts13, len(self.p.melds), limit)
        return self._waits

    # ---------------------------------------------------------------- context and concealment
    def context_fans(self, h: _Hits) -> None:
        ctx = self.ctx
        w = code(self.win)
        if not self.open_melds:
            h.add("Fully Concealed Hand" if ctx.self_drawn else "Concealed Hand")
        if ctx.self_drawn:
            h.add("Self-Drawn", (w,))
            if ctx.wall_last:
                h.add("Last Tile Draw", (w,))
            if ctx.kong:
                h.add("Out with Replacement Tile", (w,))
        else:
            if ctx.wall_last:
                h.add("Last Tile Claim", (w,))
            if ctx.kong:
                h.add("Robbing the Kong", (w,))
        if ctx.last_tile or self.open_counts[self.win] == 3:
            h.add("Last Tile", (w,))
        if (
            not ctx.self_drawn
            and len(self.p.melds) == 4
            and all(not m.concealed for m in self.p.melds)
        ):
            h.add("Melded Hand", tuple(m.notation for m in self.p.melds) + (set_notation(PAIR, self.win),))

    def wait_fan(self, h: _Hits, concealed_sets, pair: int | None) -> None:
        w = self.win
        found = None
        for kind, t, *_ in concealed_sets:
            if kind != CHOW or not (t <= w <= t + 2):
                continue
            if (w == t + 2 and _rank(t) == 1) or (w == t and _rank(t) == 7):
                found = ("Edge Wait", set_notation(CHOW, t))
                break
            if w == t + 1 and found is None:
                found = ("Closed Wait", set_notation(CHOW, t))
        if found is None and pair == w:
            found = ("Single Wait", set_notation(PAIR, w))
        if found and len(self.waits) == 1:
            h.add(found[0], (found[1],))

    # ---------------------------------------------------------------- set based fans
    def set_fans(self, h: _Hits, sets, pair: int, knitted: bool = False) -> None:
        """``sets``: tuples (kind, tile, concealed_pung, declared)."""
        ctx = self.ctx
        rs = self.rs
        pungs = [s for s in sets if s[0] != CHOW]
        chows = tuple(sorted(s[1] for s in sets if s[0] == CHOW))
        wind_p = [s for s in pungs if s[1] in WINDS]
        dragon_p = [s for s in pungs if s[1] in DRAGONS]
        nota = {id(s): set_notation(s[0], s[1]) for s in sets}
        pair_n = set_notation(PAIR, pair)

        def ns(ss):
            return tuple(nota[id(s)] for s in ss)

        # honours: the detectors report every fan the sets form; the exclusion table removes the
        # lesser ones (Non-Repeat)
        if len(wind_p) == 4:
            h.add("Big Four Winds", ns(wind_p))
        if len(wind_p) >= 3:
            if pair in WINDS:
                h.add("Little Four Winds", ns(wind_p) + (pair_n,))
            h.add("Big Three Winds", ns(wind_p[:3]))
        if len(dragon_p) == 3:
            h.add("Big Three Dragons", ns(dragon_p))
        if len(dragon_p) == 2 and pair in DRAGONS:
            h.add("Little Three Dragons", ns(dragon_p) + (pair_n,))
        if len(dragon_p) >= 2:
            h.add("Two Dragon Pungs", ns(dragon_p[:2]))
        for s in dragon_p:
            h.add("Dragon Pung", (nota[id(s)],))
        for s in wind_p:
            if s[1] == ctx.prevalent:
                h.add("Prevalent Wind", (nota[id(s)],))
            if s[1] == ctx.seat:
                h.add("Seat Wind", (nota[id(s)],))
        # Pung of Terminals or Honors, set by set: a wind pung already used by Seat Wind, Prevalent
        # Wind or Big Three Winds is not counted again (Account-Once); dragon pungs score Dragon Pung.
        for s in pungs:
            t = s[1]
            if t < 27 and t % 9 in (0, 8) or t in WINDS and len(wind_p) != 3 and t != ctx.seat and t != ctx.prevalent:
                h.add("Pung of Terminals or Honors", (nota[id(s)],))

        # kongs and concealed pungs
        kongs = [s for s in sets if s[0] == KONG]
        ck = [s for s in kongs if s[2]]
        mk = [s for s in kongs if not s[2]]
        if len(kongs) == 4:
            h.add("Four Kongs", ns(kongs))
        if len(kongs) >= 3:
            h.add("Three Kongs", ns(kongs))
        if len(ck) >= 2:
            h.add("Two Concealed Kongs", ns(ck))
        if len(mk) >= 2:
            h.add("Two Melded Kongs", ns(mk))
        if ck and mk:
            if rs.mixed_kongs == "combined":
                h.add("Concealed Kong and Melded Kong", ns(ck[:1] + mk[:1]))
            elif len(kongs) == 2:
                h.add("Two Melded Kongs", ns(kongs))  # GB 57: with the Concealed Kong, 6 points
        for s in ck:
            h.add("Concealed Kong", (nota[id(s)],))
        for s in mk:
            h.add("Melded Kong", (nota[id(s)],))
        cps = [s for s in pungs if s[2]]
        if len(cps) == 4:
            h.add("Four Concealed Pungs", ns(cps))
        if len(cps) >= 3 and not (len(kongs) == 3 and len(ck) < 3 and rs.three_kongs_needs_concealed):
            h.add("Three Concealed Pungs", ns(cps))
        if len(cps) >= 2:
            h.add("Two Concealed Pungs", ns(cps))

        all_n = ns(sets) + (pair_n,)
        if knitted:
            if len(sets) == 1 and chows and pair < 27:
                h.add("All Chows", all_n)
            return

        # whole-structure fans
        if len(chows) == 4 and pair < 27:
            h.add("All Chows", all_n)
        if not chows:
            h.add("All Pungs", all_n)
            if pair < 27 and pair % 9 % 2 == 1 and all(s[1] < 27 and s[1] % 9 % 2 == 1 for s in sets):
                h.add("All Even Pungs", all_n)
        if is_terminal_or_honor(pair) and all(
            (s[0] == CHOW and _rank(s[1]) in (1, 7)) or (s[0] != CHOW and is_terminal_or_honor(s[1])) for s in sets
        ):
            h.add("Outside Hand", all_n)
        if pair < 27 and _rank(pair) == 5 and all(
            s[1] < 27 and ((s[0] == CHOW and 3 <= _rank(s[1]) <= 5) or (s[0] != CHOW and _rank(s[1]) == 5))
            for s in sets
        ):
            h.add("All Five", all_n)

        # chow families
        if len(chows) == 4:
            a, b, c, d = chows
            if (
                a == b and c == d and _suit(a) == _suit(c) and _rank(a) == 1 and c == a + 6
                and pair == a + 4
            ):
                h.add("Pure Terminal Chows", all_n)
            elif pair < 27 and _rank(pair) == 5:
                ends = sorted(chows)
                s1, s2 = _suit(ends[0]), _suit(ends[2])
                if (
                    s1 != s2 and _suit(pair) not in (s1, s2)
                    and ends[0] == s1 * 9 and ends[1] == s1 * 9 + 6
                    and ends[2] == s2 * 9 and ends[3] == s2 * 9 + 6
                ):
                    h.add("Three-Suited Terminal Chows", all_n)
        if len(chows) >= 2:
            for name, used in chow_fans(chows):
                h.add(name, tuple(set_notation(CHOW, t) for t in used))
        spungs = tuple(sorted(s[1] for s in pungs if s[1] < 27))
        if len(spungs) >= 2:
            for name, used in pung_fans(spungs):
                h.add(name, tuple(set_notation(PUNG, t) for t in used))

    # ---------------------------------------------------------------- forms
    def evaluate(self):
        """Yield (fan_points, hits, form) for every reading of the hand."""
        p = self.p
        k = len(p.melds)
        if k == 0:
            if dc.is_seven_pairs(self.counts14):
                yield self._seven_pairs() + ("seven_pairs",)
            if dc.is_thirteen_orphans(self.counts14):
                h = _Hits()
                h.add("Thirteen Orphans", (format_tiles(sorted(p.all_concealed())),))
                self._common(h, None, ())
                yield _finish(h, self.rs) + ("thirteen_orphans",)
            pat = dc.honors_knitted_pattern(self.counts14)
            if pat is not None:
                h = _Hits()
                tiles = tuple(t for t in range(34) if self.counts14[t])
                honors = [t for t in tiles if t >= 27]
                if len(honors) == 7:
                    h.add("Greater Honors and Knitted Tiles", (format_tiles(tiles),))
                h.add("Lesser Honors and Knitted Tiles", (format_tiles(tiles),))
                suited = [t for t in tiles if t < 27]
                if len(suited) == 9:
                    h.add("Knitted Straight", (format_tiles(suited),))
                self._common(h, None, ())
                yield _finish(h, self.rs) + ("honors_knitted",)
        if k <= 1:
            for pi, rest in dc.knitted_straight_rests(self.counts14):
                for pair, csets in dc.standard(rest):
                    yield self._knitted(pi, pair, csets) + ("knitted_straight",)
        # standard readings last: on equal points the reference keeps the last best reading
        for pair, csets in dc.standard(self.counts14):
            yield self._standard(pair, csets) + ("standard",)

    def _common(self, h: _Hits, pair, concealed_sets) -> None:
        """Context and tile fans of Thirteen Orphans and Honors and Knitted hands."""
        self.context_fans(h)
        _tile_fans(h, self.full, self.kong_tiles, ())
        if len(self.waits) == 1:  # a single-tile wait; these forms exclude Single Wait
            h.add("Single Wait", (code(self.win),))

    def _build_sets(self, csets):
        ctx = self.ctx
        w = self.win
        sets = list(self.declared_sets)
        for kind, t in csets:
            if kind == dc.PUNG:
                # a pung completed by a discarded winning tile is melded, unless the winning tile
                # can be read into another set (decided by the caller)
                conc = None if (not ctx.self_drawn and t == w) else True
                sets.append((PUNG, t, conc, False))
            else:
                sets.append((CHOW, t, False, False))
        return sets

    def _standard(self, pair: int, csets):
        ctx = self.ctx
        w = self.win
        sets = self._build_sets(csets)
        if not ctx.self_drawn and any(s[2] is None for s in sets):
            elsewhere = pair == w or any(k == dc.CHOW and t <= w <= t + 2 for k, t in csets)
            sets = [(s[0], s[1], elsewhere, s[3]) if s[2] is None else s for s in sets]
        h = _Hits()
        self.set_fans(h, sets, pair)
        self.context_fans(h)
        _tile_fans(h, self.full, self.kong_tiles, tuple(set_notation(s[0], s[1]) for s in sets)
                   + (set_notation(PAIR, pair),))
        if self.p.melds == () and self._nine_gates():
            h.add("Nine Gates", (format_tiles(sorted(self.p.all_concealed())),))
        self.wait_fan(h, [(CHOW if kk == dc.CHOW else PUNG, t) for kk, t in csets], pair)
        return _finish(h, self.rs)

    def _nine_gates(self) -> bool:
        c = self.counts13
        if sum(c[27:]) or sum(1 for s in range(3) if sum(c[s * 9 : s * 9 + 9])) != 1:
            return False
        s = next(s for s in range(3) if sum(c[s * 9 : s * 9 + 9]))
        return c[s * 9 : s * 9 + 9] == (3, 1, 1, 1, 1, 1, 1, 1, 3)

    def _seven_pairs(self):
        h = _Hits()
        pairs = [t for t in range(34) for _ in range(self.counts14[t] // 2)]
        pn = tuple(set_notation(PAIR, t) for t in pairs)
        if (
            len(set(pairs)) == 7 and pairs[0] < 27 and _suit(pairs[0]) == _suit(pairs[6])
            and pairs[6] - pairs[0] == 6
        ):
            h.add("Seven Shifted Pairs", pn)
        h.add("Seven Pairs", pn)
        self.context_fans(h)
        _tile_fans(h, self.full, self.kong_tiles, pn)
        if len(self.waits) == 1:  # noqa: SIM102 (waits is computed lazily)
            h.add("Single Wait", (set_notation(PAIR, self.win),))
        return _finish(h, self.rs)

    def _knitted(self, pi: int, pair: int, csets):
        ctx = self.ctx
        w = self.win
        pattern = dc.KNITTED_PATTERNS[pi]
        sets = self._build_sets(csets)
        if not ctx.self_drawn and any(s[2] is None for s in sets):
            elsewhere = pair == w or any(k == dc.CHOW and t <= w <= t + 2 for k, t in csets)
            sets = [(s[0], s[1], elsewhere, s[3]) if s[2] is None else s for s in sets]
        h = _Hits()
        h.add("Knitted Straight", (format_tiles(pattern),))
        self.set_fans(h, sets, pair, knitted=True)
        self.context_fans(h)
        _tile_fans(h, self.full, self.kong_tiles, ())
        # ema: a winning tile of the knitted straight's kinds may be completing the straight, so it is
        # not read as an edge/closed/single wait of the set or pair; chinese reads it so when it can.
        read_ok = self.rs.knitted_wait_any_reading or w not in pattern
        if read_ok:
            self.wait_fan(h, [(CHOW if kk == dc.CHOW else PUNG, t) for kk, t in csets], pair)
        return _finish(h, self.rs)


# --------------------------------------------------------------------------- entry points

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
    def flag(name, v):
        if not isinstance(v, bool):
            raise MCRError("bad_context", f"{name} must be true or false, not {v!r}")
        return v

    self_drawn = flag("self_drawn", self_drawn)
    last_tile = flag("last_tile", last_tile)
    wall_last = flag("wall_last", wall_last)
    kong = flag("kong", kong)
    for name, v in (("seat_wind", seat_wind), ("prevalent_wind", prevalent_wind)):
        if not isinstance(v, str) or v not in WIND_INDEX:
            raise MCRError("bad_context", f"{name} must be one of E, S, W, N, not {v!r}")
    if isinstance(flowers, bool) or not isinstance(flowers, int) or not 0 <= flowers <= 8:
        raise MCRError("bad_context", f"flowers must be a whole number from 0 to 8, not {flowers!r}")
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
    return Context(self_drawn, last_tile, wall_last, kong, 27 + WIND_INDEX[seat_wind],
                   27 + WIND_INDEX[prevalent_wind], flowers)


def best(p: ParsedHand, ctx: Context, rs: Ruleset):
    """(fan_points, fans, form) of the best reading, or None when the tiles form no winning hand."""
    top = explain(p, ctx, rs)
    return None if top is None else top[:3]


def explain(p: ParsedHand, ctx: Context, rs: Ruleset):
    """(fan_points, fans, form, detected) of the best reading; ``detected`` lists every fan the
    detectors found before exclusions were applied (the reasons behind a result)."""
    hand = _Hand(p, ctx, rs)
    top = None
    for total, fans, detected, form in hand.evaluate():
        if top is None or total >= top[0]:
            top = (total, fans, form, detected)
    return top


def score_parsed(p: ParsedHand, ctx: Context, ruleset: str):
    rs = get_ruleset(ruleset)
    top = best(p, ctx, rs)
    if top is None:
        raise MCRError("not_winning", "the tiles do not form a winning hand")
    return top


def parse_and_score(hand: str, ctx_kwargs: dict, ruleset: str):
    rs = get_ruleset(ruleset)
    p = parse_hand(hand)
    ctx = make_context(p, **ctx_kwargs)
    top = best(p, ctx, rs)
    if top is None:
        raise MCRError("not_winning", "the tiles do not form a winning hand")
    return top, ctx
