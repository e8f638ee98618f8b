"""The players' entry mode says what counts (issue 32 item 8): a hand staff corrected or entered is the referee's
word (confirmed, nothing pending); a table's totals and running scores count exactly what the standings count;
the check before finishing lists every unconfirmed and disputed hand by table and hand number. The referee mode
keeps the players' confirmations as they were."""

from __future__ import annotations

import pytest

from tests.helpers import VALID_22, table_ids
from tournament.extensions import db
from tournament.models import EntryMode, HandStatus, Player
from tournament.services.core.errors import ConflictError
from tournament.services.documents import ema
from tournament.services.play import confirmations, scoring
from tournament.services.play import session as play
from tournament.services.play.confirmations import ByStaff
from tournament.services.play.scoring import HandData
from tournament.services.results import standings as standings_service
from tournament.services.seating import lifecycle


def _player(player_id: int) -> Player:
    return db.session.get(Player, player_id)


def _win(number: int, winner: int, discarder: int | None) -> HandData:
    return HandData(number=number, result="win", winner_id=winner, discarder_id=discarder, hand=VALID_22)


def _by_player(t, ids: list[int], number: int) -> None:
    """Hand `number` of table 1 entered by its East from their link: East wins on South's discard."""
    confirmations.enter_hand(t, _player(ids[0]), _win(number, ids[0], ids[1]))


def _confirmed_by_all(t, ids: list[int], number: int) -> None:
    for player_id in ids[1:]:
        confirmations.confirm(t, _player(player_id), 1, number)


@pytest.fixture
def players_mode(in_play):
    in_play.entry_mode = EntryMode.PLAYERS
    db.session.commit()
    return in_play, table_ids(in_play, 1, 1)


def _by_staff(t) -> dict[int, ByStaff]:
    session = play.get_session(t, 1)
    return confirmations.counted_by_staff(t, session, 1, scoring.table_hands(t, 1, 1))


# ----------------------------------------------------------------------------- the referee's word


def test_a_correction_by_staff_counts_and_waits_for_nobody(players_mode):
    t, ids = players_mode
    _by_player(t, ids, 1)
    confirmations.confirm(t, _player(ids[2]), 1, 1)
    confirmations.dispute(t, _player(ids[3]), 1, 1, "South did not discard it")
    hand = scoring.correct_hand(t, 1, 1, 1, _win(1, ids[0], None), None)
    assert hand.counted and hand.status == HandStatus.CONFIRMED and hand.confirmed_by == []
    assert hand.open_disputes == []
    assert _by_staff(t) == {1: ByStaff.CORRECTED}
    assert confirmations.unconfirmed_tables(play.get_session(t, 1)) == {}
    view = confirmations.player_view(t, _player(ids[2]))
    assert view.by_staff == {1: ByStaff.CORRECTED}
    assert [h.status for h in view.hands] == [HandStatus.CONFIRMED]


def test_entered_by_staff_and_ruled_to_stand_say_so_too(players_mode):
    t, ids = players_mode
    scoring.enter_hand(t, 1, 1, _win(1, ids[0], ids[1]), None)  # a referee enters it at the table
    _by_player(t, ids, 2)
    confirmations.rule_stands(t, 1, 1, 2, None)                 # "Confirm for the table"
    _by_player(t, ids, 3)                                        # still waiting for three players
    hands = {h.number: h for h in scoring.table_hands(t, 1, 1)}
    assert hands[1].status == hands[2].status == HandStatus.CONFIRMED
    assert hands[3].status == HandStatus.PENDING
    assert _by_staff(t) == {1: ByStaff.ENTERED, 2: ByStaff.CONFIRMED}
    # Disputed, it is the dispute that shows; corrected afterwards, the correction.
    confirmations.dispute(t, _player(ids[1]), 1, 1, "It was self-drawn")
    assert _by_staff(t) == {2: ByStaff.CONFIRMED}
    scoring.correct_hand(t, 1, 1, 1, _win(1, ids[0], None), None)
    assert _by_staff(t) == {1: ByStaff.CORRECTED, 2: ByStaff.CONFIRMED}


def test_the_referee_mode_keeps_the_players_confirmations_as_they_were(in_play):
    t = in_play
    ids = table_ids(t, 1, 1)
    scoring.enter_hand(t, 1, 1, _win(1, ids[0], ids[1]), None)
    confirmations.confirm(t, _player(ids[1]), 1, 1)
    hand = scoring.correct_hand(t, 1, 1, 1, _win(1, ids[0], None), None)
    assert hand.status == HandStatus.PENDING and hand.staff_confirmed_at is None and hand.counted
    assert _by_staff(t) == {}
    assert confirmations.player_view(t, _player(ids[1])).by_staff == {}


# ----------------------------------------------------------------------------- totals count what the standings count


def test_a_tables_totals_count_exactly_what_the_standings_count(players_mode):
    t, ids = players_mode
    east, south, west, north = ids
    _by_player(t, ids, 1)
    _confirmed_by_all(t, ids, 1)           # counts: East +46, South -30, West and North -8
    _by_player(t, ids, 2)                  # pending: not counted
    _by_player(t, ids, 3)
    _confirmed_by_all(t, ids, 3)
    confirmations.dispute(t, _player(west), 1, 3, "Wrong winner")  # disputed: stops counting
    db.session.commit()

    results = standings_service.session_results(t, 1)
    counted = {p.player_id: p.table_score for table in results.tables if table.table == 1 for p in table.players}
    assert counted == {east: 46, south: -30, west: -8, north: -8}
    sheet = scoring.table_sheet(t, 1, 1)
    assert sheet.totals == counted
    summary = next(s for s in play.session_tables(play.get_session(t, 1)) if s.table_number == 1)
    assert summary.totals == counted
    # The running scores after each hand: the pending and disputed hands are shown but not added.
    running = {row.number: row.running for row in sheet.rows if row.hand is not None}
    assert running[1] == running[2] == running[3] == counted
    assert sheet.entered == summary.entered == 3
    ranked = {row.player_id: row.score for row in standings_service.standings(t).rows}
    assert {pid: ranked[pid] for pid in ids} == counted

    # Once the table confirms hand 2, every total follows.
    _confirmed_by_all(t, ids, 2)
    db.session.commit()
    sheet = scoring.table_sheet(t, 1, 1)
    assert sheet.totals[east] == 92
    ranked = {row.player_id: row.score for row in standings_service.standings(t).rows}
    assert {pid: ranked[pid] for pid in ids} == sheet.totals


# ----------------------------------------------------------------------------- the check before finishing


def test_the_finish_check_lists_unconfirmed_and_disputed_hands_by_table_and_number(players_mode):
    t, ids = players_mode
    other = table_ids(t, 1, 2)
    for number in range(1, 17):
        scoring.enter_hand(t, 1, 2, _win(number, other[number % 4], other[(number + 1) % 4]), None)
    for number in range(1, 17):
        _by_player(t, ids, number)
        if number not in (4, 9, 12):
            _confirmed_by_all(t, ids, number)
    confirmations.dispute(t, _player(ids[2]), 1, 9, "Not a discard")
    db.session.commit()

    session = play.get_session(t, 1)
    listed = ema.table_problems({session.id: 1})
    assert [(table, str(message)) for _, table, message in listed] == [
        (1, "hand 4 awaits the players' confirmation"),
        (1, "hand 9 is disputed: a referee must correct it or rule that it stands"),
        (1, "hand 12 awaits the players' confirmation"),
    ]
    # The check the session page shows is the one finishing runs.
    assert listed == [(1, p.table, p.message) for p in scoring.session_problems(t, 1)]
    with pytest.raises(ConflictError) as refused:
        lifecycle.finish_session(t, 1)
    assert "table 1: hand 4 awaits the players' confirmation" in str(refused.value.message)
    assert "table 1: hand 9 is disputed" in str(refused.value.message)

    # Settled: a referee corrects hand 9, rules hand 4 stands; hand 12 is confirmed by its players.
    scoring.correct_hand(t, 1, 1, 9, _win(9, ids[0], None), None)
    confirmations.rule_stands(t, 1, 1, 4, None)
    _confirmed_by_all(t, ids, 12)
    db.session.commit()
    assert ema.table_problems({session.id: 1}) == []
    assert lifecycle.finish_session(t, 1).status == "finished"
