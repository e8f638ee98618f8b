"""A players CSV costs what its size says (issue 31): at most 64 columns, refused at once past them; the
duplicate checks (of columns, of rows against earlier rows and the players registered) looked up, not
searched; blank lines and rows past the limit not kept."""

from __future__ import annotations

import time
import tracemalloc

from tests.helpers import MB
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.people.registration.csv_io import MAX_IMPORT_COLUMNS, MAX_IMPORT_ROWS

WIDE = ",".join(f"c{i}" for i in range(200_000)) + "\nAino,Virtanen\n"  # 1.5 MB


def test_a_header_of_200000_columns_is_refused_in_well_under_a_second():
    began = time.perf_counter()
    preview = reg.parse_csv(WIDE)
    elapsed = time.perf_counter() - began
    assert [str(e).split(":")[0] for e in preview.errors] == [
        "Row 1, the header, has 200000 columns"]
    assert "at most 64." in str(preview.errors[0]) and not preview.rows
    assert elapsed < 1.0, f"{elapsed:.2f} s"  # minutes before: a duplicate check per column over every column


def test_64_columns_are_read_65_are_not():
    header = ["first_name", "last_name", *[""] * (MAX_IMPORT_COLUMNS - 2)]
    assert reg.parse_csv(",".join(header) + "\nAino,Virtanen\n").ok
    preview = reg.parse_csv(",".join([*header, ""]) + "\nAino,Virtanen\n")
    assert not preview.ok and "has 65 columns: a player list has at most 64" in str(preview.errors[0])


def test_a_repeated_column_is_still_named():
    preview = reg.parse_csv("first_name,last_name,club,Club,last name\nAino,Virtanen,A,B,V\n")
    assert [str(e) for e in preview.errors] == ["Column club, last_name appears more than once in row 1."]


def test_2000_rows_against_2000_players_are_checked_in_linear_time(tournament):
    for i in range(200):
        reg.add_player(tournament, PlayerData(first_name=f"Old{i}", last_name="Player", ema_number=f"{20000000 + i}"))
    rows = [f"First{i},Last{i},{10000000 + i},Team {i % 50}" for i in range(MAX_IMPORT_ROWS)]
    text = "first_name,last_name,ema_number,team\n" + "\n".join(rows) + "\n"
    began = time.perf_counter()
    preview = reg.parse_csv(text, tournament)
    elapsed = time.perf_counter() - began
    assert preview.ok and len(preview.good_rows) == MAX_IMPORT_ROWS
    assert elapsed < 1.5, f"{elapsed:.2f} s"  # 4.6 s without the tournament's players before


def test_duplicates_name_the_first_earlier_row_or_the_player_registered(tournament):
    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen", ema_number="04000123",
                                          team="Team FI"))
    reg.add_player(tournament, PlayerData(first_name="Mikko", last_name="Korhonen"))
    text = ("first_name,last_name,ema_number,team\n"
            "Liisa,Mäkinen,,team fi\n"          # 2: the team's spelling follows the registered one
            "Someone,Else,04000123,\n"          # 3: the number belongs to a registered player
            " mikko , KORHONEN ,,\n"            # 4: the same name, both without a number
            "Liisa,Mäkinen,,\n"                 # 5: a copy of row 2
            "Pekka,Laine,05000001,TEAM X\n"     # 6
            "Pekka,Laine,05000001,\n"           # 7: a copy of row 6 (by name and number)
            "Other,Name,05000001,team x\n"      # 8: row 6's number, another name
            "Pekka,Laine,05000002,team x\n")    # 9: the same name, another number: another person
    preview = reg.parse_csv(text, tournament)
    problems = {r.number: " ".join(str(e) for e in r.errors) for r in preview.rows}
    assert problems == {
        2: "", 3: "EMA number 04000123 already belongs to Aino Virtanen in this tournament.",
        4: "Mikko Korhonen without an EMA number is already registered in this tournament.",
        5: "Liisa Mäkinen without an EMA number is already registered on row 2.", 6: "",
        7: "Pekka Laine with EMA number 05000001 is already registered on row 6.",
        8: "EMA number 05000001 already belongs to Pekka Laine on row 6.", 9: ""}
    teams = {r.number: r.data.team for r in preview.good_rows}
    assert teams == {2: "Team FI", 6: "TEAM X", 9: "TEAM X"}


def test_a_fixed_table_kept_by_a_player_registered_is_refused(tournament):
    for i in range(8):
        reg.add_player(tournament, PlayerData(first_name=f"P{i}", last_name="Seated",
                                              fixed_table=2 if i == 7 else None))
    preview = reg.parse_csv("first_name,last_name,fixed_table\nA,B,2\nC,D,1\nE,F,1\n", tournament)
    problems = {r.number: " ".join(str(e) for e in r.errors) for r in preview.rows}
    assert problems == {2: "Table 2 is already kept by P7 Seated in this tournament: one player per fixed table.",
                        3: "", 4: "Table 1 is already kept by C D on row 3: one player per fixed table."}


def test_blank_lines_and_rows_past_the_limit_are_not_kept():
    # 4 MB of blank lines, or of tiny rows, were half a gigabyte of lists, read whole before the header.
    for text, error in (("first_name,last_name\n" + "\n" * 300_000, "The file has a header but no players."),
                        ("first_name,last_name\n" + "a,b\n" * 300_000,
                         f"The file has more than {MAX_IMPORT_ROWS} players; split it.")):
        tracemalloc.start()
        try:
            preview = reg.parse_csv(text)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert [str(e) for e in preview.errors] == [error]
        assert peak < 16 * MB, f"{peak / MB:.1f} MB"


def test_an_unreadable_row_is_named_by_its_number_blank_lines_counted():
    preview = reg.parse_csv("first_name,last_name\n\n\nAino,Virtanen\n" + "x" * 200_000 + ",y\n")
    assert not preview.rows
    assert str(preview.errors[0]).startswith("The file could not be read at row 5: a cell is longer than")
