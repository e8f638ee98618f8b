"""The referee board as a card per table (issue 32 item 1): a dispute settled on its card comes back to the board
(the hand stands, or is corrected), board.json's key follows what the cards show, the reasons are the readers' on
the page and English in the API, which lists the disputes."""

from __future__ import annotations

import re

from tests.helpers import VALID_22, Api, csrf_token, hand_form, token_for
from tournament.extensions import db
from tournament.models import EntryMode
from tournament.services.play import clock, confirmations, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData


def disputed(t) -> tuple[list[int], str]:
    """Players' entry; table 2's hand 1 entered by East, disputed by West: (table 2's ids, the board's address)."""
    t.entry_mode = EntryMode.PLAYERS
    seats = play.table_players(play.get_session(t, 1), 2)
    ids = [sp.player_id for sp in seats]
    confirmations.enter_hand(t, seats[0].player, HandData(number=1, result="win", winner_id=ids[0],
                                                          discarder_id=ids[1], hand=VALID_22))
    confirmations.dispute(t, seats[2].player, 2, 1, "The discard was the 6 dots")
    db.session.commit()
    return ids, f"/manage/tournaments/{t.id}/play/1/board"


def test_the_hand_stands_from_the_card_and_the_board_comes_back(organiser_client, in_play):
    t = in_play
    _, board = disputed(t)
    page = organiser_client.get(board).get_data(as_text=True)
    assert '<li class="board-card needs-referee disputed" data-table="2"' in page
    answer = organiser_client.post(f"/manage/tournaments/{t.id}/play/1/tables/2/hands/1/stands",
                                   data={"csrf_token": csrf_token(organiser_client, board), "next": board})
    assert answer.status_code == 302 and answer.headers["Location"] == board
    assert scoring.get_hand(t, 1, 2, 1).status == "confirmed"
    after = organiser_client.get(board).get_data(as_text=True)
    assert "disputed" not in re.findall(r'<li class="board-card([^"]*)" data-table="2"', after)[0]
    # a `next` off the site is not followed: the table page instead
    again = organiser_client.post(f"/manage/tournaments/{t.id}/play/1/tables/2/hands/1/stands",
                                  data={"csrf_token": csrf_token(organiser_client, board),
                                        "next": "https://elsewhere.example/"})
    assert again.headers["Location"].endswith("/play/1/tables/2#hand-1")


def test_a_hand_corrected_from_the_card_comes_back_to_the_board(organiser_client, in_play):
    t = in_play
    ids, board = disputed(t)
    edit = f"/manage/tournaments/{t.id}/play/1/tables/2/hands/1/edit?next={board}"
    assert f'href="{edit}"' in organiser_client.get(board).get_data(as_text=True)
    hand = scoring.get_hand(t, 1, 2, 1)
    data = hand_form(ids, discarder_id=ids[2], version=hand.version)
    answer = organiser_client.post(edit, data={"csrf_token": csrf_token(organiser_client, edit), **data})
    assert answer.status_code == 302 and answer.headers["Location"] == board
    db.session.expire_all()
    assert not scoring.get_hand(t, 1, 2, 1).open_disputes


def test_the_key_follows_what_the_cards_show(organiser_client, in_play):
    t = in_play
    url = f"/manage/tournaments/{t.id}/play/1/board"
    clock.start(t, 1, None)
    db.session.commit()
    first = organiser_client.get(url + ".json").get_json()["key"]
    assert f'data-board-key="{first}"' in organiser_client.get(url).get_data(as_text=True)
    assert organiser_client.get(url + ".json").get_json()["key"] == first  # the seconds counting: the same
    ids = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 1)]
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                         hand=VALID_22), None)
    db.session.commit()
    second = organiser_client.get(url + ".json").get_json()["key"]
    assert second != first


def test_the_page_says_the_reasons_in_the_readers_language_the_api_in_english(organiser_client, client, in_play,
                                                                             organiser):
    t = in_play
    disputed(t)
    clock.start(t, 1, None)
    db.session.commit()
    page = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/board?lang=fi").get_data(as_text=True)
    assert re.findall(r'<p class="board-reason">([^<]*)</p>', page) == ["pelaa", "pelaa"]
    assert "Kiistäjä " in page and "The discard was the 6 dots" in page and "disputed:" not in page
    token = token_for(organiser)
    board = Api(client, token).get(f"/tournaments/{t.id}/sessions/1/board", expect=200, headers={
        "Authorization": f"Bearer {token}", "Accept-Language": "fi"}).get_json()
    first = board["tables"][0]
    assert first["reason"] == "hand 1 disputed: The discard was the 6 dots"
    assert first["disputes"][0]["reason"] == "The discard was the 6 dots" and first["disputed"] == 1
    assert board["tables"][1]["reason"] == "playing"
