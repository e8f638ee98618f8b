"""Names in the PDFs (issue 35 item 9): family name first where the name's script or the player's country
writes it so (Chinese, Japanese, Korean, Hungarian ...), given name first elsewhere; and a name breaks between
its words only, never inside one (the score sheet printed "Järvinen-Öhma" / "n")."""

from __future__ import annotations

import io
from datetime import datetime

import pypdf
import pytest

from tournament.pdf.cards import CardEntry, ScheduleCard, build_cards_pdf
from tournament.pdf.names import printed_name
from tournament.pdf.penalties import PenaltyRow, build_penalties_pdf
from tournament.pdf.player_links import LinkRow, build_links_pdf
from tournament.pdf.score_sheets import SheetPlayer, SheetTable, build_score_sheets_pdf
from tournament.pdf.seating import SeatRow, build_seating_pdf
from tournament.pdf.standings import build_standings_pdf
from tournament.pdf.style import BODY_SIZE, break_lines, name_markup, name_size, shaped, string_width
from tournament.services.results.ranking import Entrant, TableResult, rank_players

GENERATED = datetime(2026, 5, 2, 9, 15)


@pytest.mark.parametrize(("first", "last", "country", "printed"), [
    ("伟", "张", "CN", "张伟"),
    ("伟", "张", "", "张伟"),                    # the script says it, whatever the country
    ("伟", "张", "FI", "张伟"),
    ("太郎", "山田", "JP", "山田太郎"),
    ("민준", "김", "KR", "김민준"),
    ("Wei", "Zhang", "CN", "Zhang Wei"),         # romanised, of a country that writes family first
    ("Taro", "Yamada", "jp", "Yamada Taro"),
    ("Min-jun", "Kim", "KR", "Kim Min-jun"),
    ("János", "Kovács", "HU", "Kovács János"),
    ("Văn An", "Nguyễn", "VN", "Nguyễn Văn An"),
    ("Tony", "陳", "HK", "陳 Tony"),              # mixed scripts keep a space
    ("Aino-Maija", "Järvinen-Öhman", "FI", "Aino-Maija Järvinen-Öhman"),
    ("Wei", "Zhang", "SE", "Wei Zhang"),         # a Swedish player: the Swedish order
    ("Łukasz", "Żółć", "PL", "Łukasz Żółć"),
    ("  Anna  Maria ", " Virtanen", "FI", "Anna Maria Virtanen"),
    ("", "Madonna", "", "Madonna"),
])
def test_printed_name_order(first, last, country, printed):
    assert printed_name(first, last, country) == printed


# The score sheet's player column: the width left to each of the four players on a landscape page.
def sheet_column() -> float:
    from reportlab.lib.units import mm

    from tournament.pdf import style
    from tournament.pdf.score_sheets import CELL_PADDING, FIXED_WIDTHS_MM

    return (style.content_width(True) - 2 * style.FRAME_PADDING - sum(FIXED_WIDTHS_MM) * mm) / 4 - 2 * CELL_PADDING


def test_a_word_of_a_name_is_never_cut_where_a_smaller_size_fits_it():
    name, width = "Aino-Maija Järvinen-Öhman", sheet_column()
    # The case the issue saw: at the body size the hyphenated family name is wider than the column.
    assert string_width("Järvinen-Öhman", BODY_SIZE, True) > width
    assert break_lines(shaped(name), width, BODY_SIZE, True)[-1] == "n"
    size = name_size(name, width, BODY_SIZE, True)
    assert size < BODY_SIZE and string_width("Järvinen-Öhman", size, True) <= width
    assert name_markup(name, width, BODY_SIZE, True) == f'<font size="{size:g}">Aino-Maija<br/>Järvinen-Öhman</font>'
    # A name whose words fit keeps its size and breaks between words only.
    width = string_width("Anna Maria", BODY_SIZE) + 1
    assert name_markup("Anna Maria Virtanen", width, BODY_SIZE) == "Anna Maria<br/>Virtanen"
    # A hyphenated word too wide even at the smallest size is cut after its hyphen, not inside a part.
    long = "Schlegelsteinhausen-Bergerdorff"
    assert string_width(long, 5.0, True) > sheet_column()
    size = name_size(long, sheet_column(), BODY_SIZE, True)
    assert 5.0 <= size < BODY_SIZE
    assert name_markup(long, sheet_column(), BODY_SIZE, True) == (
        f'<font size="{size:g}">Schlegelsteinhausen-<br/>Bergerdorff</font>')


def page_lines(pdf: bytes) -> list[str]:
    return [line.strip() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages
            for line in page.extract_text().splitlines()]


NAME = "Aino-Maija Järvinen-Öhman"
LONG = "Maximiliane Schlegelsteinhausen-Bergerdorff"


def standings(name: str) -> bytes:
    entrants = [Entrant(i, name, name, "FI") for i in range(8)]
    tables = [TableResult(1, t + 1, {p: s for p, s in zip(range(4 * t, 4 * t + 4), (30, 10, -15, -25), strict=True)})
              for t in range(2)]
    return build_standings_pdf("Open", "Standings", rank_players(entrants, tables, tie_breaks=["firsts"]), [1],
                               GENERATED)


BUILDERS = {
    "score sheets": lambda name: build_score_sheets_pdf(
        "Open", "Session 1", 1, [SheetTable(1, [SheetPlayer(w, name) for w in "ESWN"])], GENERATED),
    "cards": lambda name: build_cards_pdf("Open", "Seats", [ScheduleCard(i, name, name, "FI", [CardEntry(1, 1, "E")])
                                                            for i in range(4)], [1, 2], GENERATED),
    "links": lambda name: build_links_pdf("Open", "Links", [LinkRow(i, name, name, "FI", f"https://x.org/p/{i}")
                                                            for i in range(3)], GENERATED),
    "seating": lambda name: build_seating_pdf("Open", "Session 1", [SeatRow(1, w, name, name, "FI", False)
                                                                    for w in "ESWN"], GENERATED),
    "standings": standings,
    "penalties": lambda name: build_penalties_pdf("Open", "1 penalty", [PenaltyRow(1, 1, 3, name, 10, "Slow play",
                                                                                   GENERATED)], GENERATED),
}


@pytest.mark.parametrize("builder", BUILDERS)
@pytest.mark.parametrize("name", [NAME, LONG])
def test_no_pdf_breaks_a_name_inside_a_word(builder, name):
    lines = page_lines(BUILDERS[builder](name))
    text = "\n".join(lines)
    for word in name.split():
        # Whole, or (a word no column takes even at 5 pt) cut after its hyphen only.
        assert word in text or word.replace("-", "-\n") in text, f"{builder}: {word!r} is cut: {lines}"
