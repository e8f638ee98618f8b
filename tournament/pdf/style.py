"""The one look of every PDF the project makes: A4, a title, when it was generated, "Page n of m",
a table whose header repeats on every page, and fonts that carry accents and CJK names.

Fonts: Debian's DejaVu Sans (package fonts-dejavu-core) for Latin, Greek and Cyrillic with every
accent; where it is missing, Helvetica (accents of Western Europe only). Runs of CJK characters are
set in ReportLab's built-in CID fonts (STSong-Light for Chinese and Japanese kana, HYSMyeongJo-Medium
for Hangul): nothing to install, and the PDF viewer supplies the glyphs.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT, TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas as pdfcanvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

DEJAVU_DIR = Path("/usr/share/fonts/truetype/dejavu")
CJK_FONT = "STSong-Light"
HANGUL_FONT = "HYSMyeongJo-Medium"

MARGIN = 14 * mm
HEADER_HEIGHT = 16 * mm     # title and generated-at line above the table
FOOTER_HEIGHT = 8 * mm      # page numbers
BODY_SIZE = 8.0
TITLE_SIZE = 14.0
SMALL_SIZE = 8.0
CELL_PADDING = 3.0          # left and right padding of a table cell, points
FRAME_PADDING = 6.0         # ReportLab's default padding inside the page's frame

HEADER_BACKGROUND = colors.HexColor("#2f3e46")
STRIPE = colors.HexColor("#eef2f3")
GRID = colors.HexColor("#b8c4c8")


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str


@cache
def fonts() -> Fonts:
    """Register the fonts once per process: DejaVu when installed, else Helvetica; CJK CID fonts always."""
    for name in (CJK_FONT, HANGUL_FONT):
        pdfmetrics.registerFont(UnicodeCIDFont(name))
    regular, bold = DEJAVU_DIR / "DejaVuSans.ttf", DEJAVU_DIR / "DejaVuSans-Bold.ttf"
    if regular.exists() and bold.exists():
        pdfmetrics.registerFont(TTFont("DejaVuSans", str(regular)))
        pdfmetrics.registerFont(TTFont("DejaVuSans-Bold", str(bold)))
        return Fonts("DejaVuSans", "DejaVuSans-Bold")
    return Fonts("Helvetica", "Helvetica-Bold")


# ----------------------------------------------------------------------------- CJK runs


def _cjk_font(char: str) -> str | None:
    """The CID font for a character DejaVu does not carry, or None for ordinary text."""
    code = ord(char)
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return HANGUL_FONT
    if (0x2E80 <= code <= 0x2FDF or 0x3000 <= code <= 0x30FF or 0x3190 <= code <= 0x9FFF
            or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF or 0x20000 <= code <= 0x3134F):
        return CJK_FONT
    return None


def has_cjk(text: str) -> bool:
    return any(_cjk_font(c) for c in text)


def markup(text: str) -> str:
    """Paragraph markup of plain text: escaped, with each CJK run set in its CID font."""
    out: list[str] = []
    run: list[str] = []
    run_font: str | None = None
    for char in text:
        font = _cjk_font(char)
        if font != run_font and run:
            out.append(_run(run, run_font))
            run = []
        run_font = font
        run.append(char)
    if run:
        out.append(_run(run, run_font))
    return "".join(out)


def _run(chars: list[str], font: str | None) -> str:
    text = escape("".join(chars))
    return f'<font name="{font}">{text}</font>' if font else text


# ----------------------------------------------------------------------------- paragraphs and cells


@cache
def paragraph_style(size: float = BODY_SIZE, bold: bool = False, align: str = "left",
                    color: str = "black") -> ParagraphStyle:
    f = fonts()
    return ParagraphStyle(
        name=f"mcr-{size}-{bold}-{align}-{color}", fontName=f.bold if bold else f.regular, fontSize=size,
        leading=size * 1.2, alignment=TA_RIGHT if align == "right" else TA_LEFT, textColor=color,
    )


def text_width(text: str, size: float = BODY_SIZE, bold: bool = False) -> float:
    f = fonts()
    return pdfmetrics.stringWidth(text, f.bold if bold else f.regular, size)


def cell(text: str, width: float | None = None, size: float = BODY_SIZE, bold: bool = False,
         align: str = "left", color: str = "black") -> str | Paragraph:
    """A table cell: a plain string when the body font can draw it on one line (fast), else a
    Paragraph that switches fonts for CJK runs and wraps to `width`."""
    if not has_cjk(text) and (width is None or text_width(text, size, bold) + 2 * CELL_PADDING <= width):
        return text
    return Paragraph(markup(text), paragraph_style(size, bold, align, color))


# ----------------------------------------------------------------------------- pages


def _page_size(wide: bool) -> tuple[float, float]:
    return landscape(A4) if wide else A4


def content_width(wide: bool) -> float:
    return _page_size(wide)[0] - 2 * MARGIN


def page_body_height(wide: bool) -> float:
    """The height a page leaves for the story, between the header and the page numbers."""
    return _page_size(wide)[1] - 2 * MARGIN - HEADER_HEIGHT - FOOTER_HEIGHT - 2 * FRAME_PADDING


def format_generated(at: datetime) -> str:
    """The 'generated at' line: timestamps are naive UTC throughout the project."""
    zone = at.tzname() or "UTC"
    return f"Generated {at:%Y-%m-%d %H:%M} {zone}"


def _numbered_canvas(label_font: str):
    """A canvas that writes 'Page n of m' on every page once it knows m (pages are kept until save)."""

    class NumberedCanvas(pdfcanvas.Canvas):
        def __init__(self, *args: Any, **kwargs: Any):
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []

        def showPage(self) -> None:  # noqa: N802 - ReportLab's name
            self._pages.append(dict(self.__dict__))
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            for number, state in enumerate(self._pages, start=1):
                self.__dict__.update(state)
                width, _ = self._pagesize
                self.setFont(label_font, SMALL_SIZE)
                self.setFillColor(colors.black)
                self.drawCentredString(width / 2, MARGIN - 2 * mm, f"Page {number} of {total}")
                super().showPage()
            super().save()

    return NumberedCanvas


def build_story_pdf(title: str, subtitle: str, generated_at: datetime, story: Sequence[Flowable], *,
                    wide: bool = False) -> bytes:
    """Any flowables (tables, headings, page breaks) on the project's pages; returns the PDF bytes.

    Every page carries the title, the subtitle, when it was generated and 'Page n of m'.
    """
    f = fonts()
    page = _page_size(wide)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=page, leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN + HEADER_HEIGHT, bottomMargin=MARGIN + FOOTER_HEIGHT,
        title=title, subject=subtitle, author="MCR Tournament", creator="MCR Tournament",
    )
    title_para = Paragraph(markup(title), paragraph_style(TITLE_SIZE, bold=True))
    subtitle_para = Paragraph(markup(subtitle), paragraph_style(SMALL_SIZE))
    generated = format_generated(generated_at)

    def decorate(canvas: pdfcanvas.Canvas, _doc: Any) -> None:
        canvas.saveState()
        top = page[1] - MARGIN
        usable = page[0] - 2 * MARGIN
        _, h = title_para.wrapOn(canvas, usable * 0.7, HEADER_HEIGHT)
        title_para.drawOn(canvas, MARGIN, top - h)
        _, sh = subtitle_para.wrapOn(canvas, usable * 0.7, HEADER_HEIGHT)
        subtitle_para.drawOn(canvas, MARGIN, top - h - sh - 1)
        canvas.setFont(f.regular, SMALL_SIZE)
        canvas.drawRightString(page[0] - MARGIN, top - SMALL_SIZE, generated)
        canvas.setStrokeColor(GRID)
        canvas.line(MARGIN, page[1] - MARGIN - HEADER_HEIGHT + 2 * mm, page[0] - MARGIN,
                    page[1] - MARGIN - HEADER_HEIGHT + 2 * mm)
        canvas.restoreState()

    doc.build(list(story), onFirstPage=decorate, onLaterPages=decorate, canvasmaker=_numbered_canvas(f.regular))
    return buffer.getvalue()


def table_commands(size: float = BODY_SIZE) -> list[tuple]:
    """The look of a table: bold header row in white on dark, striped rows, thin rules."""
    f = fonts()
    return [
        ("FONT", (0, 0), (-1, 0), f.bold, size),
        ("FONT", (0, 1), (-1, -1), f.regular, size),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BACKGROUND),
        ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, STRIPE]),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, GRID),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
    ]


def styled_table(header: Sequence[str], rows: Sequence[Sequence[str | Paragraph]], col_widths: Sequence[float], *,
                 right_aligned: Sequence[int] = (), size: float = BODY_SIZE) -> Table:
    """A table in the project's look whose header row repeats on every page it spans."""
    data: list[Sequence[str | Paragraph]] = [
        [cell(h, w, size, bold=True, color="white") for h, w in zip(header, col_widths, strict=True)], *rows
    ]
    table = Table(data, colWidths=list(col_widths), repeatRows=1)
    commands = table_commands(size)
    commands += [("ALIGN", (column, 0), (column, -1), "RIGHT") for column in right_aligned]
    table.setStyle(TableStyle(commands))
    return table


def heading(text: str, size: float = 11.0) -> Paragraph:
    return Paragraph(markup(text), paragraph_style(size, bold=True))


def build_table_pdf(title: str, subtitle: str, generated_at: datetime, header: Sequence[str],
                    rows: Sequence[Sequence[str | Paragraph]], col_widths: Sequence[float], *,
                    wide: bool = False, right_aligned: Sequence[int] = (), size: float = BODY_SIZE) -> bytes:
    """A document made of one long table in the project's style; returns the PDF bytes.

    Every page carries the title, the subtitle, when it was generated and 'Page n of m'; the
    table header is repeated on every page. `right_aligned`: indexes of numeric columns.
    """
    table = styled_table(header, rows, col_widths, right_aligned=right_aligned, size=size)
    story = [table] if rows else [table, Spacer(1, 4 * mm), Paragraph("No rows yet.", paragraph_style())]
    return build_story_pdf(title, subtitle, generated_at, story, wide=wide)
