"""The players' entry mode says what counts, on the pages (issue 32 item 8): a player's page says a hand the
referee corrected counts (no Confirm button, nothing pending); the session's table cards and the table page add
up what the standings count; the check before finishing names the unconfirmed and disputed hands by table and
hand number. The referee mode's player page stays as it was."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.helpers import VALID_22, csrf_token, table_ids
from tournament.extensions import db
from tournament.models import EntryMode, Player
from tournament.services.people import player_links
from tournament.services.play import confirmations, scoring
from tournament.services.play.scoring import HandData
from tournament.services.results import standings as standings_service


def _player(player_id: int) -> Player:
    return db.session.get(Player, player_id)


def _token(t, player_id: int) -> str:
    token = player_links.token_of(player_links.link_of(t, player_id))
    db.session.commit()
    return token


def _win(number: int, winner: int, discarder: int | None) -> HandData:
    return HandData(number=number, result="win", winner_id=winner, discarder_id=discarder, hand=VALID_22)


def _hand_item(html: str, number: int) -> str:
    """A hand's item on a player's page (no list inside it)."""
    return html.split(f'id="hand-{number}"')[1].split("</li>")[0]


def _hand_row(html: str, number: int) -> str:
    """A hand's row on the table page: up to the next hand's."""
    return html.split(f'id="hand-{number}"')[1].split('id="hand-')[0]


@pytest.fixture
def table_day(in_play):
    """Players' entry mode, table 1: hand 1 entered by East and corrected by the referee after a dispute (self-
    drawn: East +96), hand 2 entered by East and waiting for the other three, hand 3 confirmed by all four and then
    disputed. What counts: hand 1 alone."""
    t = in_play
    t.entry_mode = EntryMode.PLAYERS
    ids = table_ids(t, 1, 1)
    east, south, west, north = ids
    confirmations.enter_hand(t, _player(east), _win(1, east, south))
    confirmations.confirm(t, _player(south), 1, 1)
    confirmations.dispute(t, _player(west), 1, 1, "It was self-drawn")
    scoring.correct_hand(t, 1, 1, 1, _win(1, east, None), None)
    confirmations.enter_hand(t, _player(east), _win(2, east, south))
    confirmations.enter_hand(t, _player(east), _win(3, east, north))
    for player in (south, west, north):
        confirmations.confirm(t, _player(player), 1, 3)
    confirmations.dispute(t, _player(north), 1, 3, "North did not discard it")
    db.session.commit()
    return t, ids


def test_a_hand_the_referee_corrected_reads_counts_with_nothing_to_confirm(client, table_day):
    t, (east, south, west, north) = table_day
    html = client.get(f"/p/{_token(t, west)}").get_data(as_text=True)
    corrected = _hand_item(html, 1)
    assert "corrected by the referee: counts" in corrected
    assert "Confirm hand 1" not in corrected and "confirmed by" not in corrected and "pending" not in corrected
    assert "Something is wrong with hand 1" in corrected  # a player may still call a referee about it
    # Hand 2 alone waits for the players: it is the one the page counts as not yet confirmed.
    assert "1 hand not yet confirmed by all four." in html
    assert "Confirm hand 2" in _hand_item(html, 2) and "confirmed by 1 of 4" in _hand_item(html, 2)
    assert "North did not discard it" in _hand_item(html, 3)


def test_in_the_referee_mode_the_players_page_is_as_it_was(client, in_play):
    t = in_play
    east, south, west, north = table_ids(t, 1, 1)
    scoring.enter_hand(t, 1, 1, _win(1, east, south), None)
    scoring.correct_hand(t, 1, 1, 1, _win(1, east, None), None)
    db.session.commit()
    html = client.get(f"/p/{_token(t, west)}").get_data(as_text=True)
    hand = _hand_item(html, 1)
    assert "by the referee" not in hand
    assert "Confirm hand 1" in hand and "confirmed by 0 of 4" in hand
    assert "1 hand not yet confirmed by all four." in html


def _scores(fragment: str, css: str) -> list[str]:
    """The values of the spans of class `css` (a +n / -n / 0 delta inside them or the text itself)."""
    return [re.sub(r"<[^>]+>", "", value).strip()
            for value in re.findall(rf'<span class="{css}">(.*?</span>|[^<]*)</span>', fragment, re.S)]


def test_the_table_card_and_the_table_page_add_up_what_the_standings_count(organiser_client, table_day):
    t, (east, south, west, north) = table_day
    ranked = {row.player_id: row.score for row in standings_service.standings(t).rows}
    assert [ranked[p] for p in (east, south, west, north)] == [96, -32, -32, -32]

    session_page = organiser_client.get(f"/manage/tournaments/{t.id}/play/1").get_data(as_text=True)
    card = session_page.split('id="table-1"')[1].split("</li>\n    \n")[0].split('</ul>')[0]
    assert _scores(card, "score-value") == ["+96", "-32", "-32", "-32"]

    table_page = organiser_client.get(f"/manage/tournaments/{t.id}/play/1/tables/1").get_data(as_text=True)
    seats = table_page.split('class="panel seat-panel"')[1].split("</ol>")[0]
    assert _scores(seats, "seat-total") == ["+96", "-32", "-32", "-32"]
    # Hand 3's running scores are hand 1's: the pending and the disputed hand are not added.
    hand_3 = _hand_row(table_page, 3)
    assert re.findall(r'<span class="running"[^>]*>([^<]*)</span>', hand_3) == ["96", "-32", "-32", "-32"]
    assert "corrected by the referee: counts" in _hand_row(table_page, 1)
    assert "not counted until confirmed" in _hand_row(table_page, 2)


def test_the_check_before_finishing_names_the_unconfirmed_and_disputed_hands(organiser_client, table_day):
    t, _ = table_day
    page = f"/manage/tournaments/{t.id}/play/1"
    html = organiser_client.get(page).get_data(as_text=True)
    check = html.split('id="check-title"')[1].split('<ul class="row-problems">')[1].split("</ul>")[0]
    problems = [unescape(re.sub(r"<[^>]+>", "", item)).strip() for item in re.findall(r"<li>(.*?)</li>", check, re.S)]
    assert "Table 1: hand 2 awaits the players' confirmation" in problems
    assert "Table 1: hand 3 is disputed: a referee must correct it or rule that it stands" in problems
    assert not [p for p in problems if "hand 1 " in p]
    refused = organiser_client.post(f"{page}/finish", data={"csrf_token": csrf_token(organiser_client, page)},
                                    follow_redirects=True)
    text = unescape(refused.get_data(as_text=True))
    assert "table 1: hand 2 awaits the players' confirmation" in text
    assert "table 1: hand 3 is disputed" in text
