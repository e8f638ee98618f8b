"""Every CSV download (the EMA results, the players' export) writes a player named like a formula as text."""

from __future__ import annotations

import csv
import io

from tests.helpers import FORMULAS, played_one_session
from tournament.services.people.registration import PlayerData


def _risky(cells: list[str]) -> list[str]:
    return [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_every_csv_download_neutralises_formulas(organiser_client, tournament, app_ctx):
    played_one_session(tournament, lambda i: PlayerData(
        first_name=FORMULAS[i % len(FORMULAS)], last_name=f"-Last{i}", country="FI", ema_number=f"0400{i:04d}"))
    base = f"/manage/tournaments/{tournament.id}"
    for path in (f"{base}/exports/ema-results.csv", f"{base}/players/export.csv"):
        response = organiser_client.get(path)
        assert response.status_code == 200, path
        rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))[1:]
        assert len(rows) == 8, path
        text_cells = [c for row in rows for c in row if not c.lstrip("-").replace(".", "").isdigit()]
        assert {"'" + f for f in FORMULAS} <= set(text_cells) and not _risky(text_cells), path
        assert "'-Last0" in text_cells, path
    ema_rows = list(csv.reader(io.StringIO(organiser_client.get(f"{base}/exports/ema-results.csv")
                                           .get_data(as_text=True))))[1:]
    assert {"-15", "-25", "-30", "-5"} <= {row[5] for row in ema_rows}  # scores: numbers, unprefixed
