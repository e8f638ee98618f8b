"""Seating draws for MCR tournaments: pure functions over player ids.

No Flask, no database: the web layer passes player ids (any ints) and previous
sessions' tables, and gets tables back, each a tuple of four ids in seat-wind order
East, South, West, North.

The modules, each importing only those before it: `model` (the types), `budgets` (search limits), `search`
(the tabu search over pair costs), `winds` (seat winds), `designs` and `constructions` (zero-repeat
designs), `field` (one draw's players over internal indices), `fixed` (fixed tables), `plan` (whole
tournaments up front), `ahead` (the remaining sessions planned with the played ones fixed), `repair` (the plan
in force repaired when the field changes, and the quality re-plan), `mend` (the sessions drawn ahead mended
moving as few players as the change must), `swiss` (by the standings), `session` (one session at a time:
`draw_session`, `replan_sessions`), `report` (the quality report and the manual swap).
"""

from __future__ import annotations

from .fixed import place_fixed_tables
from .mend import Mended, mend_sessions, moved_players
from .model import DrawError, Entrants, Rounds, Table
from .plan import plan_tournament
from .report import QualityReport, quality_report, swap_players
from .session import clear_caches, draw_session, replan_sessions

__all__ = [
    "DrawError",
    "Entrants",
    "Mended",
    "QualityReport",
    "Rounds",
    "Table",
    "clear_caches",
    "draw_session",
    "mend_sessions",
    "moved_players",
    "place_fixed_tables",
    "plan_tournament",
    "quality_report",
    "replan_sessions",
    "swap_players",
]
