"""The players import page refuses a CSV of 200,000 columns at once, with a 400 naming the limit (issue 31)."""

from __future__ import annotations

import io
import time

from tests.helpers import csrf_token


def test_a_file_of_200000_columns_is_a_400_naming_the_limit(organiser_client, tournament):
    page = f"/manage/tournaments/{tournament.id}/players/import"
    token = csrf_token(organiser_client, page)
    wide = (",".join(f"c{i}" for i in range(200_000)) + "\nAino,Virtanen\n").encode()  # 1.5 MB
    began = time.perf_counter()
    response = organiser_client.post(page, data={"csrf_token": token, "file": (io.BytesIO(wide), "players.csv")},
                                     content_type="multipart/form-data")
    elapsed = time.perf_counter() - began
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Row 1, the header, has 200000 columns: a player list has at most 64." in html
    assert elapsed < 2.0, f"{elapsed:.2f} s"
