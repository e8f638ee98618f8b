"""The app's one CSV writer and every CSV it writes: a text cell a spreadsheet would run as a formula is
written with a leading `'`, numbers (a negative score too) stay numbers."""

from __future__ import annotations

import csv
import io

from tests.helpers import FORMULAS
from tournament.services.core.csvfile import cell, csv_text
from tournament.services.documents import ema
from tournament.services.people import registration as reg


def test_text_cells_are_neutralised_numbers_are_not():
    for text in [*FORMULAS, "\tTab", "\rReturn", "-", "-12"]:
        assert cell(text) == "'" + text
    for text in ["Aino", "", "04000123", "1+1", "a=b", " =1", "'=1"]:
        assert cell(text) == text
    assert [cell(v) for v in (-12, 0, 3, -1.75, 2.33)] == [-12, 0, 3, -1.75, 2.33]
    assert cell(None) == "" and cell(True) == "True"
    text = csv_text(["Name", "Score"], [["=1+1", -12], ["-12", 2.5]])
    assert text == "Name,Score\r\n'=1+1,-12\r\n'-12,2.5\r\n"


def _risky(cells: list[str]) -> list[str]:
    return [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_ema_file_writes_formula_names_as_text_and_scores_as_numbers(formula_players):
    text = ema.ema_csv(ema.ema_rows(formula_players))
    parsed = list(csv.reader(io.StringIO(text)))[1:]
    assert len(parsed) == 8
    names = [c for row in parsed for c in row[1:3]]
    for formula in FORMULAS[:4]:
        assert "'" + formula in names
    assert "'@Last1" in names and "Plain0" in names
    # Only the scores may start with "-": numbers, written as numbers.
    risky = [c for row in parsed for c in _risky(row)]
    assert risky and all(c in {row[5] for row in parsed} for c in risky)
    assert {"-15", "-25", "-30", "-5"} <= {row[5] for row in parsed}
    for row in parsed:
        int(row[0]), float(row[4]), int(row[5])  # place, table points and score read back as numbers


def test_players_export_writes_formula_names_as_text_and_imports_them_back(formula_players, organiser):
    from tournament.services.people.tournaments import TournamentData, create_tournament

    text = reg.export_csv(formula_players)
    parsed = list(csv.reader(io.StringIO(text)))[1:]
    assert not [c for row in parsed for c in _risky(row)]
    assert "'@Home club" in [row[3] for row in parsed] and "'-5 for lateness" in [row[7] for row in parsed]
    copy = create_tournament(organiser, TournamentData(name="Copy Open"))
    reg.import_csv(copy, text)
    assert sorted(p.first_name for p in reg.list_players(copy)) == sorted(
        p.first_name for p in reg.list_players(formula_players))

