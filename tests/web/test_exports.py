"""Printing and files: the staff pages and PDFs, the JSON API's PDFs and EMA file (exact contract),
and standings hidden from the public everywhere (pages, JSON, PDFs) while the staff still see them."""

from __future__ import annotations

import os
import re

from tests.helpers import EMA_HEADER_LINE, Api, assert_error, csrf_token, pdf_text, token_for
from tournament.extensions import db
from tournament.models import Player, TournamentStaff
from tournament.services.play import penalties
from tournament.services.play import session as play
from tournament.services.results.standings import standings
from tournament.services.seating import draws as draw_service

WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def seats_of(t, number: int) -> list[tuple[int, str, str]]:
    session = play.get_session(t, number)
    return [(s.table_number, s.seat_wind, s.player.full_name)
            for s in sorted(session.seats, key=lambda s: (s.table_number, "ESWN".index(s.seat_wind)))]


# ----------------------------------------------------------------------------- staff pages


def test_staff_exports_page_and_every_pdf_saved(organiser_client, played, app):  # noqa: F811
    t = played
    t.country = "FIN"  # unset, the check asks for the host country
    penalties.give_penalty(t, player_id=play.table_players(play.get_session(t, 1), 1)[0].player_id,
                           session_number=1, amount=10, reason="Slow play", user=None)
    db.session.commit()
    base = f"/manage/tournaments/{t.id}/exports"
    page = organiser_client.get(base)
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert f'{base}/sessions/1/seating.pdf' in html and f'{base}/sessions/1/score-sheets.pdf' in html
    assert 'id="ema-ok"' in html  # nothing to fix in this tournament

    seating = organiser_client.get(f"{base}/sessions/1/seating.pdf")
    assert seating.status_code == 200 and seating.mimetype == "application/pdf"
    text = "\n".join(pdf_text(seating.data))
    for table, wind, name in seats_of(t, 1):
        assert re.search(rf"^{table}\n{WINDS[wind]}\n{re.escape(name)}\n", text, re.M), name

    sheets = organiser_client.get(f"{base}/sessions/1/score-sheets.pdf")
    pages = pdf_text(sheets.data)
    assert len(pages) == 2  # a page per table
    for table, page in enumerate(pages, start=1):
        names = [name for k, _, name in seats_of(t, 1) if k == table]
        assert all(name in page for name in names) and f"Table {table}" in page

    cards = pdf_text(organiser_client.get(f"{base}/schedule-cards.pdf").data)
    assert sum(len(re.findall(r"Éva\d Łukasz\d", p)) for p in cards) == 8
    penalty_pages = pdf_text(organiser_client.get(f"{base}/penalties.pdf").data)
    assert "Slow play" in penalty_pages[0] and "−10" in penalty_pages[0]

    csv_response = organiser_client.get(f"{base}/ema-results.csv")
    assert csv_response.mimetype == "text/csv"
    assert csv_response.get_data(as_text=True).split("\r\n")[0] == EMA_HEADER_LINE
    saved = sorted(os.listdir(app.config["EXPORT_DIR"]))
    for prefix in ("seating-", "score-sheets-", "schedule-cards-", "penalties-", "ema-results-"):
        assert any(name.startswith(f"{prefix}{t.id}") for name in saved), prefix


def test_session_pages_link_their_pdfs(organiser_client, played):  # noqa: F811
    t = played
    links = f"/manage/tournaments/{t.id}/exports/sessions/1/"
    for page in (f"/manage/tournaments/{t.id}/draws/1", f"/manage/tournaments/{t.id}/play/1"):
        response = organiser_client.get(page)
        assert response.status_code == 200, page
        html = response.get_data(as_text=True)
        assert links + "seating.pdf" in html and links + "score-sheets.pdf" in html, page


def test_exports_are_for_staff_only(client, app, played, outsider, auth):  # noqa: F811
    t = played
    base = f"/manage/tournaments/{t.id}/exports"
    with app.app_context():
        anonymous = app.test_client().get(f"{base}/sessions/1/seating.pdf")
    assert anonymous.status_code == 302 and "/login" in anonymous.headers["Location"]
    auth.login(outsider)
    for url in (base, f"{base}/sessions/1/seating.pdf", f"{base}/sessions/1/score-sheets.pdf",
                f"{base}/schedule-cards.pdf", f"{base}/penalties.pdf", f"{base}/ema-results.csv"):
        assert client.get(url).status_code == 403, url
    assert client.get(f"/manage/tournaments/{t.id}/exports/sessions/9/seating.pdf").status_code == 403


def test_unknown_session_is_404_for_staff(organiser_client, played):  # noqa: F811
    base = f"/manage/tournaments/{played.id}/exports/sessions"
    for number in (9, 2**31, 2**63):  # past PostgreSQL's integer range too: a 404, not an overflow
        assert organiser_client.get(f"{base}/{number}/seating.pdf").status_code == 404
        assert organiser_client.get(f"{base}/{number}/score-sheets.pdf").status_code == 404


# ----------------------------------------------------------------------------- JSON API


def test_api_pdfs_and_ema_file(client, organiser, played):  # noqa: F811
    t = played
    api = Api(client, token_for(organiser))
    seating = api.get(f"/tournaments/{t.id}/sessions/1/seating.pdf", expect=200)
    assert seating.mimetype == "application/pdf"
    text = "\n".join(pdf_text(seating.data))
    assert all(name in text for _, _, name in seats_of(t, 1))
    sheets = api.get(f"/tournaments/{t.id}/sessions/1/score-sheets.pdf", expect=200)
    assert sheets.mimetype == "application/pdf" and len(pdf_text(sheets.data)) == 2
    assert_error(api.get(f"/tournaments/{t.id}/sessions/2/seating.pdf"), 404)
    assert_error(api.get(f"/tournaments/{t.id}/sessions/2/score-sheets.pdf"), 404)

    response = api.get(f"/tournaments/{t.id}/ema-results.csv", expect=200)
    assert response.mimetype == "text/csv"
    lines = response.get_data(as_text=True).splitlines()
    assert lines[0] == EMA_HEADER_LINE
    ranked = standings(t).rows
    assert [line.split(",")[0] for line in lines[1:]] == [str(r.rank) for r in ranked]
    people = {p.id: p for p in db.session.query(Player)}
    assert [line.split(",")[3] for line in lines[1:]] == [people[r.player_id].ema_number for r in ranked]

    check = api.get(f"/tournaments/{t.id}/ema-results/check", expect=200).get_json()
    assert check["ok"] is False and [p["message"] for p in check["problems"]] == [
        "The host country is not set: give it in the tournament's settings (EMA writes it in 3 letters, e.g. NED). "
        "The EMA file does not guess it."]
    t.country = "FIN"
    db.session.commit()
    check = api.get(f"/tournaments/{t.id}/ema-results/check", expect=200).get_json()
    assert check == {"ok": True, "problems": [], "warnings": []}
    people[ranked[0].player_id].ema_number = "123"
    db.session.commit()
    check = api.get(f"/tournaments/{t.id}/ema-results/check", expect=200).get_json()
    assert check["ok"] is False
    assert check["problems"] == [{"player_id": ranked[0].player_id,
                                  "message": check["problems"][0]["message"]}]
    assert "8 digits" in check["problems"][0]["message"]


def test_api_permissions(client, organiser, outsider, played):  # noqa: F811
    t = played
    stranger = Api(client, token_for(outsider))
    # A published seating is anyone's; the EMA file and its check are the staff's.
    stranger.get(f"/tournaments/{t.id}/sessions/1/seating.pdf", expect=200)
    assert_error(stranger.get(f"/tournaments/{t.id}/ema-results.csv"), 403)
    assert_error(stranger.get(f"/tournaments/{t.id}/ema-results/check"), 403)
    assert_error(client.get(f"/api/v1/tournaments/{t.id}/ema-results.csv"), 401)
    # A draft seating may still change: not shown outside the staff.
    t.session_count = 2
    draw_service.draw_next(t, seed=5)
    db.session.commit()
    assert_error(stranger.get(f"/tournaments/{t.id}/sessions/2/seating.pdf"), 404)
    assert_error(stranger.get(f"/tournaments/{t.id}/sessions/2/score-sheets.pdf"), 404)
    Api(client, token_for(organiser)).get(f"/tournaments/{t.id}/sessions/2/seating.pdf", expect=200)


# ----------------------------------------------------------------------------- hidden standings


def hide(client, t, hidden: bool):
    token = csrf_token(client, f"/manage/tournaments/{t.id}")
    return client.post(f"/manage/tournaments/{t.id}/exports/standings-visibility",
                       data={"csrf_token": token, "hidden": "1" if hidden else "0"})


def test_hidden_standings_are_refused_to_the_public_everywhere(app, client, auth, organiser, outsider, referee,
                                                                played):  # noqa: F811
    t = played
    db.session.add(TournamentStaff(tournament_id=t.id, user_id=referee.id, role="referee"))
    db.session.commit()
    public_pages = [f"/t/{t.id}/standings", f"/t/{t.id}/standings/sessions/1", f"/t/{t.id}/standings/teams"]
    for url in public_pages:
        assert client.get(url).status_code == 200, url
    auth.login(organiser)
    overview = client.get(f"/manage/tournaments/{t.id}").get_data(as_text=True)
    assert "Hide the standings from the public" in overview
    response = hide(client, t, True)
    assert response.status_code == 302
    db.session.refresh(t)
    assert t.standings_hidden is True
    # the staff still see them, clearly marked
    for url in public_pages:
        page = client.get(url)
        assert page.status_code == 200 and "Hidden from the public" in page.get_data(as_text=True), url
    assert client.get(f"/manage/tournaments/{t.id}/standings.pdf").status_code == 200
    auth.logout()

    with app.app_context():  # a context of its own: Flask-Login caches the user on `g`
        anonymous = app.test_client()
        for url in public_pages:
            assert anonymous.get(url).status_code == 404, url
        assert anonymous.get(f"/manage/tournaments/{t.id}/standings.pdf").status_code == 302  # to the login

    stranger = Api(client, token_for(outsider))
    assert_error(stranger.get(f"/tournaments/{t.id}/standings"), 403)
    assert_error(stranger.get(f"/tournaments/{t.id}/standings.pdf"), 403)
    staff = Api(client, token_for(referee))
    assert len(staff.get(f"/tournaments/{t.id}/standings", expect=200).get_json()["rows"]) == 8
    assert staff.get(f"/tournaments/{t.id}/standings.pdf", expect=200).data.startswith(b"%PDF")

    auth.login(organiser)
    hide(client, t, False)
    db.session.refresh(t)
    assert t.standings_hidden is False
    auth.logout()
    with app.app_context():
        assert app.test_client().get(public_pages[0]).status_code == 200
    stranger.get(f"/tournaments/{t.id}/standings", expect=200)


def test_only_organisers_toggle_and_bad_values_are_refused(client, auth, referee, organiser, played):  # noqa: F811
    t = played
    db.session.add(TournamentStaff(tournament_id=t.id, user_id=referee.id, role="referee"))
    db.session.commit()
    auth.login(referee)
    assert hide(client, t, True).status_code == 403
    auth.logout()
    auth.login(organiser)
    token = csrf_token(client, f"/manage/tournaments/{t.id}")
    bad = client.post(f"/manage/tournaments/{t.id}/exports/standings-visibility",
                      data={"csrf_token": token, "hidden": "yes"})
    assert bad.status_code == 400
    db.session.refresh(t)
    assert t.standings_hidden is False


def test_standings_pdf_lists_every_ranked_player_in_order(organiser_client, played):  # noqa: F811
    t = played
    pages = pdf_text(organiser_client.get(f"/manage/tournaments/{t.id}/standings.pdf").data)
    names = re.findall(r"Éva\d Łukasz\d", "\n".join(pages))
    assert names == [row.name for row in standings(t).rows] and len(names) == 8
    assert all("Rank" in page and f"{t.name}: standings" in page for page in pages)
