"""Score sheets read back with pypdf: one page per table, the four names with their starting seats,
and for every hand the prevalent wind and each player's seat wind exactly as `play.hand_winds` (the one
seat rotation) gives them; the boxes and signature lines; the page header on every page."""

import io
import re
from datetime import datetime

import pypdf

from tournament.pdf.score_sheets import SheetPlayer, SheetTable, build_score_sheets_pdf, hand_rows
from tournament.services.play.session import hand_winds

GENERATED = datetime(2026, 5, 2, 9, 15)
WIND_NAMES = {"E": "East", "S": "South", "W": "West", "N": "North"}


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def tables(count: int) -> list[SheetTable]:
    # Players given in a shuffled seat order: the sheet must still print them E, S, W, N.
    return [SheetTable(k, [SheetPlayer(w, f"Player{k:02d}{w} Surname") for w in "NWES"]) for k in range(1, count + 1)]


def hand_lines(text: str) -> dict[int, tuple[str, list[str]]]:
    """hand number -> (prevalent wind, the four seat winds) as printed on one page."""
    found = re.findall(r"^(\d{1,2})\s(East|South|West|North)\s([ESWN])\s([ESWN])\s([ESWN])\s([ESWN])$", text, re.M)
    return {int(n): (prevalent, list(winds)) for n, prevalent, *winds in found}


def test_one_page_per_table_with_names_winds_boxes_and_header():
    sheets = tables(6)
    pdf = build_score_sheets_pdf("Helsinki Open: score sheets", "Session 2", 2, sheets, GENERATED)
    pages = pages_text(pdf)
    assert len(pages) == 6
    for number, (text, table) in enumerate(zip(pages, sheets, strict=True), start=1):
        assert "Helsinki Open: score sheets" in text and "Generated 2026-05-02 09:15 UTC" in text
        assert f"Page {number} of 6" in text
        assert f"Session 2 · Table {table.table}" in text
        for box in ("Hand", "Round", "Winner", "Discarder", "Fans", "Points", "Final score", "Signatures",
                    "Referee:"):
            assert box in text, (number, box)
        # the names in starting-seat order (a name may wrap in its column), each with the seat it starts in
        names = re.findall(r"(Player\d{2}[ESWN])\s+Surname\nstarts (East|South|West|North)", text)
        assert names == [(f"Player{table.table:02d}{w}", WIND_NAMES[w]) for w in "ESWN"]
        # every hand: the prevalent wind and each player's seat wind from the one rotation function
        lines = hand_lines(text)
        assert sorted(lines) == list(range(1, 17))
        for hand, (prevalent, winds) in lines.items():
            rotation = hand_winds(hand)
            assert prevalent == WIND_NAMES[rotation.prevalent]
            assert winds == [rotation.seat_winds[start] for start in "ESWN"]
            assert sorted(winds) == ["E", "N", "S", "W"]


def test_a_few_hands_against_the_rules_table():
    # Spot checks written out by hand (shared rules, "A session at a table"): the East starter deals
    # hand 1; in hand 2 the South starter deals; in hand 5 (South round) the South starter is East again.
    rows = {int(r[0]): r for r in hand_rows([SheetPlayer(w, w) for w in "ESWN"])}
    assert rows[1][1] == "East" and rows[1][6:] == ["E", "S", "W", "N"]
    assert rows[2][6:] == ["N", "E", "S", "W"]
    assert rows[5][1] == "South" and rows[5][6:] == ["S", "E", "N", "W"]
    assert rows[16][1] == "North"
    for number, row in rows.items():
        assert row[6:] == [hand_winds(number).seat_winds[s] for s in "ESWN"]


def test_long_and_cjk_names_keep_one_page_per_table():
    long_name = "Maximiliane-Éléonore Wolfeschlegelsteinhausen-Bergerdorff"
    sheets = [SheetTable(1, [SheetPlayer("E", "王 小明"), SheetPlayer("S", long_name), SheetPlayer("W", "김 민준"),
                             SheetPlayer("N", "Zoë Łukasz")]),
              SheetTable(2, [SheetPlayer(w, f"P{w}") for w in "ESWN"])]
    pages = pages_text(build_score_sheets_pdf("Cup", "Session 1", 1, sheets, GENERATED))
    assert len(pages) == 2
    flat = pages[0].replace("\n", " ")
    assert "王 小明" in flat and "김 민준" in flat and "Zoë Łukasz" in flat
    assert long_name.replace(" ", "") in re.sub(r"\s+", "", pages[0])  # wrapped in its column, all there
    assert len(hand_lines(pages[0])) == 16
