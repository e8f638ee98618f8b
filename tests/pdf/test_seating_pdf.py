"""The seating PDF read back with pypdf: every table's four players in seat order, then every player
alphabetically with their table and seat; title, generated time and page numbers on every page."""

import io
import re
from datetime import datetime

import pypdf

from tournament.pdf.seating import SeatRow, build_seating_pdf, by_name

GENERATED = datetime(2026, 5, 2, 9, 15)
WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def seats(tables: int) -> list[SeatRow]:
    # Names in an order unrelated to the tables, with accents that must sort as their base letter.
    rows = []
    for table in range(1, tables + 1):
        for k, wind in enumerate("WENS"):  # given out of seat order on purpose
            i = (table * 7 + k * 13) % (tables * 4)
            last = ("Ærø", "Öberg", "Łukasz", "Dvořák")[k] + f"{i:03d}"
            rows.append(SeatRow(table, wind, f"Given{i:03d} {last}", f"{last}, Given{i:03d}", "FI",
                                is_substitute=(table == 2 and wind == "N")))
    return rows


def test_by_table_then_by_name_with_header_and_page_numbers_on_every_page():
    rows = seats(40)  # 160 players: several pages of each list
    pdf = build_seating_pdf("Helsinki Open: seating", "Session 3", rows, GENERATED)
    pages = pages_text(pdf)
    assert len(pages) >= 4
    for number, text in enumerate(pages, start=1):
        assert "Helsinki Open: seating" in text and "Session 3" in text
        assert "Generated 2026-05-02 09:15 UTC" in text
        assert f"Page {number} of {len(pages)}" in text
    split = next(i for i, text in enumerate(pages) if "By player" in text)
    by_table_text = "\n".join(pages[:split])
    by_name_text = "\n".join(pages[split:])
    for text in pages[:split]:
        assert all(h in text for h in ("Table", "Seat", "Player", "Country"))

    # By table: table number, seat, name, country; four seats per table in the order E, S, W, N.
    found = re.findall(r"^(\d+)\n(East|South|West|North)\n(Given\d{3} [^\n]+)\nFI$", by_table_text, re.M)
    expected = sorted(rows, key=lambda r: (r.table, "ESWN".index(r.wind)))
    assert [(int(t), w, n) for t, w, n in found] == [(r.table, WINDS[r.wind], r.label) for r in expected]
    assert "(substitute)" in by_table_text

    # By name: every player once, in the fold order of their last name, with table and seat.
    found = re.findall(r"^(Given\d{3} [^\n]+)\nFI\n(\d+)\n(East|South|West|North)$", by_name_text, re.M)
    assert [(n, int(t), w) for n, t, w in found] == [(r.label, r.table, WINDS[r.wind]) for r in by_name(rows)]
    last_names = [n.split(" ", 1)[1].replace(" (substitute)", "") for n, _, _ in found]
    initials = [name[0] for name in last_names]  # accents ignored: Ærø as "aero", Łukasz as "lukasz"
    assert initials == sorted(initials, key=lambda c: {"Æ": "AE", "Ö": "O", "Ł": "L"}.get(c, c))
    assert initials[0] == "Æ" and initials[-1] == "Ö"


def test_cjk_and_accented_names_survive():
    rows = [SeatRow(1, "E", "王 小明", "小明, 王", "CN"), SeatRow(1, "S", "Zoë Müller", "Müller, Zoë", "DE"),
            SeatRow(1, "W", "Søren Ærø", "Ærø, Søren", "DK"), SeatRow(1, "N", "김 민준", "민준, 김", "KR")]
    text = "\n".join(pages_text(build_seating_pdf("Cup", "Session 1", rows, GENERATED)))
    for name in ("Zoë Müller", "Søren Ærø", "王 小明", "김 민준"):
        assert name in text
