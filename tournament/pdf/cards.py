"""Players' schedule cards: one card per player with their table and seat in every session, six to
an A4 page, in alphabetical order so that the desk finds a card quickly. Built from plain rows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from tournament.draws.model import SEAT_WIND_NAMES
from tournament.pdf.style import (
    ENGLISH,
    GRID,
    PdfWords,
    build_story_pdf,
    cell,
    content_width,
    fitted_columns,
    heading,
    lines_markup,
    markup,
    name_markup,
    paragraph_style,
    qr_code,
    table_commands,
)
from tournament.text import fold

WIND_NAMES = SEAT_WIND_NAMES  # one home: tournament.draws.model
CARDS_PER_ROW = 2
CARD_GAP = 6 * mm
NOT_DRAWN = "–"
CARD_HEADER = ("Session", "Table", "Seat")
START_HEADER = "Starts"
NAME_SIZE = 10.0
QR_SHARE = 0.34  # of the card's width, beside the sessions, when the card carries the player's link
QR_CAPTION = "Scan: your table, hands to confirm"
NO_CARDS = "No player to print a card for."


@dataclass(frozen=True)
class CardWords:
    """The cards' words in the document's language (services/documents/exports.py translates them)."""

    header: tuple[str, ...] = CARD_HEADER
    starts: str = START_HEADER
    qr_caption: str = QR_CAPTION
    no_cards: str = NO_CARDS
    winds: Mapping[str, str] = field(default_factory=lambda: dict(WIND_NAMES))
    page: PdfWords = ENGLISH


@dataclass(frozen=True)
class CardEntry:
    session: int
    table: int
    wind: str


@dataclass(frozen=True)
class ScheduleCard:
    player_id: int
    name: str
    sort_name: str
    country: str
    entries: Sequence[CardEntry]   # the sessions the player is seated in
    link: str = ""                 # the player's private page, printed as a QR code (none: no code)


def start_text(start: datetime | str | None) -> str:
    """A planned start as the card prints it: the weekday and the time, in the zone `start` carries (a text: as
    the caller wrote it in the document's language)."""
    if start is None:
        return NOT_DRAWN
    return start if isinstance(start, str) else f"{start:%a %H:%M}"


def card_rows(card: ScheduleCard, session_numbers: Sequence[int],
              starts: Mapping[int, datetime | str] | None = None,
              winds: Mapping[str, str] = WIND_NAMES) -> list[list[str]]:
    """One row per session; a session without a seat for this player shows dashes. With `starts` (session
    number: planned start, aware in the tournament's zone) a last column says when each session starts."""
    by_session = {e.session: e for e in card.entries}
    rows = []
    for number in session_numbers:
        entry = by_session.get(number)
        if entry is None:
            row = [str(number), NOT_DRAWN, NOT_DRAWN]
        else:
            row = [str(number), str(entry.table), winds.get(entry.wind, entry.wind)]
        if starts:
            row.append(start_text(starts.get(number)))
        rows.append(row)
    return rows


def _card(card: ScheduleCard, session_numbers: Sequence[int], width: float,
          starts: Mapping[int, datetime | str] | None, words: CardWords) -> Table:
    # The name broken into lines that fit the card (left padding 4), right-to-left text shaped.
    title = name_markup(card.name, width - 4 - 1, NAME_SIZE, bold=True)
    if card.country:
        title += f" <font size='7'>({markup(card.country, bold=True)})</font>"
    name = Paragraph(title, paragraph_style(NAME_SIZE, bold=True))
    sessions_width = width * (1 - QR_SHARE) if card.link else width
    rows = card_rows(card, session_numbers, starts, words.winds)
    header = [*words.header, words.starts] if starts else list(words.header)
    # Each column as wide as its widest text (the Swedish "Omgång", a Finnish "Pohjoinen", "pe 10.00"), the font
    # smaller when the card is too narrow for them all, a text wrapped only when even that is not enough.
    columns, size = fitted_columns([header, *rows], sessions_width)
    inner = Table([[cell(h, w, size, bold=True, color="white", name=True) for h, w in zip(header, columns, strict=True)],
                   *([cell(text, w, size) for text, w in zip(row, columns, strict=True)] for row in rows)],
                  colWidths=columns, repeatRows=1)
    inner.setStyle(TableStyle([*table_commands(size), ("ALIGN", (0, 0), (1, -1), "CENTER")]))
    if card.link:
        code_width = width * QR_SHARE
        caption = Paragraph(lines_markup(words.qr_caption, code_width - 4, 6.5), paragraph_style(6.5, align="center"))
        code = Table([[qr_code(card.link, code_width - 8)], [caption]], colWidths=[code_width])
        code.setStyle(TableStyle([("ALIGN", (0, 0), (-1, -1), "CENTER"), ("LEFTPADDING", (0, 0), (-1, -1), 2),
                                  ("RIGHTPADDING", (0, 0), (-1, -1), 2)]))
        inner = Table([[inner, code]], colWidths=[sessions_width, code_width])
        inner.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP"), ("LEFTPADDING", (0, 0), (-1, -1), 0),
                                   ("RIGHTPADDING", (0, 0), (-1, -1), 0), ("TOPPADDING", (0, 0), (-1, -1), 0)]))
    outer = Table([[name], [inner]], colWidths=[width])
    outer.setStyle(TableStyle([
        ("BOX", (0, 0), (-1, -1), 0.75, GRID),
        ("LEFTPADDING", (0, 0), (-1, -1), 0),
        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (0, 0), 3),
        ("BOTTOMPADDING", (0, 0), (0, 0), 3),
        ("LEFTPADDING", (0, 0), (0, 0), 4),
        ("BACKGROUND", (0, 0), (0, 0), colors.HexColor("#eef2f3")),
    ]))
    return outer


def build_cards_pdf(title: str, subtitle: str, cards: Sequence[ScheduleCard], session_numbers: Sequence[int],
                    generated_at: datetime, starts: Mapping[int, datetime | str] | None = None,
                    words: CardWords | None = None) -> bytes:
    """Every player's card, alphabetically, two across; a row of cards never splits across pages. `starts`:
    the sessions' planned starts (aware, in the tournament's zone, or already written out), printed on every
    card when there are any; `words`: the document's language."""
    words = words or CardWords()
    total = content_width(False)
    width = (total - CARD_GAP * (CARDS_PER_ROW - 1)) / CARDS_PER_ROW
    ordered = sorted(cards, key=lambda c: (fold(c.sort_name), c.sort_name, c.player_id))
    grid_rows = []
    for start in range(0, len(ordered), CARDS_PER_ROW):
        row: list[Flowable | str] = [_card(c, session_numbers, width, starts, words)
                                     for c in ordered[start:start + CARDS_PER_ROW]]
        row += [""] * (CARDS_PER_ROW - len(row))
        grid_rows.append(row)
    story: list[Flowable] = []
    if grid_rows:
        grid = Table(grid_rows, colWidths=[width + CARD_GAP] * (CARDS_PER_ROW - 1) + [width])
        grid.setStyle(TableStyle([
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-2, -1), CARD_GAP),
            ("RIGHTPADDING", (-1, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), CARD_GAP),
        ]))
        story.append(grid)
    else:
        story.append(heading(words.no_cards))
    return build_story_pdf(title, subtitle, generated_at, story, words=words.page)
