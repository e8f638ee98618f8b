"""The one look of every PDF the project makes: A4, a title, when it was generated, "Page n of m",
a table whose header repeats on every page, and fonts that carry every script a name can be in.

Fonts: Debian's DejaVu Sans (fonts-dejavu-core) for Latin, Greek, Cyrillic, Hebrew and Arabic; where it
lacks a character, the first of the fallbacks that has it, per run of characters: FreeSans (Devanagari
and more, fonts-freefont-ttf), Loma (Thai, fonts-tlwg-loma-ttf), FreeSerif (what FreeSans lacks) and
WenQuanYi Micro Hei (Chinese, Japanese, Hangul; fonts-wqy-microhei), each embedded as a subset. Without
DejaVu: Helvetica (accents of Western Europe only); without Micro Hei, CJK runs fall back to ReportLab's
CID fonts (STSong-Light, HYSMyeongJo-Medium), which the PDF viewer supplies.

The words every page carries ("Generated ...", "Page n of m") come in a `PdfWords`: English here, the
document's language from the edge that builds it (tournament/pdf imports no Flask, so it translates nothing
itself: services/documents/exports.py hands it the tournament's language's words).

Every text is measured with the widths of the fonts it is set in (string_width, text_width) and kept inside its box:
wrapped between its words or set smaller (cell, label, name_markup, fitted_columns), a word cut only where no size
fits it; never drawn past a column's edge. tests/pdf/boxes.py checks the printed PDFs in every language.

Right-to-left text (Hebrew, Arabic) is shaped (arabic-reshaper: the joined letter forms) and put in
visual order line by line (python-bidi), since ReportLab draws glyphs left to right as given. Text is
broken into lines here, before the bidi reordering, so that a wrapped name still reads from its start.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import arabic_reshaper
from bidi import get_display
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
SMALLEST_TITLE_SIZE = 7.0
SMALL_SIZE = 8.0
CELL_PADDING = 3.0          # left and right padding of a table cell, points
FRAME_PADDING = 6.0         # ReportLab's default padding inside the page's frame

HEADER_BACKGROUND = colors.HexColor("#2f3e46")
STRIPE = colors.HexColor("#eef2f3")
GRID = colors.HexColor("#b8c4c8")


# Fallback fonts, in the order they are tried for a character the body font lacks: (regular name, file,
# bold name, file). Micro Hei has no bold: its regular stands in.
FALLBACK_FONTS = (
    ("FreeSans", "freefont/FreeSans.ttf", "FreeSansBold", "freefont/FreeSansBold.ttf"),
    ("Loma", "tlwg/Loma.ttf", "Loma-Bold", "tlwg/Loma-Bold.ttf"),
    ("FreeSerif", "freefont/FreeSerif.ttf", "FreeSerifBold", "freefont/FreeSerifBold.ttf"),
    ("WenQuanYiMicroHei", "wqy/wqy-microhei.ttc", "WenQuanYiMicroHei", "wqy/wqy-microhei.ttc"),
)
FONT_DIR = Path("/usr/share/fonts/truetype")


@dataclass(frozen=True)
class Fonts:
    regular: str
    bold: str
    fallback_regular: tuple[str, ...] = ()   # installed fallbacks, in order
    fallback_bold: tuple[str, ...] = ()


def _register(name: str, path: Path) -> bool:
    if name in pdfmetrics.getRegisteredFontNames():
        return True
    if not path.exists():
        return False
    pdfmetrics.registerFont(TTFont(name, str(path), subfontIndex=0))
    return True


@cache
def fonts() -> Fonts:
    """Register the fonts once per process: DejaVu when installed, else Helvetica; the fallbacks that are
    installed; the CJK CID fonts always (the last resort for CJK)."""
    for name in (CJK_FONT, HANGUL_FONT):
        pdfmetrics.registerFont(UnicodeCIDFont(name))
    regular, bold = DEJAVU_DIR / "DejaVuSans.ttf", DEJAVU_DIR / "DejaVuSans-Bold.ttf"
    base = ("Helvetica", "Helvetica-Bold")
    if regular.exists() and bold.exists():
        _register("DejaVuSans", regular)
        _register("DejaVuSans-Bold", bold)
        base = ("DejaVuSans", "DejaVuSans-Bold")
    fallback_regular, fallback_bold = [], []
    for name, path, bold_name, bold_path in FALLBACK_FONTS:
        if _register(name, FONT_DIR / path) and _register(bold_name, FONT_DIR / bold_path):
            fallback_regular.append(name)
            fallback_bold.append(bold_name)
    return Fonts(*base, tuple(fallback_regular), tuple(fallback_bold))


@cache
def font_chars(name: str) -> frozenset[int] | None:
    """The code points a registered TrueType font has a glyph for; None for a standard or CID font."""
    font = pdfmetrics.getFont(name)
    face = getattr(font, "face", None)
    cmap = getattr(face, "charToGlyph", None)
    return frozenset(cmap) if cmap is not None else None


def has_glyph(name: str, char: str) -> bool:
    chars = font_chars(name)
    if chars is None:  # Helvetica: Latin-1 only; the CID fonts: their CJK ranges
        if name in (CJK_FONT, HANGUL_FONT):
            return _cjk_font(char) == name
        return ord(char) < 0x100
    return ord(char) in chars


# ----------------------------------------------------------------------------- scripts and runs


def _cjk_font(char: str) -> str | None:
    """The CID font for a CJK character (the last resort when no CJK TrueType font is installed), else None."""
    code = ord(char)
    if 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F:
        return HANGUL_FONT
    if (0x2E80 <= code <= 0x2FDF or 0x3000 <= code <= 0x30FF or 0x3190 <= code <= 0x9FFF
            or 0xF900 <= code <= 0xFAFF or 0xFF00 <= code <= 0xFFEF or 0x20000 <= code <= 0x3134F):
        return CJK_FONT
    return None


def has_cjk(text: str) -> bool:
    return any(_cjk_font(c) for c in text)


@cache
def font_for(char: str, bold: bool = False) -> str:
    """The font a character is set in: the body font when it has the glyph, else the first fallback that
    has it, else the CID font for CJK, else the body font (nothing carries it)."""
    f = fonts()
    body = f.bold if bold else f.regular
    if has_glyph(body, char):
        return body
    for name in f.fallback_bold if bold else f.fallback_regular:
        if has_glyph(name, char):
            return name
    return _cjk_font(char) or body


def _follows_run(char: str) -> bool:
    """Combining marks and joiners stay in the font of the run they are in (a Thai vowel mark with its
    consonant) when that font has them."""
    return unicodedata.category(char).startswith("M") or char in "\u200c\u200d"


def runs(text: str, bold: bool = False) -> list[tuple[str, str]]:
    """`text` cut into (font, characters) runs, each character in a font that has its glyph."""
    if text.isascii():  # every body font has ASCII (most names): one run
        f = fonts()
        return [(f.bold if bold else f.regular, text)] if text else []
    out: list[tuple[str, str]] = []
    run: list[str] = []
    run_font = ""
    for char in text:
        keep = run and _follows_run(char) and has_glyph(run_font, char)
        font = run_font if keep else font_for(char, bold)
        if font != run_font and run:
            out.append((run_font, "".join(run)))
            run = []
        run_font = font
        run.append(char)
    if run:
        out.append((run_font, "".join(run)))
    return out


def has_rtl(text: str) -> bool:
    return any(unicodedata.bidirectional(c) in ("R", "AL") for c in text)


def needs_paragraph(text: str, bold: bool = False) -> bool:
    """Whether `text` needs more than the body font drawn left to right (other fonts, shaping, bidi)."""
    if text.isascii():
        return False
    f = fonts()
    body = f.bold if bold else f.regular
    return any(not has_glyph(body, c) for c in text) or has_rtl(text)


def shaped(text: str) -> str:
    """Arabic letters in their joined forms (still in logical order); other text as it is."""
    return arabic_reshaper.reshape(text) if has_rtl(text) else text


def visual(line: str) -> str:
    """One line of shaped text in the order it is drawn, left to right."""
    return get_display(line) if has_rtl(line) else line


def _markup_runs(text: str, bold: bool) -> str:
    f = fonts()
    body = f.bold if bold else f.regular
    return "".join(escape(chars) if font == body else f'<font name="{font}">{escape(chars)}</font>'
                   for font, chars in runs(text, bold))


def markup(text: str, bold: bool = False) -> str:
    """Paragraph markup of plain text on one line: escaped, right-to-left text shaped and in visual order,
    each run the body font lacks set in a font that has it. `bold`: the paragraph's font is bold."""
    return _markup_runs(visual(shaped(text)), bold)


def string_width(text: str, size: float = BODY_SIZE, bold: bool = False) -> float:
    """The printed width of `text` with its fallback fonts."""
    return sum(pdfmetrics.stringWidth(chars, font, size) for font, chars in runs(text, bold))


def _hyphen_parts(word: str) -> list[str]:
    """A word cut after each hyphen: "Schlegelsteinhausen-", "Bergerdorff"."""
    parts = [part + "-" for part in word.split("-")]
    parts[-1] = parts[-1][:-1]
    return [part for part in parts if part]


def _after_hyphens(word: str, width: float, size: float, bold: bool) -> list[str] | None:
    """A hyphenated word too wide for a line cut after its hyphens ("Schlegelsteinhausen-" /
    "Bergerdorff"), as many parts on a line as fit; None when one part alone is still too wide."""
    parts = _hyphen_parts(word)
    if len(parts) < 2 or any(string_width(part, size, bold) > width for part in parts):
        return None
    lines = [parts[0]]
    for part in parts[1:]:
        if string_width(lines[-1] + part, size, bold) <= width:
            lines[-1] += part
        else:
            lines.append(part)
    return lines


def break_lines(text: str, width: float, size: float = BODY_SIZE, bold: bool = False,
                at_hyphens: bool = False) -> list[str]:
    """`text` (shaped, logical order) broken into lines no wider than `width`: at spaces, and inside a
    word only when the word alone is wider than the line (a long name, CJK without spaces): after its
    hyphens when `at_hyphens` and that is enough, else where it reaches the edge. Widths add up word by
    word (ReportLab does not kern)."""
    words = text.split()
    space = string_width(" ", size, bold)
    lines: list[str] = []
    line: list[str] = []
    used = 0.0
    for word in words:
        word_width = string_width(word, size, bold)
        extra = word_width + (space if line else 0.0)
        if used + extra <= width:
            line.append(word)
            used += extra
            continue
        if line:
            lines.append(" ".join(line))
        line, used = [word], word_width
        if word_width <= width:
            continue
        cut = _after_hyphens(word, width, size, bold) if at_hyphens else None
        if cut:
            lines += cut[:-1]
            line, used = [cut[-1]], string_width(cut[-1], size, bold)
            continue
        piece, used = "", 0.0
        for char in word:  # a word wider than the line, cut where it reaches the edge
            char_width = string_width(char, size, bold)
            if piece and used + char_width > width:
                lines.append(piece)
                piece, used = "", 0.0
            piece += char
            used += char_width
        line = [piece]
    if line or not lines:
        lines.append(" ".join(line))
    return lines


def lines_markup(text: str, width: float, size: float = BODY_SIZE, bold: bool = False,
                 at_hyphens: bool = False) -> str:
    """Paragraph markup of `text` broken into lines that fit `width`; each line is put in visual order on
    its own, so a wrapped right-to-left name starts on the first line."""
    return "<br/>".join(_markup_runs(visual(line), bold)
                        for line in break_lines(shaped(text), width, size, bold, at_hyphens))


# A name is set smaller, down to this, rather than broken inside a word ("Järvinen-Öhman" whole on its line).
SMALLEST_NAME_WORD_SIZE = 5.0


def _fitting(words: list[str], width: float, size: float, bold: bool, smallest: float) -> float | None:
    """The largest size (half points, `size` down to `smallest`) at which every one of `words` fits `width`
    alone; None if none does. Widths grow with the size, so one measure at `size` says it (no kerning)."""
    widest = max((string_width(word, size, bold) for word in words), default=0.0)
    if widest <= width:
        return size
    fitted = int(size * width / widest * 2) / 2
    return fitted if fitted >= smallest else None


def name_size(text: str, width: float, size: float = BODY_SIZE, bold: bool = False,
              smallest: float = SMALLEST_NAME_WORD_SIZE) -> float:
    """The size at which each word of the name `text` fits `width` on its own (from `size` down to
    `smallest`): a name breaks between its words, never inside one. A word that no size down to `smallest`
    fits may break after its hyphens: then the size at which each part fits; else `smallest`."""
    words = shaped(text).split()
    whole = _fitting(words, width, size, bold, smallest)
    if whole is not None:
        return whole
    parts = _fitting([part for word in words for part in _hyphen_parts(word)], width, size, bold, smallest)
    return smallest if parts is None else parts


def name_markup(text: str, width: float, size: float = BODY_SIZE, bold: bool = False,
                smallest: float = SMALLEST_NAME_WORD_SIZE) -> str:
    """Paragraph markup of a person's name in a paragraph of `size`: broken into lines at its spaces only,
    set smaller (name_size) when a word of it is wider than `width`; only a word wider than `width` even at
    `smallest` is cut: after its hyphens if that is enough, else where it reaches the edge."""
    fitted = name_size(text, width, size, bold, smallest)
    lines = lines_markup(text, width, fitted, bold, at_hyphens=True)
    return lines if fitted == size else f'<font size="{fitted:g}">{lines}</font>'


# A label (a column's heading, a row's caption) is set smaller, down to this, rather than cut inside a word.
SMALLEST_LABEL_SIZE = 5.5


def label(text: str, width: float, size: float = BODY_SIZE, bold: bool = False, color: str = "black",
          align: str = "left", smallest: float = SMALLEST_LABEL_SIZE) -> Paragraph:
    """A label that keeps inside `width` (the room inside its box, paddings taken off), measured with the fonts'
    widths: broken into lines between its words, set smaller (from `size` down to `smallest`) when a word alone
    is wider than the box, as a name is (name_size): the Finnish "Allekirjoitukset" in a 24 mm box."""
    fitted = name_size(text, width, size, bold, smallest)
    return Paragraph(lines_markup(text, width, fitted, bold, at_hyphens=True),
                     paragraph_style(fitted, bold, align, color))


def fitted_size(text: str, width: float, height: float, size: float, smallest: float,
                bold: bool = False) -> float:
    """The largest size from `size` down to `smallest` (half points) at which `text`, wrapped to `width`,
    is at most `height` tall (leading 1.2); `smallest` if none is."""
    while size > smallest and len(break_lines(shaped(text), width, size, bold)) * size * 1.2 > height:
        size -= 0.5
    return max(size, smallest)


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
    if text.isascii():  # every body font has ASCII: one call, no run splitting (most cells)
        f = fonts()
        return pdfmetrics.stringWidth(text, f.bold if bold else f.regular, size)
    return string_width(shaped(text), size, bold)


def cell(text: str, width: float | None = None, size: float = BODY_SIZE, bold: bool = False,
         align: str = "left", color: str = "black", name: bool = False) -> str | Paragraph:
    """A table cell: a plain string when the body font can draw it on one line (fast), else a
    Paragraph that switches fonts where the body font lacks glyphs, shapes right-to-left text and
    wraps to `width`. `name`: a person's name, wrapped between its words only (name_markup)."""
    if not needs_paragraph(text, bold) and (width is None or text_width(text, size, bold) + 2 * CELL_PADDING <= width):
        return text
    style = paragraph_style(size, bold, align, color)
    if width is None:
        return Paragraph(markup(text, bold), style)
    wrap = name_markup if name else lines_markup
    return Paragraph(wrap(text, width - 2 * CELL_PADDING, size, bold), style)


# ----------------------------------------------------------------------------- pages


def _page_size(wide: bool) -> tuple[float, float]:
    return landscape(A4) if wide else A4


def content_width(wide: bool) -> float:
    return _page_size(wide)[0] - 2 * MARGIN


def format_time(at: datetime, pattern: str = "%Y-%m-%d %H:%M") -> str:
    """A time with its zone's name: an aware time (the web layer converts to the tournament's zone) in its own
    zone, 2026-05-16 10:00 EEST; a naive one is UTC, as every timestamp is stored."""
    return f"{at:{pattern}} {at.tzname() or 'UTC'}"


@dataclass(frozen=True)
class PdfWords:
    """The words of every page, in the document's language: python-format texts filled in as the pages are
    drawn (`generated` with %(time)s, `page` with %(number)d and %(total)d); `language`, the document's
    language code, writes its numbers as the pages do (tournament.text.local_number: 11,5 in Finnish)."""

    generated: str = "Generated %(time)s"
    page: str = "Page %(number)d of %(total)d"
    no_rows: str = "No rows yet."
    language: str = "en"


ENGLISH = PdfWords()


def format_generated(at: datetime, words: PdfWords = ENGLISH) -> str:
    """The 'generated at' line, in the zone `at` carries (the tournament's), else UTC."""
    return words.generated % {"time": format_time(at)}


def draw_text(canvas: pdfcanvas.Canvas, x: float, y: float, text: str, size: float, *, bold: bool = False,
              align: str = "left") -> None:
    """One line of `text` straight on the canvas, each run in a font that has its glyphs (a Chinese page
    number, a Finnish heading); `align` "right" or "centre" puts its end or middle at `x`."""
    pieces = runs(visual(shaped(text)), bold)
    width = sum(pdfmetrics.stringWidth(chars, font, size) for font, chars in pieces)
    start = x - width if align == "right" else x - width / 2 if align == "centre" else x
    for font, chars in pieces:
        canvas.setFont(font, size)
        canvas.drawString(start, y, chars)
        start += pdfmetrics.stringWidth(chars, font, size)


def _numbered_canvas(words: PdfWords):
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
                self.setFillColor(colors.black)
                draw_text(self, width / 2, MARGIN - 2 * mm, words.page % {"number": number, "total": total},
                          SMALL_SIZE, align="centre")
                super().showPage()
            super().save()

    return NumberedCanvas


def build_story_pdf(title: str, subtitle: str, generated_at: datetime, story: Sequence[Flowable], *,
                    wide: bool = False, words: PdfWords = ENGLISH) -> bytes:
    """Any flowables (tables, headings, page breaks) on the project's pages; returns the PDF bytes.

    Every page carries the title, the subtitle, when it was generated and 'Page n of m' (in `words`).
    """
    fonts()  # registered before the first paragraph style names them
    page = _page_size(wide)
    buffer = io.BytesIO()
    doc = SimpleDocTemplate(
        buffer, pagesize=page, leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN + HEADER_HEIGHT, bottomMargin=MARGIN + FOOTER_HEIGHT,
        title=title, subject=subtitle, author="MCR Tournament", creator="MCR Tournament",
    )
    # The title shrinks (a 120-character tournament name in CJK) so that it and the subtitle stay above the rule,
    # and keeps clear of the 'generated' line on its right, measured.
    generated = format_generated(generated_at, words)
    title_width = min((page[0] - 2 * MARGIN) * 0.7, page[0] - 2 * MARGIN - text_width(generated, SMALL_SIZE) - 4 * mm)
    subtitle_markup = lines_markup(subtitle, title_width, SMALL_SIZE) if subtitle else ""
    room = HEADER_HEIGHT - 2 * mm - (subtitle_markup.count("<br/>") + 1) * SMALL_SIZE * 1.2 - 2
    size = fitted_size(title, title_width, room, TITLE_SIZE, SMALLEST_TITLE_SIZE, bold=True)
    title_para = Paragraph(lines_markup(title, title_width, size, bold=True), paragraph_style(size, bold=True))
    subtitle_para = Paragraph(subtitle_markup, paragraph_style(SMALL_SIZE))

    def decorate(canvas: pdfcanvas.Canvas, _doc: Any) -> None:
        canvas.saveState()
        top = page[1] - MARGIN
        _, h = title_para.wrapOn(canvas, title_width, HEADER_HEIGHT)
        title_para.drawOn(canvas, MARGIN, top - h)
        _, sh = subtitle_para.wrapOn(canvas, title_width, HEADER_HEIGHT)
        subtitle_para.drawOn(canvas, MARGIN, top - h - sh - 1)
        draw_text(canvas, page[0] - MARGIN, top - SMALL_SIZE, generated, SMALL_SIZE, align="right")
        canvas.setStrokeColor(GRID)
        canvas.line(MARGIN, page[1] - MARGIN - HEADER_HEIGHT + 2 * mm, page[0] - MARGIN,
                    page[1] - MARGIN - HEADER_HEIGHT + 2 * mm)
        canvas.restoreState()

    doc.build(list(story), onFirstPage=decorate, onLaterPages=decorate, canvasmaker=_numbered_canvas(words))
    return buffer.getvalue()


def fitted_columns(rows: Sequence[Sequence[str]], total: float, size: float = BODY_SIZE,
                   smallest: float = 6.0) -> tuple[list[float], float]:
    """Column widths that fit `total` for rows of plain texts (the first the header, in bold), and the size they
    fit at: each column as wide as its widest text at the largest size (half points, `size` down to `smallest`)
    at which every column fits, the width left over shared out in proportion. When none does, the widths are in
    proportion at `smallest` and the cells wrap (`cell`)."""
    columns = len(rows[0]) if rows else 0
    if not columns:
        return [], size

    def needs(at: float) -> list[float]:
        return [max(text_width(row[i], at, bold=r == 0) for r, row in enumerate(rows)) + 2 * CELL_PADDING + 1
                for i in range(columns)]

    fit = size
    while True:
        widths = needs(fit)
        if sum(widths) <= total or fit <= smallest:
            break
        fit -= 0.5
    scale = total / sum(widths)
    return [w * scale for w in widths], fit


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
                 right_aligned: Sequence[int] = (), size: float = BODY_SIZE, split_rows: bool = False) -> Table:
    """A table in the project's look whose header row repeats on every page it spans. `split_rows`: a row
    may continue on the next page (rows of long texts that can be taller than a page)."""
    # A heading too wide for its column wraps between its words and is set smaller before a word is cut (name=True).
    data: list[Sequence[str | Paragraph]] = [
        [cell(h, w, size, bold=True, color="white", name=True) for h, w in zip(header, col_widths, strict=True)],
        *rows,
    ]
    # splitInRow is the least height of each part of a split row, in points
    table = Table(data, colWidths=list(col_widths), repeatRows=1, splitInRow=int(3 * size * 1.2) if split_rows else 0)
    commands = table_commands(size)
    commands += [("ALIGN", (column, 0), (column, -1), "RIGHT") for column in right_aligned]
    table.setStyle(TableStyle(commands))
    return table


def heading(text: str, size: float = 11.0, width: float | None = None) -> Paragraph:
    """A bold line; with `width`, broken into lines that fit it."""
    body = lines_markup(text, width, size, bold=True) if width else markup(text, bold=True)
    return Paragraph(body, paragraph_style(size, bold=True))


def build_table_pdf(title: str, subtitle: str, generated_at: datetime, header: Sequence[str],
                    rows: Sequence[Sequence[str | Paragraph]], col_widths: Sequence[float], *,
                    wide: bool = False, right_aligned: Sequence[int] = (), size: float = BODY_SIZE,
                    split_rows: bool = False, words: PdfWords = ENGLISH) -> bytes:
    """A document made of one long table in the project's style; returns the PDF bytes.

    Every page carries the title, the subtitle, when it was generated and 'Page n of m'; the
    table header is repeated on every page. `right_aligned`: indexes of numeric columns.
    """
    table = styled_table(header, rows, col_widths, right_aligned=right_aligned, size=size, split_rows=split_rows)
    story = [table] if rows else [table, Spacer(1, 4 * mm), Paragraph(markup(words.no_rows), paragraph_style())]
    return build_story_pdf(title, subtitle, generated_at, story, wide=wide, words=words)


def qr_code(data: str, size: float) -> Flowable:
    """A QR code of `data`, `size` points square (a player's private link on their card and the desk's sheet)."""
    from reportlab.graphics.barcode.qr import QrCodeWidget
    from reportlab.graphics.shapes import Drawing

    widget = QrCodeWidget(data, barLevel="M")
    left, bottom, right, top = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (right - left), 0, 0, size / (top - bottom), 0, 0])
    drawing.add(widget)
    return drawing
