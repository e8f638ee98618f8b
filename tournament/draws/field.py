"""The field of one draw over internal indices 0..n-1, and the sessions played before it.

Player ids are sorted before use (actives first, then the substitutes seated), so a draw is a function of its
seed and its inputs, whatever order the caller lists the players in.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from tournament.messages import msg, msg_n

from . import search
from .model import DrawError, Entrants, RoundList, Rounds
from .winds import seat_cost


def seat_field(players: Sequence[int], substitutes: Sequence[int],
               sub_use: Mapping[int, int] | None = None) -> tuple[list[int], list[int]]:
    """(sorted active players, substitutes used) so that the total is a multiple of 4."""
    ids = [int(p) for p in players]
    if len(set(ids)) != len(ids):
        dup = sorted({p for p in ids if ids.count(p) > 1})
        raise DrawError(msg("players listed twice: %(players)s", players=", ".join(map(str, dup))))
    subs = []
    for s in substitutes:
        s = int(s)
        if s not in subs and s not in set(ids):
            subs.append(s)
    n = len(ids)
    need = (-n) % 4
    tables = (n + 3) // 4
    if n == 0:
        raise DrawError(msg("no active players to seat"))
    if len(subs) < need:
        more = need - len(subs)
        raise DrawError(msg_n(
            "%(players)d active players and %(substitutes)d substitutes: need %(num)d more player or substitute "
            "to fill %(tables)d tables",
            "%(players)d active players and %(substitutes)d substitutes: need %(num)d more players or substitutes "
            "to fill %(tables)d tables", more, players=n, substitutes=len(subs), tables=tables))
    if sub_use:
        order = {s: i for i, s in enumerate(subs)}
        subs = sorted(subs, key=lambda s: (sub_use.get(s, 0), order[s]))
    return sorted(ids), sorted(subs[:need])


def group_index(ids: Sequence[int], groups: Mapping[int, Hashable] | None) -> list[int | None]:
    """Each player's group as a small number (None: in no group), in the order of ``ids``."""
    if not groups:
        return [None] * len(ids)
    keys: dict[Hashable, int] = {}
    out: list[int | None] = []
    for p in ids:
        g = groups.get(p)
        if g is None:
            out.append(None)
        else:
            out.append(keys.setdefault(g, len(keys)))
    return out


def _history_index(history: Rounds, index: Mapping[int, int]) -> RoundList:
    """History rounds over internal indices, keeping only active players (seat order kept,
    absent players as -1)."""
    out = []
    for session in history:
        rnd = []
        for table in session:
            rnd.append([index.get(int(p), -1) for p in table])
        out.append(rnd)
    return out


@dataclass(frozen=True)
class Apart:
    """Whom a draw keeps apart, canonical and hashable (a key of the cached plans): each grouped player's group
    as a small number (group keys only matter through equality), the players keeping a fixed table (only that
    matters to the search: the numbers are given to the tables afterwards), and whether teammates apart come
    before repeat opponents (``teams_first``) or after (the default)."""

    groups: tuple[tuple[int, int], ...] = ()
    fixed: tuple[int, ...] = ()
    teams_first: bool = False

    @classmethod
    def of(cls, entrants: Entrants) -> Apart:
        keys: dict[Hashable, int] = {}
        groups = entrants.groups or {}
        return cls(groups=tuple(sorted((int(p), keys.setdefault(g, len(keys))) for p, g in
                                       sorted(groups.items(), key=lambda kv: int(kv[0])) if g is not None)),
                   fixed=tuple(sorted(int(p) for p in entrants.fixed or {})), teams_first=entrants.teams_first)

    def group_map(self) -> dict[int, int]:
        return dict(self.groups)


@dataclass
class Field:
    """The players of one draw over internal indices 0..n-1 (actives first, then the substitutes used)."""

    ids: list[int]
    index: dict[int, int]
    subs_flag: list[bool]
    grp: list[int | None]
    apart: list[bool]  # players keeping different fixed tables: never at one table
    teams_first: bool = False  # a team/club clash weighs above repeat opponents

    @property
    def n(self) -> int:
        return len(self.ids)

    @classmethod
    def of(cls, active: Sequence[int], used: Sequence[int], apart: Apart) -> Field:
        """The field of ``active`` players and the substitutes ``used``, in that order."""
        ids = [*active, *used]
        return cls(ids=ids, index={p: i for i, p in enumerate(ids)},
                   subs_flag=[False] * len(active) + [True] * len(used), grp=group_index(ids, apart.group_map()),
                   apart=apart_flags(ids, apart.fixed), teams_first=apart.teams_first)

    def pair_costs(self) -> search.PairCosts:
        """Pair costs of this field with no meeting counted yet."""
        return search.PairCosts(self.n, subs=self.subs_flag, groups=self.grp, apart=self.apart,
                                clash=search.TEAMS_FIRST_CLASH if self.teams_first else search.CLASH)

    def flaw_weights(self) -> tuple[int, int]:
        """(a repeat, a team/club or substitute pair) as the flaws of a plan count them: the first concern far
        above the second."""
        return (1, 100) if self.teams_first else (100, 1)


@dataclass
class History:
    """The earlier sessions over internal indices: their pair costs, tables and seat-wind counts."""

    pc: search.PairCosts
    fixed: RoundList
    played: list[int]
    counts: list[list[int]]


def draw_field(players: Sequence[int], substitutes: Sequence[int], history: Rounds, apart: Apart) -> Field:
    """The field of a session drawn after ``history``: the substitutes who have sat out most are seated first."""
    sub_use: dict[int, int] = {}
    for session in history:
        for table in session:
            for p in table:
                sub_use[int(p)] = sub_use.get(int(p), 0) + 1
    active, used = seat_field(players, substitutes, sub_use)
    return Field.of(active, used, apart)


def apart_flags(ids: Sequence[int], fixed_ids: Sequence[int]) -> list[bool]:
    """Players who keep a fixed table, when two or more of them are seated (one alone needs no separating)."""
    present = set(fixed_ids) & set(ids)
    return [p in present for p in ids] if len(present) > 1 else []


def load_history(history: Rounds, field: Field) -> History:
    """The played sessions over this field's indices (players gone left out)."""
    n = field.n
    state = History(pc=field.pair_costs(), fixed=[], played=[0] * n, counts=[[0, 0, 0, 0] for _ in range(n)])
    for rnd in _history_index(history, field.index):
        kept = []
        for t in rnd:
            members = [p for p in t if p >= 0]
            for w, p in enumerate(t):
                if p >= 0 and w < 4:
                    state.counts[p][w] += 1
                    state.played[p] += 1
            state.pc.add_table(members)
            kept.append(members)
        state.fixed.append(kept)
    return state


def history_costs(field: Field, state: History) -> search.PairCosts:
    """Fresh pair costs of the field holding the played sessions only."""
    pc = field.pair_costs()
    for rnd in state.fixed:
        for t in rnd:
            pc.add_table(t)
    return pc


def wind_costs(field: Field, state: History, sessions_left: int) -> dict[int, list[int]]:
    """Per player, the cost of each seat wind now, aiming at floor/ceil over `sessions_left` more sessions."""
    cost_of = {}
    for p in range(field.n):
        if field.subs_flag[p]:
            # a substitute's winds balanced over the sessions they sat in (how many more is not known)
            cost_of[p] = [seat_cost(state.counts[p], state.played[p], state.played[p] + 1, w) for w in range(4)]
        else:
            target = state.played[p] + 1 + sessions_left
            cost_of[p] = [seat_cost(state.counts[p], state.played[p], target, w) for w in range(4)]
    return cost_of


def seated_ids(tables: Sequence[Sequence[int]]) -> set[int]:
    """Everyone seated in one session."""
    return {int(p) for t in tables for p in t}
