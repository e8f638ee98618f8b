"""A player's own page from their private link (issue 23): what it shows, confirming and disputing from it, the
players' entry form, the staff's side (table page, referee board, links and QR codes), tokens kept out of logs."""

from __future__ import annotations

import io
import logging
import re

from pypdf import PdfReader

from tests.helpers import VALID_22
from tournament.extensions import db
from tournament.models import EntryMode
from tournament.services.people import player_links
from tournament.services.play import confirmations, scoring
from tournament.services.play.scoring import HandData
from tournament.web.log_privacy import MaskLinkTokens, mask_link_tokens


def _token(t, player_id: int) -> str:
    token = player_links.token_of(player_links.link_of(t, player_id))
    db.session.commit()
    return token


def _win(ids, number=1) -> HandData:
    return HandData(number=number, result="win", winner_id=ids[0], discarder_id=ids[1], hand=VALID_22)


def _csrf(html: str) -> str:
    return re.search(r'name="csrf_token" (?:type="hidden" )?value="([^"]+)"', html).group(1)


def test_the_page_shows_table_seat_wind_hands_and_schedule(client, seated):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, _win(ids), None)
    db.session.commit()
    response = client.get(f"/p/{_token(t, ids[1])}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Session 1 · Table 1" in html and "P0" in html
    assert "Your seat wind for hand 2" in html  # the next hand to play
    assert "Hand 1" in html and "confirmed by 0 of 4" in html
    assert "Confirm hand 1" in html and "Dispute hand 1" in html
    assert "Your schedule" in html
    assert response.headers["Cache-Control"] == "private, no-store"


def test_an_unknown_link_is_a_404_page(client, seated):
    assert client.get("/p/" + "x" * 43).status_code == 404
    assert client.get("/p/short").status_code == 404
    # The page is the site's own 404, saying nothing about links; the API's player routes, through the same
    # check (helpers.linked_player), say the link is not valid.
    page = client.get("/p/" + "y" * 43).get_data(as_text=True)
    assert "There is no page at this address." in page and "link is not valid" not in page
    api = client.get("/api/v1/p/" + "y" * 43)
    assert api.status_code == 404 and api.get_json()["error"] == player_links.NOT_VALID


def test_guessing_links_is_slowed_down_but_a_valid_link_always_opens(client, seated):
    """300 unknown links from a venue's address (issue 31): the next guesses wait (429, Retry-After), the
    players' own links at the same address still open."""
    t, ids = seated
    token = _token(t, ids[0])
    venue = {"REMOTE_ADDR": "198.51.100.9"}
    assert [client.get(f"/p/{i:043d}", environ_base=venue).status_code for i in range(300)] == [404] * 300
    for guess in (f"{300:043d}", "short", token[:-1] + ("A" if token[-1] != "A" else "B")):
        slowed = client.get(f"/p/{guess}", environ_base=venue)
        assert slowed.status_code == 429 and int(slowed.headers["Retry-After"]) > 0
        assert "Too many unknown links from your network address" in slowed.get_data(as_text=True)
    page = client.get(f"/p/{token}", environ_base=venue)
    assert page.status_code == 200 and "Session 1 · Table 1" in page.get_data(as_text=True)
    assert client.get(f"/p/{_token(t, ids[1])}/schedule.ics", environ_base=venue).status_code == 200
    assert client.get(f"/p/{300:043d}", environ_base={"REMOTE_ADDR": "192.0.2.44"}).status_code == 404


def test_confirm_and_dispute_from_the_page(client, seated):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, _win(ids), None)
    db.session.commit()
    token = _token(t, ids[2])
    page = client.get(f"/p/{token}").get_data(as_text=True)
    answer = client.post(f"/p/{token}/tables/1/hands/1/confirm", data={"csrf_token": _csrf(page)},
                         follow_redirects=True)
    assert answer.status_code == 200 and "You confirmed hand 1." in answer.get_data(as_text=True)
    assert scoring.get_hand(t, 1, 1, 1).confirmed_by == [ids[2]]
    blank = client.post(f"/p/{token}/tables/1/hands/1/dispute", data={"csrf_token": _csrf(page), "reason": " "},
                        follow_redirects=True)
    assert "Say what is wrong" in blank.get_data(as_text=True)
    disputed = client.post(f"/p/{token}/tables/1/hands/1/dispute",
                           data={"csrf_token": _csrf(page), "reason": "It was a self-draw"}, follow_redirects=True)
    assert "a referee will come to your table" in disputed.get_data(as_text=True)
    hand = scoring.get_hand(t, 1, 1, 1)
    db.session.refresh(hand)
    assert hand.status == "disputed" and hand.confirmed_by == []  # disputing takes the confirmation back


def test_another_tables_hand_cannot_be_confirmed_from_the_page(client, in_play):
    t = in_play
    from tournament.services.play import session as play

    table1 = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 1)]
    table2 = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    scoring.enter_hand(t, 1, 1, _win(table1), None)
    db.session.commit()
    token = _token(t, table2[0])
    page = client.get(f"/p/{_token(t, table1[0])}").get_data(as_text=True)  # a page with a form: the CSRF token
    answer = client.post(f"/p/{token}/tables/1/hands/1/confirm", data={"csrf_token": _csrf(page)},
                         follow_redirects=True)
    assert "You do not play at table 1" in answer.get_data(as_text=True)
    assert scoring.get_hand(t, 1, 1, 1).confirmed_by == []


def test_the_players_entry_form_enters_a_pending_hand(client, seated):
    t, ids = seated
    t.entry_mode = EntryMode.PLAYERS
    db.session.commit()
    token = _token(t, ids[0])
    page = client.get(f"/p/{token}").get_data(as_text=True)
    assert "Enter hand 1" in page
    form = client.get(f"/p/{token}/hands/new")
    html = form.get_data(as_text=True)
    assert form.status_code == 200 and 'name="winner_id"' in html and "ruled_points" not in html
    key = re.search(r'name="idempotency_key" type="hidden" value="([^"]+)"', html).group(1)
    data = {"csrf_token": _csrf(html), "idempotency_key": key, "number": "1", "result": "win",
            "winner_id": str(ids[0]), "discarder_id": str(ids[1]), "hand": VALID_22, "flowers": "0"}
    for i, pid in enumerate(ids):
        data[f"false_mahjongs-{i}-player_id"] = str(pid)
    saved = client.post(f"/p/{token}/hands/new", data=data, follow_redirects=True)
    assert "Hand 1 saved" in saved.get_data(as_text=True), saved.get_data(as_text=True)[:2000]
    hand = scoring.get_hand(t, 1, 1, 1)
    assert hand.status == "pending" and hand.confirmed_by == [ids[0]] and not hand.counted
    again = client.post(f"/p/{token}/hands/new", data=data, follow_redirects=True)  # the same form sent twice
    assert again.status_code == 200 and len(scoring.table_hands(t, 1, 1)) == 1


def test_in_a_referee_tournament_the_entry_form_sends_players_back(client, seated):
    t, ids = seated
    token = _token(t, ids[0])
    assert "Enter hand" not in client.get(f"/p/{token}").get_data(as_text=True)
    answer = client.get(f"/p/{token}/hands/new", follow_redirects=True)
    assert "the referees enter the hands" in answer.get_data(as_text=True)


def test_the_staff_table_page_and_board_show_a_dispute_first(organiser_client, seated):
    t, ids = seated
    from tournament.services.play import session as play

    scoring.enter_hand(t, 1, 1, _win(ids), None)
    other = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    scoring.enter_hand(t, 1, 2, _win(other), None)
    confirmations.dispute(t, _player(t, other[2]), 2, 1, "Wrong winner")
    db.session.commit()
    board = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/board").get_data(as_text=True)
    cards = re.findall(r'<li class="board-card([^"]*)" data-table="(\d+)"', board)
    assert cards[0] == (" needs-referee disputed", "2")
    # the card names who disputed it and why, and settles it there
    west = _player(t, other[2]).full_name
    card = board[board.index('data-table="2"'):board.index('data-table="1"')]
    assert f"Disputed by {west}:</strong> Wrong winner" in card and "Stands as entered" in card
    assert f'/play/1/tables/2/hands/1/edit?next=/manage/tournaments/{t.id}/play/1/board"' in card
    data = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/board.json").get_json()
    assert data["tables"][0]["table"] == 2 and data["tables"][0]["disputed"] == 1
    assert data["tables"][0]["reason"].startswith("hand 1 disputed: Wrong winner")
    assert data["tables"][0]["disputes"] == [{"hand": 1, "player_id": other[2], "reason": "Wrong winner"}]
    page = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/tables/2").get_data(as_text=True)
    assert "Wrong winner" in page and "Stands as entered" in page
    stands = organiser_client.post(f"/manage/tournaments/{t.id}/play/1/tables/2/hands/1/stands",
                                   data={"csrf_token": _csrf(page)}, follow_redirects=True)
    assert "Hand 1 stands as entered" in stands.get_data(as_text=True)
    assert scoring.get_hand(t, 1, 2, 1).status == "confirmed"
    assert confirmations.open_disputes(t, 1) == []


def _player(t, player_id):
    from tournament.models import Player

    return db.session.get(Player, player_id)


def test_the_organiser_renews_a_link_from_the_players_form(organiser_client, client, seated):
    t, ids = seated
    old = _token(t, ids[0])
    form = organiser_client.get(f"/manage/tournaments/{t.id}/players/{ids[0]}/edit").get_data(as_text=True)
    assert f"/p/{old}" in form and "Renew the link" in form
    organiser_client.post(f"/manage/tournaments/{t.id}/players/{ids[0]}/renew-link",
                          data={"csrf_token": _csrf(form)}, follow_redirects=True)
    db.session.expire_all()
    assert player_links.player_for_token(old) is None
    assert client.get(f"/p/{old}").status_code == 404


def test_schedule_cards_and_the_links_sheet_carry_the_links(organiser_client, seated):
    t, ids = seated
    cards = organiser_client.get(f"/manage/tournaments/{t.id}/exports/schedule-cards.pdf")
    assert cards.status_code == 200 and cards.mimetype == "application/pdf"
    assert "Scan: your table" in "".join(page.extract_text() for page in PdfReader(io.BytesIO(cards.data)).pages)
    sheet = organiser_client.get(f"/manage/tournaments/{t.id}/exports/player-links.pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(sheet.data)).pages)
    token = player_links.token_of(player_links.link_of(t, ids[0]))
    assert sheet.status_code == 200 and "P000 Player000" in text
    assert token[:20] in text.replace("\n", "")  # the address printed under the code, in pieces


def test_link_tokens_are_masked_in_the_logs():
    token = "A" * 43
    assert mask_link_tokens(f'"GET /p/{token} HTTP/1.1" 200') == '"GET /p/… HTTP/1.1" 200'
    assert mask_link_tokens(f"/api/v1/p/{token}/tables/1/hands/2/confirm") == "/api/v1/p/…/tables/1/hands/2/confirm"
    record = logging.LogRecord("werkzeug", logging.INFO, "", 0, '%s - "%s" %s', ("1.2.3.4", f"GET /p/{token}", "200"),
                               None)
    MaskLinkTokens().filter(record)
    assert token not in record.getMessage()


def test_gunicorn_access_lines_never_hold_a_token():
    from types import SimpleNamespace

    from gunicorn.config import Config

    from tournament.web.log_privacy import GunicornLogger

    token = "B" * 43
    logger = GunicornLogger(Config())
    environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/p/{token}", "PATH_INFO": f"/p/{token}", "QUERY_STRING": "",
               "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_REFERER": f"https://x/p/{token}"}
    req = SimpleNamespace(headers=[("REFERER", f"https://x/p/{token}")], method="GET", path=f"/p/{token}",
                          query="", uri=f"/p/{token}", version=(1, 1))
    resp = SimpleNamespace(status="200 OK", sent=10, headers=[], status_code=200)
    from datetime import timedelta

    atoms = logger.atoms(resp, req, environ, timedelta(seconds=0.01))
    assert all(token not in str(value) for value in atoms.values())


def test_the_public_session_results_mark_unconfirmed_and_disputed_tables(client, in_play):
    t = in_play
    t.entry_mode = EntryMode.PLAYERS
    from tournament.services.play import session as play

    table1 = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 1)]
    table2 = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    confirmations.enter_hand(t, _player(t, table1[0]), _win(table1))
    confirmations.enter_hand(t, _player(t, table2[0]), _win(table2))
    confirmations.dispute(t, _player(t, table2[1]), 2, 1, "Not a discard")
    db.session.commit()
    html = client.get(f"/t/{t.id}/standings/sessions/1").get_data(as_text=True)
    card1 = html.split('id="table-1"')[1].split("</h3>")[0]
    card2 = html.split('id="table-2"')[1].split("</h3>")[0]
    assert "1 unconfirmed" in card1 and "disputed" in card2
