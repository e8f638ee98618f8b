"""The EMA submission pack over the JSON API (exact contract): GET .../ema-results.xlsx, .../mers and
.../ema-observer-report.pdf for the tournament's staff (200, their content types, the JSON keys), 401 without
a token, 403 outside the staff, 404 for no tournament, 400 naming a bad query parameter; and the staff
exports page that links them."""

from __future__ import annotations

import io

from openpyxl import load_workbook

from tests.helpers import Api, assert_error, pdf_text, token_for
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.results.standings import standings

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def test_workbook_weight_and_report_for_the_staff(staff_api, played):
    tid = played.id
    response = staff_api.get(f"/tournaments/{tid}/ema-results.xlsx", expect=200)
    assert response.mimetype == XLSX
    assert f'filename="ema-results-{tid}.xlsx"' in response.headers["Content-Disposition"]
    sheet = load_workbook(io.BytesIO(response.data))["Results"]
    ranked = standings(played).rows
    assert sheet.cell(row=3, column=1).value == played.name
    assert sheet.cell(row=3, column=2).value == len(ranked) == 8
    assert [sheet.cell(row=r + 1, column=3).value for r in range(1, 9)] == [r.rank for r in ranked]
    assert {sheet.cell(row=r + 1, column=10).value for r in range(1, 9)} == {
        "FIN", "SWE", "GER", "FRA", "NED", "GBR", "ITA", "DEN"}
    assert {sheet.cell(row=r + 1, column=9).value for r in range(1, 9)} == {1}

    body = staff_api.get(f"/tournaments/{tid}/mers", expect=200).get_json()
    assert {"weight", "days", "players", "countries"} <= set(body)
    # no dates: one day; 8 players; 8 countries (6 to 9: +0.5)
    assert (body["weight"], body["days"], body["players"], body["countries"]) == (1.5, 1, 8, 8)
    assert body["qualification"] is False and body["parts"] == {
        "duration": 1.0, "players": 0.0, "countries": 0.5, "qualification": 0.0}
    qualified = staff_api.get(f"/tournaments/{tid}/mers?qualification=1", expect=200).get_json()
    assert qualified["weight"] == 2.5 and qualified["qualification"] is True
    assert sheet.cell(row=3, column=14).value == body["weight"]

    report = staff_api.get(f"/tournaments/{tid}/ema-observer-report.pdf", expect=200)
    assert report.mimetype == "application/pdf"
    text = "\n".join(pdf_text(report.data))
    assert played.name in text and "MERS weight: 1.5" in text


def test_refusals(client, organiser, outsider, played):
    tid = played.id
    paths = (f"/tournaments/{tid}/ema-results.xlsx", f"/tournaments/{tid}/mers",
             f"/tournaments/{tid}/ema-observer-report.pdf")
    stranger = Api(client, token_for(outsider))
    owner = Api(client, token_for(organiser))
    for path in paths:
        assert_error(client.get(f"/api/v1{path}"), 401)
        assert_error(stranger.get(path), 403)
        assert_error(owner.get(path.replace(f"/{tid}/", "/999999/")), 404)
        assert_error(owner.get(f"{path}?qualification=maybe"), 400, field="qualification")
        assert_error(owner.get(f"{path}?qualification="), 400, field="qualification")
    assert_error(owner.get(f"/tournaments/{tid}/ema-results.xlsx?country=ZZ"), 400, field="country")
    assert_error(owner.get(f"/tournaments/{tid}/ema-observer-report.pdf?country="), 400, field="country")
    owner.get(f"/tournaments/{tid}/ema-results.xlsx?country=fi&place=Espoo&qualification=true", expect=200)


def test_the_staff_exports_page_links_the_pack(organiser_client, played):
    base = f"/manage/tournaments/{played.id}/exports"
    html = organiser_client.get(base).get_data(as_text=True)
    assert f'href="{base}/ema-results.xlsx"' in html and f'href="{base}/ema-observer-report.pdf"' in html
    assert '<span id="mers-weight">1.5</span>' in html
    html = organiser_client.get(f"{base}?qualification=1").get_data(as_text=True)
    assert '<span id="mers-weight">2.5</span>' in html and f'{base}/ema-results.xlsx?qualification=1' in html
    workbook = organiser_client.get(f"{base}/ema-results.xlsx?qualification=1")
    assert workbook.status_code == 200 and workbook.mimetype == XLSX
    assert load_workbook(io.BytesIO(workbook.data))["Results"].cell(row=3, column=14).value == 2.5
    report = organiser_client.get(f"{base}/ema-observer-report.pdf")
    assert report.status_code == 200 and report.mimetype == "application/pdf"


def test_control_characters_in_names_do_not_break_the_workbook(client, organiser, app_ctx):
    """Found by the schemathesis run: a tournament named with a control character made the workbook a 500. Names
    refuse them now (issue 31); one stored before still makes a workbook."""
    api = Api(client, token_for(organiser))
    assert api.post("/tournaments", {"name": "Spring\x0bOpen"}).status_code == 400
    tid = api.post("/tournaments", {"name": "Spring Open"}, expect=201).get_json()["id"]
    t = db.session.get(Tournament, tid)
    t.name, t.venue = "Spring\x0bOpen", "Hall\x1f"
    db.session.commit()
    book = load_workbook(io.BytesIO(api.get(f"/tournaments/{tid}/ema-results.xlsx", expect=200).data))
    assert "SpringOpen" in [cell.value for row in book.active.iter_rows() for cell in row]
