"""Issue 25, fixed tables for access needs in the players' CSV: exported in a `fixed_table` column when a player
has one (a list without fixed tables keeps its columns), imported from it (the export imports again unchanged),
and a number beyond the tables, a table kept twice or a cell that is no number refused on its row."""

from tests.helpers import add_players, post_form
from tournament.extensions import db
from tournament.services.people import registration
from tournament.services.people.registration import CSV_COLUMNS, PlayerData
from tournament.services.people.tournaments import TournamentData, create_tournament

HEADER = ",".join([*CSV_COLUMNS, "fixed_table"])


def rows(count: int, fixed: dict[int, str] | None = None, start: int = 0) -> str:
    """`count` players, row i keeping fixed[i] (a cell as written) when given."""
    fixed = fixed or {}
    lines = [HEADER] + [f"F{i:03d},L{i:03d},FI,,,,no,,{fixed.get(i, '')}" for i in range(start, start + count)]
    return "\n".join(lines) + "\n"


def test_the_export_has_the_column_only_when_a_player_keeps_a_table(organiser_client, tournament):
    players = add_players(tournament, 8)
    url = f"/manage/tournaments/{tournament.id}/players/export.csv"
    plain = organiser_client.get(url).data.decode("utf-8-sig").splitlines()
    assert plain[0] == ",".join(CSV_COLUMNS) and all(len(line.split(",")) == len(CSV_COLUMNS) for line in plain)
    registration.set_fixed_table(players[3], 2)
    db.session.commit()
    lines = organiser_client.get(url).data.decode("utf-8-sig").splitlines()
    assert lines[0] == HEADER
    by_name = {line.split(",")[0]: line.split(",")[-1] for line in lines[1:]}
    assert by_name[players[3].first_name] == "2"
    assert sum(value == "" for value in by_name.values()) == 7


def test_the_export_imports_again_with_its_fixed_tables(organiser, tournament):
    players = add_players(tournament, 12)
    registration.set_fixed_table(players[0], 3)
    registration.set_fixed_table(players[7], 1)
    db.session.commit()
    copy = create_tournament(organiser, TournamentData(name="Copy Open"))
    imported = registration.import_csv(copy, registration.export_csv(tournament))
    db.session.commit()
    assert len(imported) == 12
    assert {p.first_name: p.fixed_table for p in imported if p.fixed_table} == {players[0].first_name: 3,
                                                                              players[7].first_name: 1}


def test_an_import_counts_the_file_s_players_among_the_tables(tournament):
    # 9 players in the file: 3 tables, so table 3 may be kept even though the tournament has no player yet
    preview = registration.parse_csv(rows(9, {8: "3"}), tournament)
    assert preview.ok, preview.error_messages()
    assert preview.rows[-1].data.fixed_table == 3


def test_bad_fixed_tables_are_refused_on_their_rows(tournament):
    registration.add_player(tournament, PlayerData("Kept", "Already", "FI", fixed_table=1))
    db.session.commit()
    # with the one registered, 8 players: 2 tables
    preview = registration.parse_csv(rows(7, {0: "3", 1: "x", 2: "1", 3: "2", 4: "2", 5: "0"}), tournament)
    errors = {row.number: " ".join(row.errors) for row in preview.rows}
    assert "from 1 to 2" in errors[2]
    assert "The fixed table must be a table number or empty (got 'x')" in errors[3]
    assert "Table 1 is already kept by Kept Already in this tournament" in errors[4]
    assert errors[5] == ""
    assert "Table 2 is already kept by F003 L003 on row 5" in errors[6]
    assert "fixed table" in errors[7].lower()
    assert errors[8] == ""
    assert [row.number for row in preview.good_rows] == [5, 8]
    assert all(row.data is None for row in preview.bad_rows)  # a bad row is never imported, even when skipping


def test_the_import_page_names_the_column_and_saves_the_tables(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/players/import"
    page = organiser_client.get(url).get_data(as_text=True)
    assert HEADER in page and "<strong>fixed_table</strong>" in page
    response = post_form(organiser_client, url, {"text": rows(4, {2: "1"})})
    assert response.status_code == 200 and "Import 4 players" in response.get_data(as_text=True)
    kept = registration.csv_io.kept_import(tournament, _last_import_id())
    done = post_form(organiser_client, url + "/confirm", {"import_id": str(kept.id)}, form_url=url)
    assert done.status_code == 302
    db.session.expire_all()
    assert {p.first_name: p.fixed_table for p in registration.players_of(tournament)} == {
        "F000": None, "F001": None, "F002": 1, "F003": None}


def _last_import_id() -> int:
    from sqlalchemy import func, select

    from tournament.models import PlayerImport

    return db.session.scalar(select(func.max(PlayerImport.id)))
