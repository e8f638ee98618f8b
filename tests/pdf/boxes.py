"""Does any text of a printed PDF leave its box? The PDF is read back as it prints (pdfminer.six: every glyph's
box from the font's advance widths, every stroked rule), and each glyph is checked against:

- the rules drawn on the page: a glyph that a column's or row's rule passes through has left its column (the
  Finnish score sheet's "Allekirjoitukset" ran through the rule before "Tuomari:");
- the cells of every platypus table: while a document is built under `outlined_cells()`, each table cell is
  outlined in a hairline of the colour MARK after its content is drawn, so the cells' edges are rules too (the
  project's tables draw only the rule under each row: text running into the next column crossed nothing);
- the other glyphs: two glyphs that cover each other are text drawn over text;
- the page: a glyph outside the margins (MARGIN, the project's page margin) has left the printable area.

Widths come from the embedded fonts, as a viewer sets them, not from the layout's own sums: a check that the
layout fits what the layout measured would prove nothing.
"""

from __future__ import annotations

import bisect
import io
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from unittest import mock

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import LTChar, LTCurve, LTPage
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from reportlab.graphics.shapes import Drawing, Rect
from reportlab.platypus.tables import Table

from tournament.pdf.style import MARGIN

MARK = (1.0, 0.0, 1.0)   # the outline of a table cell, drawn by outlined_cells() only
TOLERANCE = 0.3          # points: a glyph may reach this far over another glyph or a rule's end
CLEARANCE = 0.5          # points: a glyph keeps this far from a column's rule (its end just past the rule and
                         # the next glyph starting beyond it is still text across the rule)
PAGE_EDGE = 8.0          # points: a glyph this close to the paper's edge is outside the margins


@dataclass(frozen=True)
class Glyph:
    page: int
    text: str
    x0: float
    y0: float
    x1: float
    y1: float
    size: float


@dataclass(frozen=True)
class Rule:
    """A stroked straight segment: vertical (x0 == x1) or horizontal (y0 == y1)."""

    x0: float
    y0: float
    x1: float
    y1: float
    cell: bool   # a table cell's outline (outlined_cells), else a rule the document draws


@dataclass(frozen=True)
class Problem:
    page: int
    kind: str     # "crosses a rule", "crosses a cell's edge", "over other text", "outside the margins"
    text: str     # the line of text the glyph is in
    where: str

    def __str__(self) -> str:
        return f"page {self.page}: {self.text!r} {self.kind} ({self.where})"


@contextmanager
def outlined_cells() -> Iterator[None]:
    """Every platypus table cell drawn while the context lasts is outlined in MARK (its content first)."""
    draw_cell = Table._drawCell

    def outlined(self, cellval, cellstyle, pos, size):
        draw_cell(self, cellval, cellstyle, pos, size)
        canvas = self.canv
        canvas.saveState()
        canvas.setStrokeColorRGB(*MARK)
        canvas.setLineWidth(0.1)
        canvas.rect(pos[0], pos[1], size[0], size[1], stroke=1, fill=0)
        canvas.restoreState()

    with mock.patch.object(Table, "_drawCell", outlined):
        yield


@contextmanager
def plain_qr_codes(*modules) -> Iterator[None]:
    """The QR codes of `modules` (those that import style.qr_code) drawn as one square of the same size: the
    layout is the same, and reading back a page of 30 codes of 600 squares each took seconds."""

    def square(data: str, size: float) -> Drawing:
        drawing = Drawing(size, size)
        drawing.add(Rect(0, 0, size, size, strokeColor=None, fillColor="#000000"))
        return drawing

    with ExitStack() as stack:
        for module in modules:
            stack.enter_context(mock.patch.object(module, "qr_code", square))
        yield


def _is_mark(color) -> bool:
    try:
        return tuple(round(float(c), 3) for c in color) == MARK
    except TypeError:
        return False


def _segments(curve: LTCurve) -> Iterator[tuple[float, float, float, float]]:
    pts = list(curve.pts)
    if len(pts) == 4:  # a rectangle: closed
        pts.append(pts[0])
    for (x0, y0), (x1, y1) in zip(pts, pts[1:], strict=False):
        yield x0, y0, x1, y1


def _walk(item) -> Iterator:
    yield item
    for child in getattr(item, "_objs", ()) or ():
        yield from _walk(child)


@dataclass
class Page:
    number: int
    width: float
    height: float
    glyphs: list[Glyph]
    rules: list[Rule]


def read_pages(pdf: bytes) -> list[Page]:
    """Every page's glyphs (spaces left out) and straight stroked rules, in points from the page's lower left."""
    pages = []
    resources = PDFResourceManager()
    device = PDFPageAggregator(resources, laparams=None)  # no layout analysis: the glyphs as drawn, in order
    interpreter = PDFPageInterpreter(resources, device)
    for number, pdf_page in enumerate(PDFPage.get_pages(io.BytesIO(pdf)), start=1):
        interpreter.process_page(pdf_page)
        layout = device.get_result()
        assert isinstance(layout, LTPage)
        glyphs, rules = [], []
        for item in _walk(layout):
            if isinstance(item, LTChar):
                if item.get_text().strip() and item.x1 - item.x0 > 0.01:
                    glyphs.append(Glyph(number, item.get_text(), item.x0, item.y0, item.x1, item.y1, item.size))
            elif isinstance(item, LTCurve) and item.stroke:
                cell = _is_mark(item.stroking_color)
                for x0, y0, x1, y1 in _segments(item):
                    if abs(x0 - x1) < 0.01 or abs(y0 - y1) < 0.01:
                        rules.append(Rule(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1), cell))
        pages.append(Page(number, layout.width, layout.height, glyphs, rules))
    return pages


def _lines_of_text(glyphs: list[Glyph]) -> dict[Glyph, str]:
    """Each glyph's run of text: the glyphs drawn one after the other on one baseline, each starting where the one
    before ends (a space between them where a space's gap is), as the document drew them."""
    text_of: dict[Glyph, str] = {}
    run: list[Glyph] = []
    words = ""
    for g in [*glyphs, None]:
        last = run[-1] if run else None
        follows = (g is not None and last is not None and g.page == last.page and abs(g.y0 - last.y0) < 0.5
                   and -TOLERANCE <= g.x0 - last.x1 < 0.6 * g.size)
        if not follows:
            text_of.update({r: words for r in run})
            run, words = [], ""
        if g is not None:
            if run and g.x0 - run[-1].x1 > 0.15 * g.size:
                words += " "
            run.append(g)
            words += g.text
    return text_of


def _crossings(page: Page) -> Iterator[tuple[Glyph, Rule]]:
    vertical = sorted((r for r in page.rules if r.x1 - r.x0 < 0.01 and r.y1 - r.y0 > TOLERANCE),
                      key=lambda r: r.x0)
    horizontal = sorted((r for r in page.rules if r.y1 - r.y0 < 0.01 and r.x1 - r.x0 > TOLERANCE),
                        key=lambda r: r.y0)
    xs = [r.x0 for r in vertical]
    ys = [r.y0 for r in horizontal]
    for g in page.glyphs:
        for r in vertical[bisect.bisect_left(xs, g.x0 - CLEARANCE):bisect.bisect_right(xs, g.x1 + CLEARANCE)]:
            if min(g.y1, r.y1) - max(g.y0, r.y0) > TOLERANCE:
                yield g, r
        for r in horizontal[bisect.bisect_right(ys, g.y0 + TOLERANCE):bisect.bisect_left(ys, g.y1 - TOLERANCE)]:
            if min(g.x1, r.x1) - max(g.x0, r.x0) > TOLERANCE:
                yield g, r


def _overlaps(page: Page) -> Iterator[tuple[Glyph, Glyph]]:
    grid: dict[tuple[int, int], list[Glyph]] = defaultdict(list)
    for g in page.glyphs:
        for gx in range(int(g.x0 // 20), int(g.x1 // 20) + 1):
            for gy in range(int(g.y0 // 20), int(g.y1 // 20) + 1):
                grid[(gx, gy)].append(g)
    seen = set()
    for cell in grid.values():
        for i, a in enumerate(cell):
            for b in cell[i + 1:]:
                if (min(a.x1, b.x1) - max(a.x0, b.x0) > TOLERANCE + 0.2
                        and min(a.y1, b.y1) - max(a.y0, b.y0) > TOLERANCE + 0.2 and (id(a), id(b)) not in seen):
                    seen.add((id(a), id(b)))
                    yield a, b


def problems(pdf: bytes) -> list[Problem]:
    """Every line of text that leaves its box, once per line, kind and page."""
    found: dict[tuple[int, str, str], Problem] = {}

    def add(page: int, kind: str, text: str, where: str) -> None:
        found.setdefault((page, kind, text), Problem(page, kind, text, where))

    for page in read_pages(pdf):
        text_of = _lines_of_text(page.glyphs)
        for g, r in _crossings(page):
            kind = "crosses a cell's edge" if r.cell else "crosses a rule"
            add(page.number, kind, text_of[g], f"{g.text!r} at x {g.x0:.1f}-{g.x1:.1f}, y {g.y0:.1f}-{g.y1:.1f}; "
                f"edge {r.x0:.1f},{r.y0:.1f}-{r.x1:.1f},{r.y1:.1f}")
        for a, b in _overlaps(page):
            add(page.number, "over other text", text_of[a], f"{a.text!r} over {b.text!r} of {text_of[b]!r}")
        for g in page.glyphs:
            if (g.x0 < MARGIN - TOLERANCE or g.x1 > page.width - MARGIN + TOLERANCE or g.y0 < PAGE_EDGE
                    or g.y1 > page.height - PAGE_EDGE):
                add(page.number, "outside the margins", text_of[g], f"{g.text!r} at x {g.x0:.1f}-{g.x1:.1f}")
    return sorted(found.values(), key=lambda p: (p.page, p.kind, p.text))
