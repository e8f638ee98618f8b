"""Seating draws for MCR tournaments: pure functions over player ids.

No Flask, no database: the web layer passes player ids (any ints) and previous
sessions' tables, and gets tables back, each a tuple of four ids in seat-wind order
East, South, West, North.
"""

from __future__ import annotations

from .engine import draw_session, place_fixed_tables, plan_tournament, replan_sessions
from .model import DrawError, Table
from .report import QualityReport, quality_report, swap_players

__all__ = [
    "DrawError",
    "QualityReport",
    "Table",
    "draw_session",
    "place_fixed_tables",
    "plan_tournament",
    "quality_report",
    "replan_sessions",
    "swap_players",
]
