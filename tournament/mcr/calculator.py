"""Scoring a hand: every reading (decomposition) is scored, exclusions applied, the best one kept
(High-versus-Low). The parts, each in its module:

- :mod:`.setkinds`: the set kinds (chow, pung, kong, pair), shared with the parser and the decomposition;
- :mod:`.combinations`: set notations, the chow and pung combination fans;
- :mod:`.tilefans`: the fans of the tile kinds of the whole hand;
- :mod:`.exclusions`: which detected fans survive in a ruleset, and a reading's total;
- :mod:`.wincontext`: the validated win context and its fans;
- this module: the per-hand facts and the readings (``_Hand``), and the entry points
  :func:`score_parsed` and :func:`explain`.

Speed notes (results never depend on the cache state; every cache is bounded):
- what does not depend on the reading is computed once per hand: the context fans (cached on the
  context flags), the tile fans (cached on a few facts of the tile kinds, :func:`tile_facts`, which
  recur far more than the kinds themselves), Tile Hog, Nine Gates, the waits; the tile counts come
  from the parser (``ParsedHand.tallies``), which counts them anyway to refuse a fifth tile;
- a set is a tuple ``(kind, tile, concealed, notation, bits)`` (fields ``S_KIND`` ... ``S_BITS``) taken
  from a table built at import (``_SETS``), so the fans carry ready-made notations and the detectors are
  plain loops over at most five sets, with the per-set facts of Outside Hand / All Five / All Even
  Pungs as bits;
- the special forms exclude Single Wait, so their waits are only computed when :func:`explain` wants
  every detected fan (see ``_Hand._single_wait``).
"""

from __future__ import annotations

from itertools import compress
from operator import itemgetter

from . import decompose as dc
from .combinations import NOTA, chow_hits, pung_hits
from .errors import MCRError
from .exclusions import finish, plan, single_wait_inert
from .notation import ParsedHand, format_tiles
from .rulesets import Ruleset
from .setkinds import CHOW, KONG, PAIR, PUNG
from .tilefans import HONOR_FACT, SUIT_FACTS, tile_facts, tile_fans
from .tiles import ALL_CODES, DRAGONS, WINDS, is_terminal_or_honor
from .wincontext import Context, context_fans, held_four_before_win, make_context  # noqa: F401 (re-exported)

# the fields of a set tuple (see _SETS)
S_KIND, S_TILE, S_CONCEALED, S_NOTATION, S_BITS = range(5)
_NOTATION_OF = itemgetter(S_NOTATION)

_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)  # the 13 tiles of Nine Gates in one suit
_SUITS_AND_HONORS = SUIT_FACTS | HONOR_FACT  # tile facts: the suits held, and whether honours are
_ONE_SUIT = (1, 2, 4)
_KNITTED_NOTA = tuple(format_tiles(p) for p in dc.KNITTED_PATTERNS)

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
        tuple((k, t, conc, NOTA[k][t], _set_bits(k, t)) if NOTA[k][t] is not None else None for t in range(34))
        for conc in (False, True)
    )
    for k in (CHOW, PUNG, KONG)
)
_CHOW_SETS = _SETS[CHOW][False]
_CONCEALED_PUNGS = _SETS[PUNG][True]
_MELDED_PUNGS = _SETS[PUNG][False]


# --------------------------------------------------------------------------- the hand

class _Hand:
    """Per-hand facts shared by every decomposition."""

    __slots__ = (
        "p", "ctx", "rs", "detected", "win", "counts14", "full", "declared_sets", "base", "tile_names",
        "hog", "facts", "_counts13", "_waits", "_gates", "_declared_chows", "_declared_pungs", "_declared_bits",
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
        open_melds = 0  # how many declared sets are melded (not concealed kongs)
        last_visible = False
        kong_tiles = ()
        # the declared sets, and the same split as every reading needs it (see _build_sets)
        declared = []
        chows = []
        pungs = []
        bits = _OUTSIDE | _FIVE | _EVEN
        if p.melds:
            open_win = 0  # copies of the winning tile in melded (open) sets
            for m in p.melds:
                t = m.tile
                if m.kind == CHOW:
                    s = _CHOW_SETS[t]
                    chows.append(t)
                    if not m.concealed and t <= w <= t + 2:
                        open_win += 1
                else:
                    kong = m.kind == KONG
                    s = _SETS[KONG if kong else PUNG][m.concealed][t]
                    pungs.append(s)
                    if kong:
                        kong_tiles += (t,)
                    if not m.concealed and t == w:
                        open_win += 4 if kong else 3
                declared.append(s)
                bits &= s[S_BITS]
                if not m.concealed:
                    open_melds += 1
            last_visible = open_win == 3
        self.declared_sets = declared
        self._declared_chows = chows
        self._declared_pungs = pungs
        self._declared_bits = bits
        self.facts = tile_facts(c)
        self.tile_names = tile_fans(self.facts)
        self.hog = None
        if 4 in c:
            hogs = []
            t = -1
            for _ in range(c.count(4)):
                t = c.index(4, t + 1)
                if t not in kong_tiles:
                    hogs.append(t)
            if hogs:
                self.hog = (len(hogs), tuple(map(NOTA[KONG].__getitem__, hogs)))
        ctx = self.ctx
        self.base = context_fans(ctx.self_drawn, ctx.wall_last, ctx.kong, ctx.last_tile or last_visible,
                                  open_melds > 0, w)
        if open_melds == 4 and not ctx.self_drawn:
            # a melded set's notation is its set notation in brackets (Meld.notation)
            self.base = {**self.base, "Melded Hand": (
                1, tuple(map("[{}]".format, map(_NOTATION_OF, declared))) + (NOTA[PAIR][w],))}

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
            found = dc.structural_waits(self.counts13, len(self.p.melds))
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
        """Edge, Closed or Single Wait, in that order of precedence, from the concealed sets ``csets``
        holding the winning tile, when it was the only tile the hand waited on."""
        w = self.win
        r = w % 9
        if w < 27 and r == 2 and (CHOW, w - 2) in csets:  # 12 + 3
            found = ("Edge Wait", NOTA[CHOW][w - 2])
        elif w < 27 and r == 6 and (CHOW, w) in csets:  # 89 + 7
            found = ("Edge Wait", NOTA[CHOW][w])
        elif (CHOW, w - 1) in csets:
            found = ("Closed Wait", NOTA[CHOW][w - 1])
        elif pair == w:
            found = ("Single Wait", NOTA[PAIR][w])
        else:
            return
        if len(self.waits) == 1:
            d[found[0]] = (1, (found[1],))

    # ---------------------------------------------------------------- set based fans
    def _set_fans(self, fans: dict, built, pair: int, knitted: bool = False,
                  all_notations: tuple | None = None) -> None:
        """``built``: a reading's sets from :meth:`_build_sets`; ``all_notations``: their notations and the
        pair's, when the caller has them."""
        sets, chows, pungs, bits = built
        pair_notation = NOTA[PAIR][pair]
        suited_pungs = self._pung_fans(fans, pungs, pair, pair_notation) if pungs else ()

        if all_notations is None:
            all_notations = tuple(map(_NOTATION_OF, sets)) + (pair_notation,)
        if knitted:
            if len(sets) == 1 and chows and pair < 27:
                fans["All Chows"] = (1, all_notations)
            return

        # whole-structure fans
        chow_count = len(chows)
        bits &= _PAIR_BITS[pair]
        if chow_count == 4 and pair < 27:
            fans["All Chows"] = (1, all_notations)
        if not chow_count:
            fans["All Pungs"] = (1, all_notations)
            if bits & _EVEN:
                fans["All Even Pungs"] = (1, all_notations)
        if bits & _OUTSIDE:
            fans["Outside Hand"] = (1, all_notations)
        if bits & _FIVE:
            fans["All Five"] = (1, all_notations)

        # chow and pung families
        if chow_count >= 2:
            chows.sort()
            if chow_count == 4:
                a, b, c, e = chows
                if (
                    a == b and c == e and a // 9 == c // 9 and a % 9 == 0 and c == a + 6  # same suit, 123 + 789
                    and pair == a + 4
                ):
                    fans["Pure Terminal Chows"] = (1, all_notations)
                elif pair < 27 and pair % 9 == 4:  # a pair of fives
                    suit1, suit2 = a // 9, c // 9  # the suits
                    if (
                        suit1 != suit2 and pair // 9 not in (suit1, suit2)
                        and a == suit1 * 9 and b == suit1 * 9 + 6
                        and c == suit2 * 9 and e == suit2 * 9 + 6
                    ):
                        fans["Three-Suited Terminal Chows"] = (1, all_notations)
            for name, hit in chow_hits(tuple(chows)):
                fans[name] = hit
        if len(suited_pungs) >= 2:
            suited_pungs.sort()
            for name, hit in pung_hits(tuple(suited_pungs)):
                fans[name] = hit

    def _pung_fans(self, fans: dict, pungs, pair: int, pair_notation: str) -> list[int]:
        """Fans of the pungs and kongs (honours, terminals, kongs, concealed pungs); returns the tiles
        of the suited ones for the pung families. A fan found once per set (Dragon Pung, Pung of
        Terminals or Honors, Concealed Kong, Melded Kong) gets its count and the sets in one entry."""
        suited_pungs = []
        wind_pungs = []
        dragon_pungs = []
        kongs = []
        concealed_kongs = []
        melded_kongs = []
        concealed_pungs = []
        for pung in pungs:
            tile = pung[S_TILE]
            if tile < 27:
                suited_pungs.append(tile)
            elif tile < 31:
                wind_pungs.append(pung)
            else:
                dragon_pungs.append(pung)
            if pung[S_KIND] == KONG:
                kongs.append(pung)
                if pung[S_CONCEALED]:
                    concealed_kongs.append(pung)
                else:
                    melded_kongs.append(pung)
            if pung[S_CONCEALED]:
                concealed_pungs.append(pung)

        # honours: the detectors report every fan the sets form; the exclusion table removes the
        # lesser ones (Non-Repeat)
        wind_count = len(wind_pungs)
        seat, prevalent = self.ctx.seat, self.ctx.prevalent
        if wind_pungs:
            if wind_count >= 3:
                wind_notations = tuple(map(_NOTATION_OF, wind_pungs))
                if wind_count == 4:
                    fans["Big Four Winds"] = (1, wind_notations)
                if pair in WINDS:
                    fans["Little Four Winds"] = (1, wind_notations + (pair_notation,))
                fans["Big Three Winds"] = (1, wind_notations[:3])
            for pung in wind_pungs:
                if pung[S_TILE] == prevalent:
                    fans["Prevalent Wind"] = (1, (pung[S_NOTATION],))
                if pung[S_TILE] == seat:
                    fans["Seat Wind"] = (1, (pung[S_NOTATION],))
        if dragon_pungs:
            dragon_count = len(dragon_pungs)
            dragon_notations = tuple(map(_NOTATION_OF, dragon_pungs))
            if dragon_count >= 2:
                if dragon_count == 3:
                    fans["Big Three Dragons"] = (1, dragon_notations)
                elif pair in DRAGONS:
                    fans["Little Three Dragons"] = (1, dragon_notations + (pair_notation,))
                fans["Two Dragon Pungs"] = (1, dragon_notations[:2])
            fans["Dragon Pung"] = (dragon_count, dragon_notations)
        # Pung of Terminals or Honors, set by set: a wind pung already used by Seat Wind, Prevalent
        # Wind or Big Three Winds is not counted again (Account-Once); dragon pungs score Dragon Pung.
        terminal_or_honour = []
        for pung in pungs:
            tile = pung[S_TILE]
            if tile < 27:
                if tile % 9 in (0, 8):
                    terminal_or_honour.append(pung[S_NOTATION])
            elif tile < 31 and wind_count != 3 and tile != seat and tile != prevalent:
                terminal_or_honour.append(pung[S_NOTATION])
        if terminal_or_honour:
            fans["Pung of Terminals or Honors"] = (len(terminal_or_honour), tuple(terminal_or_honour))

        # kongs and concealed pungs
        concealed_kong_count = len(concealed_kongs)
        if kongs:
            kong_count = len(kongs)
            if kong_count == 4:
                fans["Four Kongs"] = (1, tuple(map(_NOTATION_OF, kongs)))
            if kong_count >= 3:
                fans["Three Kongs"] = (1, tuple(map(_NOTATION_OF, kongs)))
            if concealed_kong_count >= 2:
                fans["Two Concealed Kongs"] = (1, tuple(map(_NOTATION_OF, concealed_kongs)))
            if len(melded_kongs) >= 2:
                fans["Two Melded Kongs"] = (1, tuple(map(_NOTATION_OF, melded_kongs)))
            if concealed_kongs and melded_kongs:
                if self.rs.mixed_kongs == "combined":
                    fans["Concealed Kong and Melded Kong"] = (
                        1, (concealed_kongs[0][S_NOTATION], melded_kongs[0][S_NOTATION]))
                elif kong_count == 2:
                    fans["Two Melded Kongs"] = (1, tuple(map(_NOTATION_OF, kongs)))  # GB 57: with the Concealed Kong, 6
            if concealed_kongs:
                fans["Concealed Kong"] = (concealed_kong_count, tuple(map(_NOTATION_OF, concealed_kongs)))
            if melded_kongs:
                fans["Melded Kong"] = (len(melded_kongs), tuple(map(_NOTATION_OF, melded_kongs)))
        concealed_pung_count = len(concealed_pungs)
        if concealed_pung_count >= 2:
            concealed_notations = tuple(map(_NOTATION_OF, concealed_pungs))
            if concealed_pung_count == 4:
                fans["Four Concealed Pungs"] = (1, concealed_notations)
            if concealed_pung_count >= 3 and not (
                len(kongs) == 3 and concealed_kong_count < 3 and self.rs.three_kongs_needs_concealed
            ):
                fans["Three Concealed Pungs"] = (1, concealed_notations)
            fans["Two Concealed Pungs"] = (1, concealed_notations)
        return suited_pungs

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
                yield finish(d, self.rs, "thirteen_orphans", self.detected)
            if distinct == 14 and dc.honors_knitted_pattern(c14) is not None:
                d = self._start(())
                tiles = tuple(compress(range(34), c14))  # the kinds held
                nota = (format_tiles(tiles),)
                if tiles[-7] == 27:  # all seven honours
                    d["Greater Honors and Knitted Tiles"] = (1, nota)
                d["Lesser Honors and Knitted Tiles"] = (1, nota)
                suited = [t for t in tiles if t < 27]
                if len(suited) == 9:
                    d["Knitted Straight"] = (1, (format_tiles(suited),))
                self._single_wait(d, ALL_CODES[self.win])
                yield finish(d, self.rs, "honors_knitted", self.detected)
        if k <= 1 and distinct >= 9 and self.facts & SUIT_FACTS == SUIT_FACTS:  # all three suits held
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
        if not self.detected and single_wait_inert(self.rs.name) and "Single Wait" in plan(
                self.rs.name, frozenset(d))[2]:
            return
        if len(self.waits) == 1:
            d["Single Wait"] = (1, (nota,))

    def _build_sets(self, pair: int, csets):
        """A reading's sets as (sets, chow tiles, pung and kong sets, the AND of their bits): declared
        sets, then the concealed ones. A pung completed by a discarded winning tile is melded, unless
        the winning tile can be read into a chow or the pair of the same reading."""
        w = self.win
        sets = self.declared_sets.copy()
        chows = self._declared_chows.copy()
        pungs = self._declared_pungs.copy()
        bits = self._declared_bits
        discard = not self.ctx.self_drawn
        for kind, t in csets:
            if kind == CHOW:
                s = _CHOW_SETS[t]
                chows.append(t)
            else:
                s = _CONCEALED_PUNGS[t]
                if t == w and discard and pair != w:
                    for k, x in csets:  # (a loop, not any() over a generator: this runs for every pung)
                        if k == CHOW and x <= w <= x + 2:
                            break
                    else:
                        s = _MELDED_PUNGS[t]
                pungs.append(s)
            sets.append(s)
            bits &= s[S_BITS]
        return sets, chows, pungs, bits

    def _standard(self, pair: int, csets):
        built = self._build_sets(pair, csets)
        all_n = tuple(map(_NOTATION_OF, built[0])) + (NOTA[PAIR][pair],)
        d = self._start(all_n)
        self._set_fans(d, built, pair, False, all_n)
        if not self.p.melds and self._nine_gates():
            d["Nine Gates"] = (1, (format_tiles(sorted(self.p.all_concealed())),))
        self._wait_fan(d, csets, pair)
        return finish(d, self.rs, "standard", self.detected)

    def _nine_gates(self) -> bool:
        if self._gates is None:
            # the 13 tiles are 1112345678999 of one suit (the 13 fill the suit, so nothing else);
            # the tile facts rule out most hands first: one suit and no honours
            if (self.facts & _SUITS_AND_HONORS) in _ONE_SUIT:
                c = self.counts13
                self._gates = c.count(0) == 25 and _GATES in (c[0:9], c[9:18], c[18:27])
            else:
                self._gates = False
        return self._gates

    def _seven_pairs(self):
        pairs = sorted(self.p.all_concealed())[::2]  # every count is even: the sorted tiles pair up
        pn = tuple(map(NOTA[PAIR].__getitem__, pairs))
        d = self._start(pn)
        if (
            len(set(pairs)) == 7 and pairs[0] < 27 and pairs[0] // 9 == pairs[6] // 9
            and pairs[6] - pairs[0] == 6
        ):
            d["Seven Shifted Pairs"] = (1, pn)
        d["Seven Pairs"] = (1, pn)
        self._single_wait(d, NOTA[PAIR][self.win])
        return finish(d, self.rs, "seven_pairs", self.detected)

    def _knitted(self, pi: int, pair: int, csets):
        w = self.win
        pattern = dc.KNITTED_PATTERNS[pi]
        built = self._build_sets(pair, csets)
        d = self._start(())
        d["Knitted Straight"] = (1, (_KNITTED_NOTA[pi],))
        self._set_fans(d, built, pair, knitted=True)
        # ema: a winning tile of the knitted straight's kinds may be completing the straight, so it is
        # not read as an edge/closed/single wait of the set or pair; chinese reads it so when it can.
        if self.rs.knitted_wait_any_reading or w not in pattern:
            self._wait_fan(d, csets, pair)
        return finish(d, self.rs, "knitted_straight", self.detected)



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
    top = None
    for reading in _Hand(p, ctx, rs, detected=False).evaluate():  # _top, written out (every hand)
        if top is None or reading[0] >= top[0]:
            top = reading
    if top is None:
        raise MCRError("not_winning", "the tiles do not form a winning hand")
    return top[:3]

