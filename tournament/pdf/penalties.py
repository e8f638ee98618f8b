"""The penalty list: every penalty given, by session and time, cancelled ones marked with the reason.
Built from plain rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tournament.pdf.style import build_table_pdf, cell, content_width, format_time

HEADER = ("Session", "Table", "Hand", "Player", "Points", "Reason", "Given", "Status")
# Proportions of the landscape width; player and reason take most of it.
SHARES = (0.06, 0.05, 0.05, 0.18, 0.06, 0.34, 0.12, 0.14)


@dataclass(frozen=True)
class PenaltyRow:
    session: int
    table: int | None
    hand: int | None
    player: str
    amount: int
    reason: str
    given_at: datetime  # aware, in the tournament's zone (naive: UTC)
    given_by: str = ""
    cancelled: bool = False
    cancel_reason: str = ""

    @property
    def status(self) -> str:
        if not self.cancelled:
            return "active"
        return f"cancelled: {self.cancel_reason}" if self.cancel_reason else "cancelled"


def _texts(row: PenaltyRow) -> list[str]:
    given = format_time(row.given_at) + (f" by {row.given_by}" if row.given_by else "")
    return [str(row.session), "" if row.table is None else str(row.table), "" if row.hand is None else str(row.hand),
            row.player, f"−{row.amount}", row.reason, given, row.status]


def build_penalties_pdf(title: str, subtitle: str, rows: Sequence[PenaltyRow], generated_at: datetime) -> bytes:
    total = content_width(True)
    widths = [total * share for share in SHARES]
    ordered = sorted(rows, key=lambda r: (r.session, r.given_at))
    body = [[cell(text, width) for text, width in zip(_texts(row), widths, strict=True)] for row in ordered]
    # A reason and a cancel reason of 500 characters each can make a row taller than a page: it splits.
    return build_table_pdf(title, subtitle, generated_at, HEADER, body, widths, wide=True,
                           right_aligned=[0, 1, 2, 4], split_rows=True)
