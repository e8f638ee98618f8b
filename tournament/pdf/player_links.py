"""The desk's sheet of players' private links: each player's name with a QR code of their page, three across,
alphabetically, to show a player who lost their card. Built from plain rows; the links are secrets, so the
sheet says so in its subtitle."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from tournament.pdf.style import (
    ENGLISH,
    GRID,
    PdfWords,
    build_story_pdf,
    content_width,
    heading,
    lines_markup,
    markup,
    name_markup,
    paragraph_style,
    qr_code,
)
from tournament.text import fold

PER_ROW = 3
GAP = 4 * mm
NAME_SIZE = 9.0
URL_SIZE = 5.5


@dataclass(frozen=True)
class LinkRow:
    player_id: int
    name: str
    sort_name: str
    country: str
    url: str


def _cell(row: LinkRow, width: float) -> Table:
    title = name_markup(row.name, width - 6, NAME_SIZE, bold=True)
    if row.country:
        title += f" <font size='7'>({markup(row.country)})</font>"
    # The address broken where it reaches the edge, measured: it is one long word.
    url = lines_markup(row.url, width - 6, URL_SIZE)
    cell = Table([[Paragraph(title, paragraph_style(NAME_SIZE, bold=True))], [qr_code(row.url, width - 24 * mm)],
                  [Paragraph(url, paragraph_style(URL_SIZE))]], colWidths=[width])
    cell.setStyle(TableStyle([("BOX", (0, 0), (-1, -1), 0.75, GRID), ("ALIGN", (0, 1), (0, 1), "CENTER"),
                              ("LEFTPADDING", (0, 0), (-1, -1), 3), ("RIGHTPADDING", (0, 0), (-1, -1), 3)]))
    return cell


def build_links_pdf(title: str, subtitle: str, rows: Sequence[LinkRow], generated_at: datetime, *,
                    none_yet: str = "No player registered yet.", words: PdfWords = ENGLISH) -> bytes:
    """Every player's link as a QR code, three across, alphabetically (`none_yet`, `words`: the document's
    language)."""
    total = content_width(False)
    width = (total - GAP * (PER_ROW - 1)) / PER_ROW
    ordered = sorted(rows, key=lambda r: (fold(r.sort_name), r.sort_name, r.player_id))
    grid_rows = []
    for start in range(0, len(ordered), PER_ROW):
        line: list[Flowable | str] = [_cell(r, width) for r in ordered[start:start + PER_ROW]]
        line += [""] * (PER_ROW - len(line))
        grid_rows.append(line)
    story: list[Flowable] = []
    if grid_rows:
        grid = Table(grid_rows, colWidths=[width + GAP] * (PER_ROW - 1) + [width])
        grid.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                  ("RIGHTPADDING", (0, 0), (-2, -1), GAP), ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
                                  ("BOTTOMPADDING", (0, 0), (-1, -1), GAP)]))
        story.append(grid)
    else:
        story.append(heading(none_yet))
    return build_story_pdf(title, subtitle, generated_at, story, words=words)
