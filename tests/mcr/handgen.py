"""Random legal MCR winning hands with a consistent win context, for differential tests.

API
---
``random_hand(rng) -> dict``
    One case: ``{"hand": str, "self_drawn": bool, "last_tile": bool, "wall_last": bool,
    "kong": bool, "seat_wind": "E"|"S"|"W"|"N", "prevalent_wind": ..., "flowers": int}``.
    ``hand`` is in our notation (``/work/shared/rules/hand-notation.md``): declared sets first
    (``[123m]`` melded chow, ``[555p]`` melded pung, ``[5555p]`` melded kong, ``{5555p}`` concealed
    kong), then the concealed tiles sorted and grouped by suit, then the winning tile written last.
``random_hand_ex(rng) -> (dict, str)``
    The same plus the name of the generator form that made it (one of ``FORMS``).
``random_hands(n, seed) -> list[dict]``
    ``n`` cases, a pure function of ``(n, seed)`` (own ``random.Random(seed)``).
``case_tiles(case) -> Counter``
    Multiset of all tiles in a case (kongs count 4), parsed from the canonical notation we emit.
``CONTEXT_KEYS``
    The keys of a case, in the order the engine's ``--jsonl`` input takes them.

What is generated
-----------------
A mixture of generators so that each of the 81 fans (plus the chinese-only "Concealed Kong and
Melded Kong") turns up many times in 20,000 hands: regular hands (four sets + pair) built from a tile
filter (any, flush, half flush, two suits, honours, terminals, simples, upper/middle/lower, upper/lower
four, even pungs, all five, outside, all green, reversible) and an optional seed pattern (pure/mixed
triple, shifted and straight chow patterns, shifted pungs, triple/double pung, wind and dragon pungs,
terminal chows ...), with every set independently concealed, melded, melded kong or concealed kong;
Seven Pairs (incl. Seven Shifted Pairs and a doubled pair), Thirteen Orphans, Greater and Lesser
Honors and Knitted Tiles, Knitted Straight + set + pair (the set may be declared), Nine Gates.
No tile kind ever appears more than 4 times (kongs included).

Context consistency (the rules we keep)
---------------------------------------
* ``kong`` and ``self_drawn``: win on a kong replacement tile; only when the hand has a declared kong.
* ``kong`` and not ``self_drawn``: robbing a kong; only when the winning tile's kind appears exactly once
  in the whole hand (the other three are in the robbed player's pung/kong). Never with ``wall_last``.
* ``wall_last``: never together with ``kong`` (either meaning).
* ``last_tile``: only when the concealed tiles other than the winning tile hold no copy of its kind (the
  other copies must be visible). It is forced True when the declared sets hold the other three
  copies (the reference, like physics, then always scores Last Tile).
* seat/prevalent winds uniform, biased towards a wind pung in the hand; flowers 0..8 (half the time 0).

Reference behaviour (pymahjonggb, checked): it does NOT apply the 8-point minimum; it scores any
legal winning structure (a Chicken Hand is reported as 8 points when nothing else scores), so every
generated hand is accepted by it and no case is marked as rejected. Cases under 8 points (flowers
excluded) are kept: the engine must score them identically (and say ``meets_minimum: false``).
"""

from __future__ import annotations

import random
from collections import Counter

CONTEXT_KEYS = ("hand", "self_drawn", "last_tile", "wall_last", "kong", "seat_wind", "prevalent_wind", "flowers")

FORMS = (
    "regular",
    "chicken",
    "seven_pairs",
    "seven_shifted_pairs",
    "thirteen_orphans",
    "greater_honors_knitted",
    "lesser_honors_knitted",
    "knitted_straight",
    "nine_gates",
)

# Tile ids: 0-8 characters (m) 1-9, 9-17 bamboo (s), 18-26 dots (p), 27-30 winds E S W N, 31-33 C F P.
SUITS = "msp"
HONOURS = "ESWNCFP"
WINDS = "ESWN"
ALL_TILES = tuple(range(34))
NUMBERED = tuple(range(27))
HONOUR_TILES = tuple(range(27, 34))
WIND_TILES = (27, 28, 29, 30)
DRAGON_TILES = (31, 32, 33)
GREEN = frozenset({9 + 1, 9 + 2, 9 + 3, 9 + 5, 9 + 7, 32})  # 2 3 4 6 8 bamboo, green dragon
REVERSIBLE = frozenset({18 + r - 1 for r in (1, 2, 3, 4, 5, 8, 9)} | {9 + r - 1 for r in (2, 4, 5, 6, 8, 9)} | {33})


def tile(suit: int, rank: int) -> int:
    return suit * 9 + rank - 1


def rank_of(t: int) -> int:
    return t % 9 + 1 if t < 27 else 0


def suit_of(t: int) -> int:
    return t // 9 if t < 27 else 3


def is_terminal_or_honour(t: int) -> bool:
    return t >= 27 or rank_of(t) in (1, 9)


def tile_text(t: int) -> str:
    return HONOURS[t - 27] if t >= 27 else f"{rank_of(t)}{SUITS[suit_of(t)]}"


def tiles_text(tiles: list[int]) -> str:
    """Write tiles in the given order, sharing a suit suffix between consecutive same-suit number tiles."""
    out: list[str] = []
    run_suit = None
    for t in tiles:
        if t >= 27:
            if run_suit is not None:
                out.append(SUITS[run_suit])
                run_suit = None
            out.append(HONOURS[t - 27])
        else:
            s = suit_of(t)
            if run_suit is not None and s != run_suit:
                out.append(SUITS[run_suit])
            out.append(str(rank_of(t)))
            run_suit = s
    if run_suit is not None:
        out.append(SUITS[run_suit])
    return "".join(out)


# A set is (kind, t) with kind "chow" (t = lowest tile) or "pung"; its state is one of
# "concealed", "melded", "melded_kong", "concealed_kong".


def set_tiles(kind: str, t: int) -> list[int]:
    return [t, t + 1, t + 2] if kind == "chow" else [t, t, t]


ALL_CHOWS = [("chow", tile(s, r)) for s in range(3) for r in range(1, 8)]
ALL_PUNGS = [("pung", t) for t in ALL_TILES]


# ---------------------------------------------------------------------------------------------
# Tile filters for regular hands: (name, predicate on a set's tiles, predicate on a pair tile)


def _tiles_in(allowed):
    allowed = frozenset(allowed)
    return (lambda kind, t: all(x in allowed for x in set_tiles(kind, t))), (lambda t: t in allowed)


def _five_set(kind, t):
    return t < 27 and 5 in [rank_of(x) for x in set_tiles(kind, t)]


def _outside_set(kind, t):
    return any(is_terminal_or_honour(x) for x in set_tiles(kind, t))


def _even_set(kind, t):
    return kind == "pung" and t < 27 and rank_of(t) % 2 == 0


def _ranks(rs):
    return [tile(s, r) for s in range(3) for r in rs]


def _filter_preds(name: str, s0: int, s1: int):
    suit0 = [tile(s0, r) for r in range(1, 10)]
    suit1 = [tile(s1, r) for r in range(1, 10)]
    return {
        "any": lambda: _tiles_in(ALL_TILES),
        "flush": lambda: _tiles_in(suit0),
        "half_flush": lambda: _tiles_in(suit0 + list(HONOUR_TILES)),
        "two_suits": lambda: _tiles_in(suit0 + suit1),
        "no_honours": lambda: _tiles_in(NUMBERED),
        "honours": lambda: _tiles_in(HONOUR_TILES),
        "terminals_honours": lambda: _tiles_in([t for t in ALL_TILES if is_terminal_or_honour(t)]),
        "terminals": lambda: _tiles_in(_ranks((1, 9))),
        "simples": lambda: _tiles_in(_ranks(range(2, 9))),
        "upper": lambda: _tiles_in(_ranks((7, 8, 9))),
        "middle": lambda: _tiles_in(_ranks((4, 5, 6))),
        "lower": lambda: _tiles_in(_ranks((1, 2, 3))),
        "upper_four": lambda: _tiles_in(_ranks((6, 7, 8, 9))),
        "lower_four": lambda: _tiles_in(_ranks((1, 2, 3, 4))),
        "even": lambda: (_even_set, lambda t: t < 27 and rank_of(t) % 2 == 0),
        "five": lambda: (_five_set, lambda t: t < 27 and rank_of(t) == 5),
        "outside": lambda: (_outside_set, is_terminal_or_honour),
        "green": lambda: _tiles_in(GREEN),
        "reversible": lambda: _tiles_in(REVERSIBLE),
    }[name]()


# (weight, filter name) for regular hands
_FILTER_WEIGHTS = (
    (30, "any"), (10, "flush"), (10, "half_flush"), (6, "two_suits"), (5, "no_honours"), (3, "honours"),
    (4, "terminals_honours"), (2.5, "terminals"), (5, "simples"), (2.5, "upper"), (2.5, "middle"),
    (2.5, "lower"), (2, "upper_four"), (2, "lower_four"), (3, "even"), (3, "five"), (3, "outside"),
    (3, "green"), (2, "reversible"),
)


def _candidates(name: str, s0: int, s1: int):
    set_ok, pair_ok = _filter_preds(name, s0, s1)
    return ([c for c in ALL_CHOWS if set_ok(*c)], [p for p in ALL_PUNGS if set_ok(*p)],
            [t for t in ALL_TILES if pair_ok(t)])


# (name, s0, s1) -> (chows, pungs, pairs), all computed once at import
_CANDIDATES = {
    (name, s0, s1): _candidates(name, s0, s1)
    for _, name in _FILTER_WEIGHTS for s0 in range(3) for s1 in range(3) if s0 != s1
}


# ---------------------------------------------------------------------------------------------
# Seed patterns: a few related sets (and maybe the pair) placed before filling the rest.


def _seed(rng: random.Random):
    """Return (name, sets, pair or None)."""
    s = rng.randrange(3)
    perm = [0, 1, 2]
    rng.shuffle(perm)
    d = rng.choice((1, 2))
    name = rng.choice(_SEED_NAMES)
    if name == "pure_triple_chow":
        r = rng.randint(1, 7)
        return name, [("chow", tile(s, r))] * 3, None
    if name == "quadruple_chow":
        r = rng.randint(1, 7)
        return name, [("chow", tile(s, r))] * 4, None
    if name == "pure_shifted_chows":
        r = rng.randint(1, 7 - 2 * d)
        return name, [("chow", tile(s, r + i * d)) for i in range(3)], None
    if name == "four_pure_shifted_chows":
        r = rng.randint(1, 7 - 3 * d)
        return name, [("chow", tile(s, r + i * d)) for i in range(4)], None
    if name == "pure_straight":
        return name, [("chow", tile(s, r)) for r in (1, 4, 7)], None
    if name == "pure_terminal_chows":
        return name, [("chow", tile(s, 1))] * 2 + [("chow", tile(s, 7))] * 2, tile(s, 5)
    if name == "three_suited_terminal_chows":
        return (name, [("chow", tile(perm[0], 1)), ("chow", tile(perm[0], 7)),
                       ("chow", tile(perm[1], 1)), ("chow", tile(perm[1], 7))], tile(perm[2], 5))
    if name == "mixed_straight":
        return name, [("chow", tile(perm[i], 1 + 3 * i)) for i in range(3)], None
    if name == "mixed_triple_chow":
        r = rng.randint(1, 7)
        return name, [("chow", tile(i, r)) for i in range(3)], None
    if name == "mixed_shifted_chows":
        r = rng.randint(1, 5)
        return name, [("chow", tile(perm[i], r + i)) for i in range(3)], None
    if name == "pure_shifted_pungs":
        r = rng.randint(1, 7)
        return name, [("pung", tile(s, r + i)) for i in range(3)], None
    if name == "four_pure_shifted_pungs":
        r = rng.randint(1, 6)
        return name, [("pung", tile(s, r + i)) for i in range(4)], None
    if name == "mixed_shifted_pungs":
        r = rng.randint(1, 7)
        return name, [("pung", tile(perm[i], r + i)) for i in range(3)], None
    if name == "triple_pung":
        r = rng.randint(1, 9)
        return name, [("pung", tile(i, r)) for i in range(3)], None
    if name == "double_pung":
        r = rng.randint(1, 9)
        return name, [("pung", tile(perm[i], r)) for i in range(2)], None
    if name == "pure_double_chow":
        r = rng.randint(1, 7)
        return name, [("chow", tile(s, r))] * 2, None
    if name == "mixed_double_chow":
        r = rng.randint(1, 7)
        return name, [("chow", tile(perm[i], r)) for i in range(2)], None
    if name == "short_straight":
        r = rng.randint(1, 4)
        return name, [("chow", tile(s, r)), ("chow", tile(s, r + 3))], None
    if name == "two_terminal_chows":
        return name, [("chow", tile(s, 1)), ("chow", tile(s, 7))], None
    if name == "big_four_winds":
        return name, [("pung", t) for t in WIND_TILES], None
    if name == "little_four_winds":
        w = list(WIND_TILES)
        rng.shuffle(w)
        return name, [("pung", t) for t in w[:3]], w[3]
    if name == "big_three_winds":
        w = list(WIND_TILES)
        rng.shuffle(w)
        return name, [("pung", t) for t in w[:3]], None
    if name == "big_three_dragons":
        return name, [("pung", t) for t in DRAGON_TILES], None
    if name == "little_three_dragons":
        dr = list(DRAGON_TILES)
        rng.shuffle(dr)
        return name, [("pung", t) for t in dr[:2]], dr[2]
    if name == "two_dragon_pungs":
        dr = list(DRAGON_TILES)
        rng.shuffle(dr)
        return name, [("pung", t) for t in dr[:2]], None
    if name == "honour_pung":
        return name, [("pung", rng.choice(HONOUR_TILES))], None
    if name == "terminal_pungs":
        return name, [("pung", tile(rng.randrange(3), rng.choice((1, 9)))) for _ in range(2)], None
    raise AssertionError(name)


_SEED_NAMES = (
    "pure_triple_chow", "quadruple_chow", "pure_shifted_chows", "four_pure_shifted_chows", "pure_straight",
    "pure_terminal_chows", "three_suited_terminal_chows", "mixed_straight", "mixed_triple_chow",
    "mixed_shifted_chows", "pure_shifted_pungs", "four_pure_shifted_pungs", "mixed_shifted_pungs",
    "triple_pung", "double_pung", "pure_double_chow", "mixed_double_chow", "short_straight",
    "two_terminal_chows", "big_four_winds", "little_four_winds", "big_three_winds", "big_three_dragons",
    "little_three_dragons", "two_dragon_pungs", "honour_pung", "terminal_pungs",
)


# ---------------------------------------------------------------------------------------------
# Context


def _context(rng: random.Random, all_counts: Counter, declared_counts: Counter, concealed: list[int],
             win: int, has_kong: bool, wind_pungs: list[int]) -> dict:
    self_drawn = rng.random() < 0.45
    kong = False
    if self_drawn:
        if has_kong and rng.random() < 0.4:
            kong = True  # out with replacement tile
    elif all_counts[win] == 1 and rng.random() < 0.3:
        kong = True  # robbing a kong
    wall_last = (not kong) and rng.random() < 0.12
    if declared_counts[win] == 3:
        last_tile = True  # the other three are in the winner's own declared sets
    elif concealed.count(win) == 1:  # only the winning tile itself among the concealed tiles
        last_tile = rng.random() < 0.35
    else:
        last_tile = False
    seat = rng.choice(WINDS)
    prevalent = rng.choice(WINDS)
    if wind_pungs and rng.random() < 0.6:
        w = WINDS[rng.choice(wind_pungs) - 27]
        r = rng.random()
        if r < 0.4:
            seat = w
        elif r < 0.8:
            prevalent = w
        else:
            seat = prevalent = w
    flowers = 0 if rng.random() < 0.5 else rng.randint(1, 8)
    return {"self_drawn": self_drawn, "last_tile": last_tile, "wall_last": wall_last, "kong": kong,
            "seat_wind": seat, "prevalent_wind": prevalent, "flowers": flowers}


def _finish(rng: random.Random, declared: list[tuple[str, int, str]], concealed: list[int], win: int) -> dict:
    """Build a case from declared sets (kind, t, state), the concealed tiles (incl. win) and win."""
    all_counts: Counter = Counter(concealed)
    declared_counts: Counter = Counter()
    has_kong = False
    wind_pungs = []
    parts = []
    for kind, t, state in declared:
        if state in ("melded_kong", "concealed_kong"):
            tiles = [t] * 4
            has_kong = True
        else:
            tiles = set_tiles(kind, t)
        all_counts.update(tiles)
        declared_counts.update(tiles)
        text = tiles_text(tiles)
        parts.append("{" + text + "}" if state == "concealed_kong" else "[" + text + "]")
        if kind == "pung" and t in WIND_TILES:
            wind_pungs.append(t)
    for t in set(concealed):
        if t in WIND_TILES and concealed.count(t) >= 3:
            wind_pungs.append(t)
    assert max(all_counts.values()) <= 4, (declared, concealed)
    rest = sorted(concealed)
    rest.remove(win)
    hand = "".join(parts) + tiles_text(rest) + tile_text(win)
    case = {"hand": hand}
    case.update(_context(rng, all_counts, declared_counts, concealed, win, has_kong, wind_pungs))
    return case


# ---------------------------------------------------------------------------------------------
# Forms


def _weighted(rng: random.Random, pairs):
    total = sum(w for w, _ in pairs)
    x = rng.uniform(0, total)
    for w, v in pairs:
        x -= w
        if x <= 0:
            return v
    return pairs[-1][1]


def _regular(rng: random.Random) -> dict:
    while True:
        name = _weighted(rng, _FILTER_WEIGHTS)
        s0, s1 = rng.sample((0, 1, 2), 2)
        chows, pungs, pairs = _CANDIDATES[(name, s0, s1)]
        sets: list[tuple[str, int]] = []
        pair = None
        if rng.random() < 0.55:
            _, seed_sets, pair = _seed(rng)
            sets = list(seed_sets)
        p_chow = _weighted(rng, [(2, 0.0), (2, 0.25), (3, 0.5), (2, 0.75), (2, 1.0)])
        if not pungs and not chows:
            continue
        while len(sets) < 4:
            use_chow = chows and (not pungs or rng.random() < p_chow)
            sets.append(rng.choice(chows) if use_chow else rng.choice(pungs))
        if pair is None:
            pair = rng.choice(pairs) if pairs and rng.random() < 0.9 else rng.choice(ALL_TILES)
        counts = Counter([pair, pair])
        for kind, t in sets:
            counts.update(set_tiles(kind, t))
        if max(counts.values()) > 4:
            continue
        # states
        mode = _weighted(rng, [(30, "concealed"), (55, "mixed"), (15, "all_declared")])
        p_decl = {"concealed": 0.0, "mixed": rng.uniform(0.15, 0.85), "all_declared": 1.0}[mode]
        p_kong = _weighted(rng, [(45, 0.0), (25, 0.25), (18, 0.6), (12, 1.0)])
        declared: list[tuple[str, int, str]] = []
        concealed: list[int] = [pair, pair]
        for kind, t in sets:
            decl = rng.random() < p_decl
            if kind == "pung" and counts[t] == 3 and rng.random() < p_kong:
                # a concealed kong is declared too, so it fits every mode
                state = "melded_kong" if decl and rng.random() < 0.65 else "concealed_kong"
                counts[t] += 1
                declared.append((kind, t, state))
            elif decl:
                declared.append((kind, t, "melded"))
            else:
                concealed.extend(set_tiles(kind, t))
        rng.shuffle(declared)
        win = rng.choice(concealed)
        return _finish(rng, declared, concealed, win)


def _chicken(rng: random.Random) -> dict:
    """A hand built to score nothing (Chicken Hand) most of the time: three suits, an honour pair,
    unrelated simple chows and at most one concealed simple pung, some sets melded, two-sided wait."""
    while True:
        n_pungs = rng.choice((0, 1, 1, 2))
        chows = [rng.choice(ALL_CHOWS) for _ in range(4 - n_pungs)]
        pungs = [("pung", tile(rng.randrange(3), rng.randint(2, 8))) for _ in range(n_pungs)]
        sets = chows + pungs
        pair = rng.choice(HONOUR_TILES)
        if {suit_of(t) for _, t in sets} != {0, 1, 2}:
            continue
        starts = [(suit_of(t), rank_of(t)) for _, t in chows]
        if len({r for _, r in starts}) != len(starts):
            continue  # pure or mixed double chow
        if any(sa == sb and (abs(ra - rb) == 3 or {ra, rb} == {1, 7})
               for i, (sa, ra) in enumerate(starts) for sb, rb in starts[i + 1:]):
            continue  # short straight, two terminal chows
        if len(chows) >= 3:
            ranks = sorted(r for _, r in starts)
            if any(sum(1 for sx, _ in starts if sx == sy) >= 3 for sy, _ in starts):
                continue
            if any(ranks[i:i + 3] in ([1, 4, 7],) or ranks[i + 2] - ranks[i] == 2 for i in range(len(ranks) - 2)):
                continue  # mixed straight / mixed shifted chows (roughly)
        if len({rank_of(t) for _, t in pungs}) != len(pungs):
            continue  # double pung
        counts = Counter([pair, pair])
        for kind, t in sets:
            counts.update(set_tiles(kind, t))
        if max(counts.values()) > 3:
            continue  # no tile hog, no kong
        rng.shuffle(sets)
        # the first concealed set is a chow won on a two-sided wait; pungs and the rest mostly melded
        win_chows = [c for c in chows if 2 <= rank_of(c[1]) <= 6]
        if not win_chows:
            continue
        win_set = rng.choice(win_chows)
        declared = []
        concealed = [pair, pair] + set_tiles(*win_set)
        rest = list(sets)
        rest.remove(win_set)
        n_decl = rng.choice((1, 2, 3))
        for i, (kind, t) in enumerate(rest):
            if i < n_decl or kind == "pung":
                declared.append((kind, t, "melded"))
            else:
                concealed.extend(set_tiles(kind, t))
        win = win_set[1] + rng.choice((0, 2))
        case = _finish(rng, declared, concealed, win)
        case.update(self_drawn=False, last_tile=False, wall_last=False, kong=False)
        return case


def _seven_pairs(rng: random.Random, shifted: bool) -> dict:
    if shifted:
        s = rng.randrange(3)
        start = rng.randint(1, 3)
        kinds = [tile(s, start + i) for i in range(7)]
    else:
        name = _weighted(rng, [(30, "any"), (12, "flush"), (12, "half_flush"), (8, "honours_terms"),
                               (6, "simples"), (4, "green"), (4, "reversible"), (6, "low_high"),
                               (6, "terminals"), (6, "no_honours")])
        s = rng.randrange(3)
        # One rank band for the whole hand (choosing per tile could leave fewer than 4 kinds).
        band = rng.choice(((1, 2, 3, 4), (6, 7, 8, 9), (1, 2, 3), (4, 5, 6), (7, 8, 9)))
        pool = {
            "any": ALL_TILES,
            "flush": [tile(s, r) for r in range(1, 10)],
            "half_flush": [tile(s, r) for r in range(1, 10)] + list(HONOUR_TILES),
            "honours_terms": [t for t in ALL_TILES if is_terminal_or_honour(t)],
            "simples": [t for t in NUMBERED if 2 <= rank_of(t) <= 8],
            "green": sorted(GREEN),
            "reversible": sorted(REVERSIBLE),
            "low_high": [t for t in NUMBERED if rank_of(t) in band],
            "terminals": [t for t in NUMBERED if rank_of(t) in (1, 9)],
            "no_honours": NUMBERED,
        }[name]
        while True:
            if rng.random() < 0.2 and len(pool) >= 6:
                kinds = rng.sample(list(pool), 6)
                kinds.append(rng.choice(kinds))  # four of a kind as two pairs
            elif len(pool) >= 7:
                kinds = rng.sample(list(pool), 7)
            else:
                kinds = [rng.choice(pool) for _ in range(7)]
            if max(Counter(kinds).values()) <= 2:
                break
    concealed = [t for k in kinds for t in (k, k)]
    win = rng.choice(concealed)
    return _finish(rng, [], concealed, win)


def _thirteen_orphans(rng: random.Random) -> dict:
    orphans = [t for t in ALL_TILES if is_terminal_or_honour(t)]
    dup = rng.choice(orphans)
    concealed = orphans + [dup]
    win = dup if rng.random() < 0.4 else rng.choice(orphans)
    return _finish(rng, [], concealed, win)


def _knitted_tiles(rng: random.Random) -> list[int]:
    perm = [0, 1, 2]
    rng.shuffle(perm)
    return [tile(perm[i], r) for i in range(3) for r in (1 + i, 4 + i, 7 + i)]


def _honors_knitted(rng: random.Random, greater: bool) -> dict:
    knitted = _knitted_tiles(rng)
    if greater:
        concealed = list(HONOUR_TILES) + rng.sample(knitted, 7)
    else:
        n_honours = rng.choice((5, 6))
        concealed = rng.sample(HONOUR_TILES, n_honours) + rng.sample(knitted, 14 - n_honours)
    win = rng.choice(concealed)
    return _finish(rng, [], concealed, win)


def _knitted_straight(rng: random.Random) -> dict:
    knitted = _knitted_tiles(rng)
    while True:
        kind, t = rng.choice(ALL_CHOWS) if rng.random() < 0.5 else rng.choice(ALL_PUNGS)
        pair = rng.choice(ALL_TILES)
        counts = Counter(knitted + set_tiles(kind, t) + [pair, pair])
        if max(counts.values()) <= 4:
            break
    concealed = knitted + [pair, pair]
    declared = []
    r = rng.random()
    if kind == "pung" and counts[t] == 3 and r < 0.3:
        declared.append((kind, t, rng.choice(("melded_kong", "concealed_kong"))))
    elif r < 0.45:
        declared.append((kind, t, "melded"))
    else:
        concealed += set_tiles(kind, t)
    win = rng.choice(concealed)
    return _finish(rng, declared, concealed, win)


def _nine_gates(rng: random.Random) -> dict:
    s = rng.randrange(3)
    base = [tile(s, r) for r in (1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9)]
    win = tile(s, rng.randint(1, 9))
    return _finish(rng, [], base + [win], win)


_FORM_WEIGHTS = (
    (70, "regular"),
    (2, "chicken"),
    (7, "seven_pairs"),
    (1.5, "seven_shifted_pairs"),
    (3, "thirteen_orphans"),
    (2.5, "greater_honors_knitted"),
    (3, "lesser_honors_knitted"),
    (5, "knitted_straight"),
    (1.5, "nine_gates"),
)


def random_hand_ex(rng: random.Random) -> tuple[dict, str]:
    form = _weighted(rng, _FORM_WEIGHTS)
    if form == "regular":
        case = _regular(rng)
    elif form == "chicken":
        case = _chicken(rng)
    elif form == "seven_pairs":
        case = _seven_pairs(rng, shifted=False)
    elif form == "seven_shifted_pairs":
        case = _seven_pairs(rng, shifted=True)
    elif form == "thirteen_orphans":
        case = _thirteen_orphans(rng)
    elif form == "greater_honors_knitted":
        case = _honors_knitted(rng, greater=True)
    elif form == "lesser_honors_knitted":
        case = _honors_knitted(rng, greater=False)
    elif form == "knitted_straight":
        case = _knitted_straight(rng)
    else:
        case = _nine_gates(rng)
    return case, form


def random_hand(rng: random.Random) -> dict:
    return random_hand_ex(rng)[0]


def random_hands(n: int, seed: int) -> list[dict]:
    rng = random.Random(seed)
    return [random_hand(rng) for _ in range(n)]


def case_tiles(case: dict) -> Counter:
    """All tiles of a case's hand (canonical notation as emitted here) as a Counter of tile texts."""
    out: Counter = Counter()
    digits = ""
    for ch in case["hand"]:
        if ch.isdigit():
            digits += ch
        elif ch in "msp":
            out.update(d + ch for d in digits)
            digits = ""
        elif ch in HONOURS:
            out[ch] += 1
    return out
