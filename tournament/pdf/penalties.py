"""The penalty list: every penalty given, by session and time, cancelled ones marked with the reason.
Built from plain rows."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from tournament.pdf.style import ENGLISH, PdfWords, build_table_pdf, cell, content_width, format_time
from tournament.text import local_number

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
        return self.status_in(PenaltyWords())

    def status_in(self, words: PenaltyWords) -> str:
        if not self.cancelled:
            return words.active
        return words.cancelled_because % {"reason": self.cancel_reason} if self.cancel_reason else words.cancelled


@dataclass(frozen=True)
class PenaltyWords:
    """The list's words in the document's language (services/documents/exports.py translates them); python-format texts."""

    header: tuple[str, ...] = HEADER
    active: str = "active"
    cancelled: str = "cancelled"
    cancelled_because: str = "cancelled: %(reason)s"
    given_by: str = "%(time)s by %(name)s"
    page: PdfWords = ENGLISH


PLAYER_COLUMN = 3  # in _texts' order


def _texts(row: PenaltyRow, words: PenaltyWords) -> list[str]:
    given = format_time(row.given_at)
    if row.given_by:
        given = words.given_by % {"time": given, "name": row.given_by}
    return [str(row.session), "" if row.table is None else str(row.table), "" if row.hand is None else str(row.hand),
            row.player, f"−{local_number(row.amount, words.page.language)}", row.reason, given, row.status_in(words)]


def build_penalties_pdf(title: str, subtitle: str, rows: Sequence[PenaltyRow], generated_at: datetime,
                        words: PenaltyWords | None = None) -> bytes:
    total = content_width(True)
    widths = [total * share for share in SHARES]
    ordered = sorted(rows, key=lambda r: (r.session, r.given_at))
    words = words or PenaltyWords()
    body = [[cell(text, width, name=column == PLAYER_COLUMN) for column, (text, width)
             in enumerate(zip(_texts(row, words), widths, strict=True))] for row in ordered]
    # A reason and a cancel reason of 500 characters each can make a row taller than a page: it splits.
    return build_table_pdf(title, subtitle, generated_at, words.header, body, widths, wide=True,
                           right_aligned=[0, 1, 2, 4], split_rows=True, words=words.page)
