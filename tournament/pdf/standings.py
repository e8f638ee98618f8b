"""The standings PDF: rank (shared ranks as "2="), name, country, table points, score, and one
column per session with that session's table points / score. Built from plain ranking rows; the numbers in the
document's language, as its pages write them (11,5 and −280 in Finnish)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Protocol

from tournament.pdf.style import (
    BODY_SIZE,
    CELL_PADDING,
    ENGLISH,
    PdfWords,
    build_table_pdf,
    cell,
    content_width,
    text_width,
)
from tournament.text import local_number, local_points

HEADER = ("Rank", "Player", "Country", "Table pts", "Score")
MISSED = "–"                # not seated in that session
WIDE_FROM_SESSIONS = 5      # landscape pages from this many session columns
MIN_NAME_WIDTH = 90.0
SMALLEST_SIZE = 6.0


@dataclass(frozen=True)
class StandingsWords:
    """The document's words in its language (services/documents/exports.py translates them): the header, a session's
    column (python-format, %(num)d) and the words of every page."""

    header: tuple[str, ...] = HEADER
    session: str = "S%(num)d"
    page: PdfWords = ENGLISH


class SessionLike(Protocol):
    session: int
    table_points: Fraction
    score: int

    @property
    def played(self) -> bool: ...


class RowLike(Protocol):
    """What a standings row must offer: `tournament.services.results.ranking.RankedRow` does."""

    name: str
    country: str
    table_points: Fraction
    score: int
    sessions: Sequence[SessionLike]

    @property
    def rank_label(self) -> str: ...


def session_text(cell_: SessionLike | None, language: str = "en") -> str:
    if cell_ is None or not cell_.played:
        return MISSED
    return f"{local_points(cell_.table_points, language)} / {local_number(cell_.score, language)}"


def _texts(row: RowLike, session_numbers: Sequence[int], language: str) -> list[str]:
    by_session = {c.session: c for c in row.sessions}
    return [row.rank_label, row.name, row.country, local_points(row.table_points, language),
            local_number(row.score, language), *(session_text(by_session.get(n), language) for n in session_numbers)]


def _widths(texts: list[list[str]], header: Sequence[str], size: float, total: float) -> list[float] | None:
    """Columns as wide as their widest text; the name column takes what is left. None if too wide."""
    widths = [
        max([text_width(h, size, bold=True), *(text_width(t[i], size) for t in texts)]) + 2 * CELL_PADDING + 1
        for i, h in enumerate(header)
    ]
    if len(widths) > len(HEADER):  # session columns all equally wide: easier to read across
        widest = max(widths[len(HEADER):])
        widths[len(HEADER):] = [widest] * (len(widths) - len(HEADER))
    others = sum(widths) - widths[1]
    if total - others < MIN_NAME_WIDTH:
        return None
    widths[1] = min(widths[1], total - others)
    # spread the spare width over the name column so the table fills the page
    widths[1] += total - sum(widths)
    return widths


def build_standings_pdf(title: str, subtitle: str, rows: Sequence[RowLike], session_numbers: Sequence[int],
                        generated_at: datetime, words: StandingsWords | None = None) -> bytes:
    """The standings as a PDF: every ranked row in order, landscape when there are many sessions."""
    words = words or StandingsWords()
    header = [*words.header, *(words.session % {"num": n} for n in session_numbers)]
    wide = len(session_numbers) >= WIDE_FROM_SESSIONS
    texts = [_texts(row, session_numbers, words.page.language) for row in rows]
    total = content_width(wide)
    size = BODY_SIZE
    widths = _widths(texts, header, size, total)
    while widths is None and size > SMALLEST_SIZE:
        size -= 0.5
        widths = _widths(texts, header, size, total)
    if widths is None:  # very many sessions: share the width equally, long texts wrap
        widths = [total / len(header)] * len(header)
    name_width = widths[1]
    table_rows = [
        [t[0], cell(t[1], name_width, size, name=True), *t[2:]] for t in texts
    ]
    numeric = [0, 3, 4, *range(len(HEADER), len(header))]
    return build_table_pdf(title, subtitle, generated_at, header, table_rows, widths, wide=wide,
                           right_aligned=numeric, size=size, words=words.page)
