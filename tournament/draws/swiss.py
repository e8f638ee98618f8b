"""Swiss seating: tables by the standings, the best ranked together."""

from __future__ import annotations

from collections.abc import Sequence

from .field import Field, History, wind_costs
from .model import Table
from .winds import best_seating


def _swiss_order(field: Field, ranking: Sequence[int]) -> list[int]:
    """Internal indices best first: the ranked players present, then the others."""
    order = [field.index[int(p)] for p in ranking if int(p) in field.index]
    seen = set(order)
    return list(dict.fromkeys(order)) + [i for i in range(field.n) if i not in seen]


def swiss_tables(field: Field, state: History, ranking: Sequence[int], sessions_left: int) -> list[Table]:
    """Strictly by the standings: ranks 1-4 at table 1, 5-8 at table 2 ... (repeats allowed: that is a Swiss
    final). Substitutes, never ranked, take one seat each at the last tables; each table's seat order is the
    one that keeps its players' winds best balanced."""
    order = [i for i in _swiss_order(field, ranking) if not field.subs_flag[i]]
    subs = [i for i in range(field.n) if field.subs_flag[i]]
    tables = field.n // 4
    per = [0] * tables
    for i in range(len(subs)):
        per[tables - 1 - i % tables] += 1
    cost_of = wind_costs(field, state, sessions_left)
    out: list[Table] = []
    at = 0
    for t in range(tables):
        members = order[at:at + 4 - per[t]] + [subs.pop() for _ in range(per[t])]
        at += 4 - per[t]
        out.append(tuple(field.ids[p] for p in best_seating(members, cost_of)[1]))  # type: ignore[arg-type]
    return out
