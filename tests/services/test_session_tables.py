"""`play.session_tables` (the staff play page: every table at once, constant queries) says what a score
sheet per table (`scoring.table_sheet`) says, whatever state the tables are in."""

from __future__ import annotations

from sqlalchemy import event, select

from tests.helpers import VALID_22
from tournament.extensions import db
from tournament.models import Hand, HandPayment
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import FalseMahjongData, HandData
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


def test_session_tables_agree_with_the_score_sheets(tournament):
    tournament.session_count = 1
    for i in range(28):
        reg.check_in(reg.add_player(tournament, PlayerData(first_name=f"Ann{i}", last_name=f"Lee{i}")))
    draw_service.draw_next(tournament, seed=11)
    lifecycle.start_session(tournament, 1)
    session = play.get_session(tournament, 1)
    seated = {k: [sp.player_id for sp in play.table_players(session, k)] for k in range(1, 8)}

    def win(table: int, number: int) -> None:
        ids = seated[table]
        scoring.enter_hand(tournament, 1, table, HandData(number=number, result="win", winner_id=ids[number % 4],
                                                          discarder_id=ids[(number + 1) % 4], hand=VALID_22), None)

    # table 1: nothing; table 2: hands 1-3, a gap, hand 5; table 3: all 16 hands, one payment broken;
    # table 4: hands 1-5, time called during hand 6, which is entered; table 5: totals; table 6: time called
    # before any hand, then undone; table 7: a draw with a false mahjong, and a time call between hands.
    for number in (1, 2, 3, 5):
        win(2, number)
    for number in range(1, 17):
        win(3, number)
    for number in range(1, 6):
        win(4, number)
    clock.call_time(tournament, 1, 4, 6, None)
    win(4, 6)
    scoring.enter_totals(tournament, 1, 5, dict(zip(seated[5], [10, 20, -5, -25], strict=True)), None)
    clock.call_time(tournament, 1, 6, None, None)
    clock.undo_time_call(tournament, 1, 6, None)
    scoring.enter_hand(tournament, 1, 7, HandData(number=1, result="draw", false_mahjongs=[
        FalseMahjongData(player_id=seated[7][2], kind="not_winning")]), None)
    win(7, 2)
    clock.call_time(tournament, 1, 7, None, None)
    db.session.flush()
    hand = db.session.scalar(select(Hand).where(Hand.table_number == 3, Hand.number == 7))
    db.session.scalar(select(HandPayment).where(HandPayment.hand_id == hand.id).limit(1)).delta += 4
    db.session.commit()
    db.session.expire_all()
    session = play.get_session(tournament, 1)

    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):  # noqa: ANN001
        statements.append(statement)

    event.listen(db.engine, "before_cursor_execute", count)
    try:
        summaries = play.session_tables(session)
    finally:
        event.remove(db.engine, "before_cursor_execute", count)
    assert len(statements) == 5

    assert [s.table_number for s in summaries] == list(range(1, 8))
    for summary in summaries:
        sheet = scoring.table_sheet(tournament, 1, summary.table_number)
        assert [(sp.start_wind, sp.player_id) for sp in summary.players] == [
            (sp.start_wind, sp.player_id) for sp in sheet.players], summary.table_number
        assert (summary.mode, summary.totals, summary.entered, summary.missing) == (
            sheet.mode, sheet.totals, sheet.entered, sheet.missing), summary.table_number
    by_table = {s.table_number: s for s in summaries}
    assert by_table[1].entered == 0 and by_table[1].missing == list(range(1, 17))
    assert by_table[2].missing == [4, *range(6, 17)]
    assert by_table[4].missing == [] and by_table[5].mode == "totals" and by_table[7].missing == []
    assert by_table[6].missing == list(range(1, 17))  # the call was undone
    assert sum(by_table[3].totals.values()) == 4
