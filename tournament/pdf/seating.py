"""The seating of one session as a PDF: by table (seat order East, South, West, North), then every
player alphabetically with their table and seat. Built from plain rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from reportlab.platypus import Flowable, PageBreak, Spacer

from tournament.draws.model import SEAT_WIND_NAMES, WIND_ORDER
from tournament.pdf.style import (
    CELL_PADDING,
    ENGLISH,
    PdfWords,
    build_story_pdf,
    cell,
    content_width,
    heading,
    styled_table,
    text_width,
)
from tournament.text import fold

WIND_NAMES = SEAT_WIND_NAMES  # one home: tournament.draws.model
BY_TABLE_HEADER = ("Table", "Seat", "Player", "Country")
BY_NAME_HEADER = ("Player", "Country", "Table", "Seat")
SUBSTITUTE_MARK = "%(name)s (substitute)"


@dataclass(frozen=True)
class SeatingWords:
    """The document's words in its language (services/documents/exports.py translates them); python-format texts."""

    by_table: str = "By table"
    by_player: str = "By player"
    by_table_header: tuple[str, ...] = BY_TABLE_HEADER
    by_name_header: tuple[str, ...] = BY_NAME_HEADER
    substitute: str = SUBSTITUTE_MARK
    winds: Mapping[str, str] = field(default_factory=lambda: dict(WIND_NAMES))
    page: PdfWords = ENGLISH


@dataclass(frozen=True)
class SeatRow:
    """One seated player: what the seating PDF needs, nothing from the database."""

    table: int
    wind: str            # E, S, W or N: the seat drawn for the session
    name: str            # "Zoë Łukasz"
    sort_name: str       # "Łukasz, Zoë": the alphabetical list's order
    country: str = ""
    is_substitute: bool = False

    @property
    def label(self) -> str:
        return self.label_in(SUBSTITUTE_MARK)

    def label_in(self, substitute: str) -> str:
        """The name as listed, a substitute marked (`substitute`: python-format with %(name)s)."""
        return substitute % {"name": self.name} if self.is_substitute else self.name


def by_table(rows: Sequence[SeatRow]) -> list[SeatRow]:
    return sorted(rows, key=lambda r: (r.table, WIND_ORDER.get(r.wind, 9)))


def by_name(rows: Sequence[SeatRow]) -> list[SeatRow]:
    """Last name, then first name, accents and case ignored (as the public seating page lists them)."""
    return sorted(rows, key=lambda r: (fold(r.sort_name), r.sort_name, r.table))


def _widths(header: Sequence[str], texts: list[list[str]], name_column: int, total: float) -> list[float]:
    widths = [max([text_width(h, bold=True), *(text_width(t[i]) for t in texts)]) + 2 * CELL_PADDING + 1
              for i, h in enumerate(header)]
    widths[name_column] = max(total - (sum(widths) - widths[name_column]), 60.0)
    return widths


def build_seating_pdf(title: str, subtitle: str, rows: Sequence[SeatRow], generated_at: datetime,
                      words: SeatingWords | None = None) -> bytes:
    """Two lists of the same seats: by table, then by player name on new pages (in `words`' language)."""
    words = words or SeatingWords()
    total = content_width(False)
    story: list[Flowable] = [heading(words.by_table), Spacer(1, 4)]
    tables = by_table(rows)
    texts = [[str(r.table), words.winds.get(r.wind, r.wind), r.label_in(words.substitute), r.country]
             for r in tables]
    widths = _widths(words.by_table_header, texts, 2, total)
    body = [[t[0], t[1], cell(t[2], widths[2], name=True), t[3]] for t in texts]
    table = styled_table(words.by_table_header, body, widths, right_aligned=[0])
    # A rule above each new table number: the groups of four read at a glance.
    starts = [i + 1 for i in range(1, len(tables)) if tables[i].table != tables[i - 1].table]
    table.setStyle([("LINEABOVE", (0, row), (-1, row), 1.0, "#2f3e46") for row in starts])
    story += [table, PageBreak(), heading(words.by_player), Spacer(1, 4)]

    names = by_name(rows)
    texts = [[r.label_in(words.substitute), r.country, str(r.table), words.winds.get(r.wind, r.wind)] for r in names]
    widths = _widths(words.by_name_header, texts, 0, total)
    body = [[cell(t[0], widths[0], name=True), *t[1:]] for t in texts]
    story.append(styled_table(words.by_name_header, body, widths, right_aligned=[2]))
    return build_story_pdf(title, subtitle, generated_at, story, words=words.page)
