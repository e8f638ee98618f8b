"""Table score sheets for one session, one landscape page per table, for tables without a device.

Each sheet pre-prints the four players (in starting-seat order East, South, West, North) and, for every
one of the 16 hands, the prevalent wind and each player's seat wind in that hand, as
`tournament.rotation.hand_winds` (the one seat rotation of the project) decides them. The players
fill in the winner, the discarder, the fans, the points and everyone's running score; the last rows
take the final scores and the signatures. Built from plain rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer

from tournament.draws.model import SEAT_WIND_NAMES, WIND_ORDER
from tournament.pdf.style import (
    BODY_SIZE,
    CELL_PADDING,
    ENGLISH,
    FRAME_PADDING,
    GRID,
    HEADER_BACKGROUND,
    STRIPE,
    PdfWords,
    build_story_pdf,
    content_width,
    draw_text,
    fonts,
    heading,
    label,
    lines_markup,
    name_markup,
    paragraph_style,
    text_width,
)
from tournament.rotation import HANDS_PER_SESSION, hand_winds

WIND_NAMES = SEAT_WIND_NAMES  # one home: tournament.draws.model
# Fixed columns, then one column per player (their seat wind pre-printed, their running score written).
FIXED_HEADER = ("Hand", "Round", "Winner", "Discarder", "Fans", "Points")
FIXED_WIDTHS_MM = (10.0, 14.0, 28.0, 28.0, 59.0, 16.0)
HAND_ROW_HEIGHT = 6.8 * mm
MIN_ROW_HEIGHT = 5 * mm
SMALLEST_NAME_SIZE = 5.0
HEADER_PADDING = 3.0
LEGEND_GAP = 1.5 * mm
WIND_SIZE = 7.0
SIGNATURE_ROW_HEIGHT = 12 * mm
HEADER_ROOM = 100 * mm      # the most a label may be wrapped into (it is far less)
DEALER_SHADE = colors.HexColor("#fbe7c6")   # the dealer's (East's) cell of every hand
WIND_GREY = colors.HexColor("#55636a")
LEGEND = ("The letter in each player's box is their seat wind in that hand; the shaded box is the dealer (East). "
          "Write each player's running score in their column: the four scores always sum to zero.")


@dataclass(frozen=True)
class SheetWords:
    """The sheets' words in the document's language (services/documents/exports.py translates them); python-format texts
    take %(wind)s, %(num)d and %(table)d. A wind is its name where there is room (the Round column, when it fits),
    else its initial in the same language (the players' boxes: Finnish I E L P, never an English E for Itä)."""

    header: tuple[str, ...] = FIXED_HEADER
    legend: str = LEGEND
    winds: dict[str, str] = field(default_factory=lambda: dict(WIND_NAMES))
    initials: dict[str, str] = field(default_factory=lambda: {wind: wind for wind in WIND_NAMES})
    starts: str = "starts %(wind)s"
    final_score: str = "Final score"
    signatures: str = "Signatures"
    referee: str = "Referee:"
    heading: str = "Session %(num)d · Table %(table)d"
    no_tables: str = "No tables drawn for this session."
    page: PdfWords = ENGLISH


@dataclass(frozen=True)
class SheetPlayer:
    start_wind: str     # the seat drawn for the session: E, S, W or N
    name: str


@dataclass(frozen=True)
class SheetTable:
    table: int
    players: Sequence[SheetPlayer]

    def in_seat_order(self) -> list[SheetPlayer]:
        return sorted(self.players, key=lambda p: WIND_ORDER.get(p.start_wind, 9))


def hand_rows(players: Sequence[SheetPlayer], words: SheetWords | None = None) -> list[list[str]]:
    """The pre-printed part of each hand's row: number, prevalent (round) wind, then every player's seat wind (its
    code: drawn as its initial in the sheet's language). The round is the wind's name when every name fits its
    column at the body size, else every round is its initial ("Pohjoinen" is wider than the column: I E L P)."""
    words = words or SheetWords()
    room = FIXED_WIDTHS_MM[1] * mm - 2 * CELL_PADDING
    # measured in the fonts the names are set in (a Chinese name is not in the body font)
    fits = all(text_width(name, BODY_SIZE) <= room for name in words.winds.values())
    rounds = words.winds if fits else {wind: words.initials.get(wind, wind) for wind in words.winds}
    rows = []
    for number in range(1, HANDS_PER_SESSION + 1):
        winds = hand_winds(number)
        rows.append([str(number), rounds[winds.prevalent], "", "", "", "",
                     *(winds.seat_winds[p.start_wind] for p in players)])
    return rows


def _player_header(player: SheetPlayer, width: float, size: float = BODY_SIZE,
                   words: SheetWords | None = None) -> Paragraph:
    words = words or SheetWords()
    name = name_markup(player.name, width, size, bold=True)
    starts = lines_markup(words.starts % {"wind": words.winds.get(player.start_wind, player.start_wind)}, width,
                          size)
    # The name in bold, wrapped to its column (runs in other scripts keep their own font), then the
    # seat the player starts in.
    return Paragraph(f'<font name="{fonts().bold}">{name}</font><br/>{starts}',
                     paragraph_style(size, color="white"))


@dataclass(frozen=True)
class SheetLabels:
    """The words every sheet of a document prints in the same boxes, each measured with its fonts to the room inside
    its box and wrapped once: a column's heading wraps between its words or is set smaller, never runs into the
    next column (the Finnish "Allekirjoitukset" ran through the rule into "Tuomari:")."""

    header: list[Paragraph]
    header_heights: list[float]
    final_score: Paragraph
    signatures: Paragraph
    referee: Paragraph
    legend: Paragraph

    @classmethod
    def fitted(cls, words: SheetWords, widths: Sequence[float]) -> SheetLabels:
        first = len(words.header)
        boxes = [w - 2 * CELL_PADDING for w in widths]
        header = [label(text, room, bold=True, color="white") for text, room in zip(words.header, boxes, strict=False)]
        heights = [p.wrap(room, HEADER_ROOM)[1] for p, room in zip(header, boxes, strict=False)]
        rows = [(words.final_score, sum(widths[:first])), (words.signatures, sum(widths[:2])),
                (words.referee, sum(widths[2:first]))]
        final_score, signatures, referee = (label(text, width - 2 * CELL_PADDING, bold=True) for text, width in rows)
        for p, (_, width) in zip((final_score, signatures, referee), rows, strict=True):
            p.wrap(width - 2 * CELL_PADDING, SIGNATURE_ROW_HEIGHT)
        legend = Paragraph(lines_markup(words.legend, sum(widths), 7.0), paragraph_style(7.0))
        legend.wrap(sum(widths), HEADER_ROOM)
        return cls(header, heights, final_score, signatures, referee, legend)


class ScoreSheet(Flowable):
    """One table's sheet, drawn straight on the canvas in the project's look (the colours, fonts and
    padding of `tournament.pdf.style`): a session has hundreds of tables, and laying out a platypus Table
    of 19 rows by 10 columns per page cost several times more than drawing its few lines and strings.

    The hand rows share the height left by the header (long names wrap there) so that the sheet, its
    legend and the page's heading always fit on one page; names too long for the header even then
    (80 + 80 characters, CJK) are set smaller, down to SMALLEST_NAME_SIZE.
    """

    def __init__(self, table: SheetTable, widths: Sequence[float], words: SheetWords | None = None,
                 labels: SheetLabels | None = None):
        super().__init__()
        self.words = words or SheetWords()
        self.players = table.in_seat_order()
        self.widths = list(widths)
        self.rows = hand_rows(self.players, self.words)
        self.names: list[Paragraph] = []
        self._names_by_size: dict[float, list[Paragraph]] = {}   # wrap runs more than once per sheet
        self.labels = labels or SheetLabels.fitted(self.words, self.widths)
        self.row_height = HAND_ROW_HEIGHT
        self.header_height = 0.0
        self.legend_height = self.labels.legend.height + LEGEND_GAP

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        first = len(self.words.header)
        header_room = (avail_height - SIGNATURE_ROW_HEIGHT - self.legend_height
                       - MIN_ROW_HEIGHT * (len(self.rows) + 1))
        size = BODY_SIZE
        while True:
            columns = [w - 2 * CELL_PADDING for w in self.widths[first:]]
            if size not in self._names_by_size:
                self._names_by_size[size] = [_player_header(p, w, size, self.words)
                                             for p, w in zip(self.players, columns, strict=True)]
            self.names = self._names_by_size[size]
            name_heights = [p.wrap(w, avail_height)[1] for p, w in zip(self.names, columns, strict=True)]
            self.header_height = (max([BODY_SIZE * 1.2, *self.labels.header_heights, *name_heights])
                                  + 2 * HEADER_PADDING)
            if self.header_height <= header_room or size <= SMALLEST_NAME_SIZE:
                break
            size -= 0.5
        room = avail_height - self.header_height - SIGNATURE_ROW_HEIGHT - self.legend_height
        self.row_height = max(MIN_ROW_HEIGHT, min(HAND_ROW_HEIGHT, room / (len(self.rows) + 1)))
        self.width = sum(self.widths)
        self.height = (self.header_height + self.row_height * (len(self.rows) + 1) + SIGNATURE_ROW_HEIGHT
                       + self.legend_height)
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        f = fonts()
        first = len(self.words.header)
        xs = [sum(self.widths[:i]) for i in range(len(self.widths) + 1)]  # column edges
        top, width, rh = self.height, self.width, self.row_height
        body_top = top - self.header_height
        total_top = body_top - rh * len(self.rows)
        signature_top = total_top - rh
        bottom = signature_top - SIGNATURE_ROW_HEIGHT

        # backgrounds: the header, stripes in the fixed columns, each hand's dealer
        c.setFillColor(HEADER_BACKGROUND)
        c.rect(0, body_top, width, self.header_height, stroke=0, fill=1)
        c.setFillColor(STRIPE)
        for i in range(1, len(self.rows), 2):
            c.rect(0, body_top - rh * (i + 1), xs[first], rh, stroke=0, fill=1)
        c.setFillColor(DEALER_SHADE)
        for i, row in enumerate(self.rows):
            for k, wind in enumerate(row[first:]):
                if wind == "E":
                    c.rect(xs[first + k], body_top - rh * (i + 1), xs[first + k + 1] - xs[first + k], rh,
                           stroke=0, fill=1)

        # rules: a grid in the hand rows; the total and signature rows span the fixed columns
        c.setStrokeColor(GRID)
        c.setLineWidth(0.5)
        for i in range(1, len(self.rows) + 2):
            c.line(0, body_top - rh * i, width, body_top - rh * i)
        for x in xs[1:first]:
            c.line(x, top, x, total_top)
        c.line(xs[2], signature_top, xs[2], bottom)
        for x in xs[first + 1:-1]:
            c.line(x, top, x, bottom)
        c.setStrokeColor(HEADER_BACKGROUND)
        c.setLineWidth(1.0)
        c.line(0, total_top, width, total_top)
        c.line(xs[first], top, xs[first], bottom)
        c.rect(0, bottom, width, top - bottom, stroke=1, fill=0)

        # text: the header, then every hand row, then the last two rows' labels (each label a paragraph fitted to
        # its box; a label in another script than the body font's, Chinese, is set in a font that has it)
        for x, heading_label in zip(xs, self.labels.header, strict=False):
            heading_label.drawOn(c, x + CELL_PADDING, body_top + HEADER_PADDING)
        for x, name in zip(xs[first:], self.names, strict=False):
            name.drawOn(c, x + CELL_PADDING, body_top + HEADER_PADDING)
        text = c.beginText()
        winds_to_draw: list[tuple[float, float, str]] = []
        initials_to_draw: list[tuple[float, float, str]] = []
        for i, row in enumerate(self.rows):
            row_top = body_top - rh * i
            middle = row_top - rh / 2 - BODY_SIZE * 0.35
            text.setFillColor(colors.black)
            text.setFont(f.regular, BODY_SIZE)
            number_width = pdfmetrics.stringWidth(row[0], f.regular, BODY_SIZE)
            text.setTextOrigin(xs[1] - CELL_PADDING - number_width, middle)
            text.textOut(row[0])
            if row[1].isascii():
                text.setTextOrigin(xs[1] + CELL_PADDING, middle)
                text.textOut(row[1])
            else:  # drawn after the text object, in the fonts its script needs
                winds_to_draw.append((xs[1] + CELL_PADDING, middle, row[1]))
            text.setFillColor(WIND_GREY)
            text.setFont(f.bold, WIND_SIZE)
            for k, wind in enumerate(row[first:]):
                text.setTextOrigin(xs[first + k] + CELL_PADDING, row_top - 1 - WIND_SIZE)
                initial = self.words.initials.get(wind, wind)
                if initial.isascii():
                    text.textOut(initial)
                else:  # Ö, 东: drawn after the text object, in a font that has it
                    initials_to_draw.append((xs[first + k] + CELL_PADDING, row_top - 1 - WIND_SIZE, initial))
        c.drawText(text)
        c.setFillColor(colors.black)
        for x, y, wind_text in winds_to_draw:
            draw_text(c, x, y, wind_text, BODY_SIZE)
        c.setFillColor(WIND_GREY)
        for x, y, wind_text in initials_to_draw:
            draw_text(c, x, y, wind_text, WIND_SIZE, bold=True)
        c.setFillColor(colors.black)
        labels = self.labels
        labels.final_score.drawOn(c, CELL_PADDING, total_top - rh / 2 - labels.final_score.height / 2)
        labels.signatures.drawOn(c, CELL_PADDING, signature_top - 3 - labels.signatures.height)
        labels.referee.drawOn(c, xs[2] + CELL_PADDING, signature_top - 3 - labels.referee.height)
        labels.legend.drawOn(c, 0, 0)


def _page(table: SheetTable, session_number: int, widths: list[float], words: SheetWords,
          labels: SheetLabels) -> list[Flowable]:
    return [heading(words.heading % {"num": session_number, "table": table.table}, 13.0), Spacer(1, 2 * mm),
            ScoreSheet(table, widths, words, labels)]


def build_score_sheets_pdf(title: str, subtitle: str, session_number: int, tables: Sequence[SheetTable],
                           generated_at: datetime, words: SheetWords | None = None) -> bytes:
    """One page per table, in table order."""
    words = words or SheetWords()
    fixed = [w * mm for w in FIXED_WIDTHS_MM]
    story: list[Flowable] = []
    labels: dict[int, SheetLabels] = {}   # by the number of players: the same boxes on every sheet
    for table in sorted(tables, key=lambda t: t.table):
        players = len(table.players) or 1
        widths = fixed + [(content_width(True) - 2 * FRAME_PADDING - sum(fixed)) / players] * players
        if players not in labels:
            labels[players] = SheetLabels.fitted(words, widths)
        if story:
            story.append(PageBreak())
        story += _page(table, session_number, widths, words, labels[players])
    if not story:
        story.append(heading(words.no_tables))
    return build_story_pdf(title, subtitle, generated_at, story, wide=True, words=words.page)
