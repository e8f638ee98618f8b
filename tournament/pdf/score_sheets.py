"""Table score sheets for one session, one landscape page per table, for tables without a device.

Each sheet pre-prints the four players (in starting-seat order East, South, West, North) and, for every
one of the 16 hands, the prevalent wind and each player's seat wind in that hand, as
`tournament.services.play.hand_winds` (the one seat rotation of the project) decides them. The players
fill in the winner, the discarder, the fans, the points and everyone's running score; the last rows
take the final scores and the signatures. Built from plain rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table, TableStyle

from tournament.draws.model import SEAT_WIND_NAMES
from tournament.pdf.style import (
    BODY_SIZE,
    CELL_PADDING,
    GRID,
    HEADER_BACKGROUND,
    STRIPE,
    build_story_pdf,
    content_width,
    fonts,
    heading,
    markup,
    page_body_height,
    paragraph_style,
)
from tournament.services.play import HANDS_PER_SESSION, hand_winds

WIND_NAMES = SEAT_WIND_NAMES  # one home: tournament.draws.model
WIND_ORDER = {"E": 0, "S": 1, "W": 2, "N": 3}
# Fixed columns, then one column per player (their seat wind pre-printed, their running score written).
FIXED_HEADER = ("Hand", "Round", "Winner", "Discarder", "Fans", "Points")
FIXED_WIDTHS_MM = (10.0, 14.0, 28.0, 28.0, 59.0, 16.0)
HAND_ROW_HEIGHT = 6.8 * mm
MIN_ROW_HEIGHT = 5 * mm
SIGNATURE_ROW_HEIGHT = 12 * mm
DEALER_SHADE = colors.HexColor("#fbe7c6")   # the dealer's (East's) cell of every hand
WIND_GREY = colors.HexColor("#55636a")
LEGEND = ("The letter in each player's box is their seat wind in that hand; the shaded box is the dealer (East). "
          "Write each player's running score in their column: the four scores always sum to zero.")


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


def hand_rows(players: Sequence[SheetPlayer]) -> list[list[str]]:
    """The pre-printed part of each hand's row: number, prevalent (round) wind, then every player's seat wind."""
    rows = []
    for number in range(1, HANDS_PER_SESSION + 1):
        winds = hand_winds(number)
        rows.append([str(number), WIND_NAMES[winds.prevalent], "", "", "", "",
                     *(winds.seat_winds[p.start_wind] for p in players)])
    return rows


def _player_header(player: SheetPlayer) -> Paragraph:
    name = markup(player.name)
    starts = f"starts {WIND_NAMES.get(player.start_wind, player.start_wind)}"
    # The name in bold (CJK runs keep their own font), then the seat the player starts in.
    return Paragraph(f'<font name="{fonts().bold}">{name}</font><br/>{starts}',
                     paragraph_style(BODY_SIZE, color="white"))


def _sheet(table: SheetTable, widths: list[float], row_height: float = HAND_ROW_HEIGHT) -> Table:
    players = table.in_seat_order()
    f = fonts()
    last_fixed = len(FIXED_HEADER) - 1
    header = [*FIXED_HEADER, *(_player_header(p) for p in players)]
    rows = hand_rows(players)
    blank_players = [""] * len(players)
    total_row = ["Final score", "", "", "", "", "", *blank_players]
    signature_row = ["Signatures", "", "Referee:", "", "", "", *blank_players]
    data = [header, *rows, total_row, signature_row]
    heights = [None, *[row_height] * len(rows), row_height, SIGNATURE_ROW_HEIGHT]
    sheet = Table(data, colWidths=widths, rowHeights=heights)
    total_at, signature_at = len(rows) + 1, len(rows) + 2
    first_player = len(FIXED_HEADER)
    commands: list[tuple] = [
        ("FONT", (0, 0), (-1, 0), f.bold, BODY_SIZE),
        ("FONT", (0, 1), (-1, -1), f.regular, BODY_SIZE),
        ("TEXTCOLOR", (0, 0), (-1, 0), colors.white),
        ("BACKGROUND", (0, 0), (-1, 0), HEADER_BACKGROUND),
        ("ROWBACKGROUNDS", (0, 1), (first_player - 1, len(rows)), [colors.white, STRIPE]),
        ("GRID", (0, 0), (-1, -1), 0.5, GRID),
        ("BOX", (0, 0), (-1, -1), 1.0, HEADER_BACKGROUND),
        ("LINEAFTER", (last_fixed, 0), (last_fixed, -1), 1.0, HEADER_BACKGROUND),
        ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
        ("VALIGN", (0, 1), (-1, -1), "MIDDLE"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("ALIGN", (0, 1), (0, len(rows)), "RIGHT"),
        # The seat wind sits small in the corner of the box where the running score is written.
        ("FONT", (first_player, 1), (-1, len(rows)), f.bold, 7.0),
        ("TEXTCOLOR", (first_player, 1), (-1, len(rows)), WIND_GREY),
        ("VALIGN", (first_player, 1), (-1, len(rows)), "TOP"),
        ("TOPPADDING", (first_player, 1), (-1, len(rows)), 1.0),
        ("FONT", (0, total_at), (-1, signature_at), f.bold, BODY_SIZE),
        ("LINEABOVE", (0, total_at), (-1, total_at), 1.0, HEADER_BACKGROUND),
        ("SPAN", (0, total_at), (last_fixed, total_at)),
        ("SPAN", (0, signature_at), (1, signature_at)),
        ("SPAN", (2, signature_at), (last_fixed, signature_at)),
        ("VALIGN", (0, signature_at), (-1, signature_at), "TOP"),
    ]
    for index, row in enumerate(rows, start=1):  # shade the dealer of each hand
        for offset, wind in enumerate(row[first_player:]):
            if wind == "E":
                commands.append(("BACKGROUND", (first_player + offset, index), (first_player + offset, index),
                                 DEALER_SHADE))
    sheet.setStyle(TableStyle(commands))
    return sheet


def _page(table: SheetTable, session_number: int, widths: list[float]) -> list[Flowable]:
    """A table's page; its hand rows get lower when long names make the header tall, so it stays one page."""
    available = page_body_height(wide=True)
    row_height = HAND_ROW_HEIGHT
    while True:
        parts = [heading(f"Session {session_number} · Table {table.table}", 13.0), Spacer(1, 2 * mm),
                 _sheet(table, widths, row_height), Spacer(1, 1.5 * mm), Paragraph(LEGEND, paragraph_style(7.0))]
        height = sum(part.wrap(sum(widths), available)[1] for part in parts)
        if height <= available or row_height <= MIN_ROW_HEIGHT:
            return parts
        row_height -= 0.2 * mm


def build_score_sheets_pdf(title: str, subtitle: str, session_number: int, tables: Sequence[SheetTable],
                           generated_at: datetime) -> bytes:
    """One page per table, in table order."""
    fixed = [w * mm for w in FIXED_WIDTHS_MM]
    story: list[Flowable] = []
    for table in sorted(tables, key=lambda t: t.table):
        players = len(table.players) or 1
        widths = fixed + [(content_width(True) - sum(fixed)) / players] * players
        if story:
            story.append(PageBreak())
        story.append(KeepTogether(_page(table, session_number, widths)))
    if not story:
        story.append(heading("No tables drawn for this session."))
    return build_story_pdf(title, subtitle, generated_at, story, wide=True)
