"""Mending the sessions drawn ahead when the field changes, so that a change moves only the players it must.

Who left gives their seats to who came. Substitutes no longer needed leave first, and those still needed stay
where they sit. A field that lost a table dissolves one, the last unless another moves fewer players, so that
no other table changes its number: its players fill the seats left free, where they add the least pair cost
(repeats, teammates, substitutes together): at most 4 players change table in that session. A field that gained
a table opens it at the end for the newcomers (substitutes then spread one per table where that costs no
repeat). Everyone else keeps their table; only the seat winds at the tables whose players changed are balanced
again. The re-plan that searches for quality (`session.replan_sessions`) is the explicit alternative: it moves
more players to seat fewer repeats.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from . import search
from .field import Apart, Field, load_history, seat_field
from .fixed import place_fixed_tables
from .model import Entrants, RoundList, Rounds, Table
from .winds import settle_winds, wind_misses

HOLE = -1  # a seat left free (by a player who left, or at a new table)
EXACT_MOVERS = 6  # players placed by trying every assignment to the free seats (6! = 720)


@dataclass(frozen=True)
class Mended:
    """The sessions mended (E, S, W, N player ids per table, numbered from 1) and, per session, the players
    who sit at another table number than before (newcomers and those who left not counted)."""

    sessions: list[list[Table]]
    moved: list[list[int]]


def mend_sessions(ahead: Rounds, entrants: Sequence[Entrants], *, history: Rounds, seed: int) -> Mended:
    """The sessions ``ahead`` (drawn, not played, after ``history``) mended for ``entrants``, one per session
    (who that session seats now: a plan seats those registered, a session drawn on its own those checked in),
    each moving as few players as it must (see the module's docstring)."""
    rng = random.Random(seed)
    mended: RoundList = []
    touched: list[set[int]] = []
    sub_use: dict[int, int] = {}
    for rnd in history:
        for t in rnd:
            for p in t:
                sub_use[int(p)] = sub_use.get(int(p), 0) + 1
    for i, (tables, who) in enumerate(zip(ahead, entrants, strict=True)):
        others = [*history, *mended, *ahead[i + 1:]]
        new, changed = _mend_one([[int(p) for p in t] for t in tables], who, others, sub_use)
        mended.append(new)
        touched.append(changed)
        for t in new:
            for p in t:
                sub_use[p] = sub_use.get(p, 0) + 1
    subs = {int(s) for who in entrants for s in who.substitutes}
    _balance_winds(mended, touched, history, subs, rng)
    sessions: list[list[Table]] = []
    for rnd, who in zip(mended, entrants, strict=True):
        tables = [tuple(t) for t in rnd]
        sessions.append(place_fixed_tables(tables, who.fixed or {}, [*history, *sessions], who.groups,  # type: ignore[arg-type]
                                           who.substitutes, strict=False))
    return Mended(sessions=sessions, moved=[moved_players(old, new) for old, new in zip(ahead, sessions, strict=True)])


def moved_players(before: Sequence[Sequence[int]], after: Sequence[Sequence[int]]) -> list[int]:
    """Players seated in both who sit at another table number, sorted."""
    was = {int(p): i for i, t in enumerate(before) for p in t}
    now = {int(p): i for i, t in enumerate(after) for p in t}
    return sorted(p for p in was.keys() & now.keys() if was[p] != now[p])


def _mend_one(tables: RoundList, who: Entrants, others: Rounds, sub_use: Mapping[int, int]) -> tuple[RoundList, set[int]]:
    """One session mended (player ids) and the indices of its tables whose players changed."""
    seated = {p for t in tables for p in t}
    actives = {int(p) for p in who.players}
    available = list(dict.fromkeys(int(s) for s in who.substitutes if int(s) not in actives))
    order = {s: k for k, s in enumerate(available)}
    # substitutes still seated stay; then those who sat out most
    preferred = sorted(available, key=lambda s: (s not in seated, sub_use.get(s, 0), order[s]))
    active, used = seat_field(list(who.players), preferred)
    field = Field.of(active, used, Apart.of(who))
    if set(field.ids) == seated and len(tables) == field.n // 4:
        return [list(t) for t in tables], set()
    pc = load_history(others, field).pc
    regular = [not s for s in field.subs_flag]
    rnd = [[field.index.get(p, HOLE) for p in t] for t in tables]
    old = [frozenset(t) for t in rnd]
    movers = [i for i, p in enumerate(field.ids) if p not in seated]
    fixed_at = {field.index[int(p)] for p in (who.fixed or {}) if int(p) in field.index}
    while len(rnd) > field.n // 4:
        movers += _dissolve(rnd, movers, regular, fixed_at, pc)
    while len(rnd) < field.n // 4:
        rnd.append([HOLE] * 4)
    _fill(rnd, movers, pc)
    _spread_substitutes(rnd, field, pc)
    changed = {ti for ti, t in enumerate(rnd) if ti >= len(old) or frozenset(t) != old[ti]}
    return [[field.ids[p] for p in t] for t in rnd], changed


def _members(table: Sequence[int]) -> list[int]:
    return [p for p in table if p != HOLE]


def _dissolve(rnd: RoundList, movers: Sequence[int], regular: Sequence[bool], fixed_at: set[int],
              pc: search.PairCosts) -> list[int]:
    """Remove one table from ``rnd``; returns its players, who then take seats left free elsewhere.

    The table dissolved moves the fewest regular players (the last table's players are counted too when
    another is dissolved: they take its number), then the one whose players fill the free seats at least pair
    cost. Tables seating a player with a fixed table are kept."""
    last = len(rnd) - 1
    options = []
    for k, t in enumerate(rnd):
        if fixed_at & set(t) or (k != last and fixed_at & set(rnd[last])):
            continue
        moves = sum(regular[p] for p in _members(t)) + (sum(regular[p] for p in _members(rnd[last])) if k != last else 0)
        options.append((moves, k))
    if not options:  # every table keeps a fixed player: the last one goes all the same
        options = [(0, last)]
    fewest = min(m for m, _ in options)
    best = None
    for _, k in (o for o in options if o[0] == fewest):
        rest = [list(t) for j, t in enumerate(rnd) if j != k]
        leaving = [*movers, *_members(rnd[k])]
        holes = sum(p == HOLE for t in rest for p in t)
        if holes < len(leaving):
            if best is None:
                best = (None, k)
            continue
        cost = _fill(rest, leaving[:holes], pc, apply=False)
        if best is None or best[0] is None or cost < best[0]:
            best = (cost, k)
    assert best is not None
    k = best[1]
    out = _members(rnd[k])
    if k != last:
        rnd[k] = rnd[last]
    rnd.pop()
    return out


def _fill(rnd: RoundList, movers: Sequence[int], pc: search.PairCosts, apply: bool = True) -> int:
    """Seat ``movers`` in the free seats of ``rnd`` at least added pair cost (with one another too): every
    assignment for a few, else each in turn at their cheapest seat. Returns that cost; ``apply`` False leaves
    ``rnd`` as it was."""
    holes = [(ti, s) for ti, t in enumerate(rnd) for s, p in enumerate(t) if p == HOLE][:len(movers)]
    if not movers:
        return 0
    if len(movers) <= EXACT_MOVERS:
        best = None
        for perm in itertools.permutations(range(len(holes)), len(movers)):
            cost = _placed_cost(rnd, holes, movers, perm, pc)
            if best is None or cost < best[0]:
                best = (cost, perm)
        assert best is not None
        cost, perm = best
    else:
        perm_list: list[int] = []
        cost = 0
        for a in range(len(movers)):
            free = [h for h in range(len(holes)) if h not in perm_list]
            pick = min(free, key=lambda h: _placed_cost(rnd, holes, movers[:a + 1], (*perm_list, h), pc)
                       - _placed_cost(rnd, holes, movers[:a], tuple(perm_list), pc))
            perm_list.append(pick)
        perm = tuple(perm_list)
        cost = _placed_cost(rnd, holes, movers, perm, pc)
    if apply:
        for m, h in zip(movers, perm, strict=True):
            ti, s = holes[h]
            rnd[ti][s] = m
    return cost


def _placed_cost(rnd: RoundList, holes: Sequence[tuple[int, int]], movers: Sequence[int], perm: Sequence[int],
                 pc: search.PairCosts) -> int:
    """Pair cost added by seating movers[a] in holes[perm[a]] (with the table's players and one another)."""
    at: dict[int, list[int]] = {}
    for m, h in zip(movers, perm, strict=True):
        at.setdefault(holes[h][0], []).append(m)
    cost = 0
    for ti, new in at.items():
        present = _members(rnd[ti])
        for a, m in enumerate(new):
            cost += pc.add_cost(m, present + new[:a])
    return cost


def _spread_substitutes(rnd: RoundList, field: Field, pc: search.PairCosts) -> None:
    """Two substitutes at one table (a new table, say) while another table has none: one of them changes
    places with a player of that table (same seat) where that lowers the pair cost, so substitutes spread one
    per table without a repeat. Each such swap moves one player."""
    subs = field.subs_flag
    while True:
        crowded = [ti for ti, t in enumerate(rnd) if sum(subs[p] for p in t) > 1]
        free = [ti for ti, t in enumerate(rnd) if not any(subs[p] for p in t)]
        best = None
        for a in crowded:
            for s, x in enumerate(rnd[a]):
                if not subs[x]:
                    continue
                for b in free:
                    y = rnd[b][s]
                    stay_a = [p for p in rnd[a] if p != x]
                    stay_b = [p for p in rnd[b] if p != y]
                    delta = (pc.add_cost(y, stay_a) + pc.add_cost(x, stay_b)
                             - pc.add_cost(x, stay_a) - pc.add_cost(y, stay_b))
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, a, b, s)
        if best is None:
            return
        _, a, b, s = best
        rnd[a][s], rnd[b][s] = rnd[b][s], rnd[a][s]


def _balance_winds(mended: RoundList, touched: Sequence[set[int]], history: Rounds, subs: set[int],
                   rng: random.Random) -> None:
    """Seat orders at the tables that changed, so that every player's winds over the played and mended
    sessions stay within floor/ceil where they can (substitutes' too); the other tables
    keep theirs, unless a player still off sits there (then that table's seat orders may change too)."""
    off = _settle(mended, touched, history, subs, rng)
    if off:
        wider = [mine | {ti for ti, t in enumerate(rnd) if off & set(t)} for rnd, mine in zip(mended, touched,
                                                                                               strict=True)]
        _settle(mended, wider, history, subs, rng)


def _settle(mended: RoundList, chosen: Sequence[set[int]], history: Rounds, subs: set[int],
            rng: random.Random) -> set[int]:
    """`settle_winds` over the ``chosen`` tables of each mended session, the other seats fixed; returns the
    players (not substitutes) whose winds end off floor/ceil."""
    ids = sorted({int(p) for rnd in [*history, *mended] for t in rnd for p in t})
    index = {p: i for i, p in enumerate(ids)}
    counts = [[0, 0, 0, 0] for _ in ids]
    played = [0] * len(ids)
    rounds: RoundList = []
    for r, rnd in enumerate([*history, *mended]):
        mine = chosen[r - len(history)] if r >= len(history) else set()
        if r >= len(history):
            rounds.append([[index[p] for p in rnd[ti]] for ti in sorted(mine)])
        for ti, t in enumerate(rnd):
            if ti in mine:
                continue
            for w, p in enumerate(t):
                counts[index[int(p)]][w] += 1
                played[index[int(p)]] += 1
    if not any(rounds):
        return set()
    secondary = [p in subs for p in ids]
    seated, _ = settle_winds(rounds, counts, played, secondary, rng, recolour=False, players_first=True)
    for rnd, mine, seats in zip(mended, chosen, seated, strict=True):
        for ti, t in zip(sorted(mine), seats, strict=True):
            rnd[ti] = [ids[p] for p in t]
    return {ids[p] for p in wind_misses(seated, counts, played, secondary)}
