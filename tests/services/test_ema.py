"""The EMA results file (ranked players in standings order, the exact header) and the check before it
goes out: EMA numbers missing, malformed or shared, substitutes who played, sessions not played or still
in play, tables unfinished or not summing to zero."""

from __future__ import annotations

import csv
import io

from sqlalchemy import select

from tests.helpers import EMA_COUNTRIES, EMA_HEADER_LINE, VALID_22
from tournament.extensions import db
from tournament.models import Player, SessionTable, TableTotal
from tournament.services.documents import ema
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.results.standings import standings
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


def test_rows_follow_the_standings_with_the_exact_header(played):
    rows = ema.ema_rows(played)
    ranked = standings(played).rows
    assert [r.place for r in rows] == [r.rank for r in ranked]
    people = {p.id: p for p in db.session.scalars(select(Player))}
    assert [(r.first_name, r.last_name) for r in rows] == [
        (people[r.player_id].first_name, people[r.player_id].last_name) for r in ranked]
    text = ema.ema_csv(rows)
    lines = text.split("\r\n")
    assert lines[0] == EMA_HEADER_LINE
    assert lines[-1] == "" and len(lines) == 2 + len(ranked)
    parsed = list(csv.reader(io.StringIO(text)))
    assert parsed[0] == EMA_HEADER_LINE.split(",")
    for cells, row in zip(parsed[1:], ranked, strict=True):
        person = people[row.player_id]
        assert cells == [str(row.rank), person.first_name, person.last_name, person.ema_number,
                         row.table_points_text, str(row.score), person.country]
    # the tie for second at table 2 shares 2 + 1 table points: 1.5 each, printed as a number
    assert sorted(c[4] for c in parsed[1:]) == ["0", "0", "1", "1.5", "1.5", "2", "4", "4"]
    assert {c[6] for c in parsed[1:]} == set(EMA_COUNTRIES)


def hosted(t):
    """The tournament with its host country set: the check asks for it otherwise."""
    t.country = "FIN"
    db.session.commit()
    return t


def test_a_clean_tournament_passes_the_check(played):
    assert ema.check(hosted(played)) == []


def test_the_check_asks_for_the_host_country_and_players_countries(played):
    problems = ema.check(played)
    assert [p.message for p in problems] == [
        "The host country is not set: give it in the tournament's settings (EMA writes it in 3 letters, e.g. NED). "
        "The EMA file does not guess it."]
    first = db.session.get(Player, standings(played).rows[0].player_id)
    first.country = ""
    db.session.commit()
    problems = ema.check(hosted(played))
    assert [(p.player_id, p.message) for p in problems] == [
        (first.id, f"{first.full_name} has no country: EMA's results need one for every player.")]


def test_ema_number_problems_name_the_player(played):
    players = list(db.session.scalars(select(Player).order_by(Player.id)))
    players[0].ema_number = None
    players[1].ema_number = "12AB5678"    # legacy data: registration refuses these today
    players[2].ema_number = "1234567"
    # A number shared by two players of a tournament cannot be stored since migration ba2f9af2ef97 (unique
    # index), so that case of the check is no longer set up here.
    db.session.commit()
    problems = ema.check(hosted(played))
    by_player: dict[int, list[str]] = {}
    for p in problems:
        by_player.setdefault(p.player_id, []).append(p.message)
    assert "has no EMA number" in by_player[players[0].id][0]
    assert "'12AB5678' is not 8 digits" in by_player[players[1].id][0]
    assert "'1234567' is not 8 digits" in by_player[players[2].id][0]
    assert set(by_player) == {p.id for p in players[:3]}
    assert all(p.table is None and p.session is None for p in problems)
    missing = next(p for p in problems if p.player_id == players[0].id)
    assert missing.as_json() == {"message": missing.message, "player_id": players[0].id}


def test_substitutes_who_played_are_listed_and_left_out_of_the_file(played):
    session = play.get_session(played, 1)
    seat = next(s for s in session.seats if s.table_number == 2)
    substitute = db.session.get(Player, seat.player_id)
    substitute.is_substitute = True
    db.session.commit()
    problems = ema.check(hosted(played))
    assert [(p.player_id, p.table, p.session) for p in problems] == [(substitute.id, 2, 1)]
    assert "Substitute" in problems[0].message and substitute.full_name in problems[0].message
    assert substitute.last_name not in ema.ema_csv(ema.ema_rows(played))
    assert len(ema.ema_rows(played)) == 7


def test_unplayed_and_open_sessions_and_unfinished_and_unbalanced_tables(played):
    played.session_count = 2
    lifecycle.reopen_session(played, 1)
    scoring.clear_totals(played, 1, 2, None)
    table_1 = db.session.scalar(select(SessionTable).where(SessionTable.table_number == 1))
    total = db.session.scalar(select(TableTotal).where(TableTotal.table_id == table_1.id).limit(1))
    total.score += 5  # a sheet copied wrongly: the table no longer sums to zero
    db.session.commit()
    problems = ema.check(hosted(played))
    found = {(p.session, p.table, p.message) for p in problems}
    assert (2, None, "Session 2 has not been played.") in found
    assert (1, None, "Session 1 is still in play (not closed).") in found
    assert any(s == 1 and t == 2 for s, t, _ in found)                           # totals cleared
    assert any(s == 1 and t == 1 and "sum to +5" in m for s, t, m in found)      # does not sum to zero
    assert all(p.player_id is None for p in problems)


# ----------------------------------------------------------------------------- the same answers as the close check


def test_table_problems_agree_with_the_session_check_table_by_table(tournament):
    """The check reads every table of every session at once; it must say exactly what the check run when a
    session is closed (`scoring.session_problems`) says, whatever state the tables are in."""
    from tournament.models import Hand, HandPayment
    from tournament.services.play import clock
    from tournament.services.play.scoring import HandData

    tournament.session_count = 1
    for i in range(24):
        reg.check_in(reg.add_player(tournament, PlayerData(first_name=f"Ann{i}", last_name=f"Lee{i}")))
    draw_service.draw_next(tournament, seed=11)
    lifecycle.start_session(tournament, 1)
    session = play.get_session(tournament, 1)
    seated = {k: [sp.player_id for sp in play.table_players(session, k)] for k in range(1, 7)}

    def win(table: int, number: int) -> None:
        ids = seated[table]
        scoring.enter_hand(tournament, 1, table, HandData(number=number, result="win", winner_id=ids[number % 4],
                                                          discarder_id=ids[(number + 1) % 4], hand=VALID_22), None)

    # table 1: nothing; table 2: hands 1-3; table 3: all 16 hands, one payment broken afterwards;
    # table 4: hands 1-5, time called during hand 6, which is then entered; table 5: totals, three of four;
    # table 6: time called between hands before any hand, then the call undone.
    for number in (1, 2, 3):
        win(2, number)
    for number in range(1, 17):
        win(3, number)
    for number in range(1, 6):
        win(4, number)
    clock.call_time(tournament, 1, 4, 6, None)
    win(4, 6)  # the hand in progress is finished (the default end rule); 7-16 were never played
    scoring.enter_totals(tournament, 1, 5, dict(zip(seated[5], [10, 20, -5, -25], strict=True)), None)
    clock.call_time(tournament, 1, 6, None, None)
    clock.undo_time_call(tournament, 1, 6, None)
    db.session.flush()
    hand = db.session.scalar(select(Hand).where(Hand.table_number == 3, Hand.number == 7))
    payment = db.session.scalar(select(HandPayment).where(HandPayment.hand_id == hand.id).limit(1))
    payment.delta += 4  # a payment changed behind the services' back
    table_5 = db.session.scalar(select(SessionTable).where(SessionTable.table_number == 5))
    db.session.delete(db.session.scalar(select(TableTotal).where(TableTotal.table_id == table_5.id).limit(1)))
    db.session.commit()
    db.session.expire_all()

    expected = [(1, p.table, p.message) for p in scoring.session_problems(tournament, 1)]
    assert ema.table_problems({session.id: 1}) == expected
    tables_named = {table for _, table, _ in expected}
    assert tables_named == {1, 2, 3, 5, 6}  # table 4 is complete: its time call explains the missing hands
    assert any("hand 7's payments" in m for _, _, m in expected)
    assert any("totals are incomplete" in m for _, _, m in expected)
