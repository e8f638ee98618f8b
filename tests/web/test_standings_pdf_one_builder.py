"""The standings PDF is one document: the staff's page and the API send the same title and kind of file name."""

from __future__ import annotations

import io

import pypdf


def _title_and_name(response) -> tuple[str, str]:
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pypdf.PdfReader(io.BytesIO(response.data)).pages[0].extract_text()
    name = response.headers["Content-Disposition"].split('filename="')[1].rstrip('"')
    return text.splitlines()[0], name.rsplit("-", 2)[0]


def test_page_and_api_send_the_same_standings_pdf(organiser_client, api, tournament):
    page = _title_and_name(organiser_client.get(f"/manage/tournaments/{tournament.id}/standings.pdf"))
    from_api = _title_and_name(api.get(f"/tournaments/{tournament.id}/standings.pdf"))
    assert page == from_api == (f"{tournament.name}: standings", f"standings-{tournament.id}")
