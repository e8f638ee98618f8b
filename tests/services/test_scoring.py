"""Score entry through the services: the engine decides, payments, false mahjongs, totals, corrections."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tests.helpers import NOT_WINNING, UNDER_5, VALID_22
from tournament.extensions import db
from tournament.models import FalseMahjong, Hand, HandPayment, ScoreAction, ScoreChange, SessionStatus
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import FalseMahjongData, HandData, HandRefused
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle


def counts() -> tuple[int, int, int, int]:
    return tuple(db.session.scalar(select(func.count()).select_from(m))  # type: ignore[return-value]
                 for m in (Hand, HandPayment, FalseMahjong, ScoreChange))


# ----------------------------------------------------------------------------- seat rotation


def test_seat_rotation_over_sixteen_hands_follows_the_rules_table():
    # Positions by starting seat in each round, from the rules (E, S, W, N rounds).
    table = {"E": "ESNW", "S": "SEWN", "W": "WNES", "N": "NWSE"}
    winds = "ESWN"
    dealers = []
    for number in range(1, 17):
        hw = play.hand_winds(number)
        round_index, k = divmod(number - 1, 4)
        assert hw.prevalent == winds[round_index]
        for start, positions in table.items():
            position = winds.index(positions[round_index])
            assert hw.seat_winds[start] == winds[(position - k) % 4]
        assert sorted(hw.seat_winds.values()) == sorted(winds)  # one player per seat wind
        dealers.append(hw.dealer)
    # Each starting seat deals exactly once per round, so four times in a session: the dealer never repeats.
    assert all(dealers.count(s) == 4 for s in winds)
    assert all(len(set(dealers[r * 4:(r + 1) * 4])) == 4 for r in range(4))
    assert play.hand_winds(1).seat_winds == {"E": "E", "S": "S", "W": "W", "N": "N"}
    assert play.hand_winds(2).seat_winds == {"E": "N", "S": "E", "W": "S", "N": "W"}  # dealer passed right
    assert play.hand_winds(5).seat_winds == {"E": "S", "S": "E", "W": "N", "N": "W"}  # South round moves
    with pytest.raises(ValueError):
        play.hand_winds(17)


# ----------------------------------------------------------------------------- sessions


def test_start_publishes_then_puts_in_play_and_is_idempotent(tournament):
    for i in range(4):
        reg.check_in(reg.add_player(tournament, PlayerData(first_name="A", last_name=f"B{i}")))
    session = draw_service.draw_next(tournament, seed=1)
    assert session.status == SessionStatus.DRAFT
    lifecycle.start_session(tournament, 1)
    assert session.status == SessionStatus.IN_PLAY and session.published_at is not None
    lifecycle.start_session(tournament, 1)  # again: nothing changes
    assert session.status == SessionStatus.IN_PLAY
    with pytest.raises(NotFound):
        lifecycle.start_session(tournament, 2)


def test_hands_refused_unless_the_session_is_in_play(tournament):
    for i in range(4):
        reg.check_in(reg.add_player(tournament, PlayerData(first_name="A", last_name=f"B{i}")))
    draw_service.draw_next(tournament, seed=1)
    with pytest.raises(ConflictError, match="not in play"):
        scoring.enter_hand(tournament, 1, 1, HandData(number=1, result="draw"), None)
    assert counts() == (0, 0, 0, 0)


def test_seating_is_locked_once_hands_exist(seated):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    session = play.get_session(t, 1)
    with pytest.raises(ServiceError, match="can no longer be redrawn"):
        draw_service.swap(t, session, ids[0], ids[1], session.version)


# ----------------------------------------------------------------------------- wins and payments


def test_discard_win_payments(seated):
    t, (east, south, west, north) = seated
    hand = scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=south,
                                                 hand=VALID_22, flowers=2), None)
    base = 22 + 2
    assert hand.payment_map() == {east: 8 + base + 16, south: -(8 + base), west: -8, north: -8}
    summary = scoring.hand_summary(hand)
    assert summary["fans"][-1] == {"name": "Flower Tiles", "points": 1, "count": 2}
    assert {f["name"] for f in summary["fans"]} >= {"Pure Straight", "Single Wait"}
    assert sum(summary["payments"].values()) == 0


def test_self_drawn_win_payments_and_seat_wind_from_rotation(seated):
    t, (east, south, west, north) = seated
    # Hand 2: the dealer has passed to the South starting seat; North's player is West... any seat may win.
    hand = scoring.enter_hand(t, 1, 1, HandData(number=2, result="win", winner_id=west, hand=VALID_22), None)
    assert hand.fan_points == 24  # Fully Concealed Hand replaces Concealed Hand when self-drawn
    assert hand.payment_map() == {west: 3 * 32, east: -32, south: -32, north: -32}


def test_seat_and_prevalent_wind_come_from_the_hand_number(seated):
    t, ids = seated
    # A pung of East scores Seat Wind for whoever is East in that hand and Prevalent Wind in the East round.
    hand_text = "EEE123m456p789s5p5p"
    h1 = scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                               hand=hand_text), None)
    names1 = {f["name"] for f in h1.fans}
    assert {"Seat Wind", "Prevalent Wind"} <= names1
    h2 = scoring.enter_hand(t, 1, 1, HandData(number=2, result="win", winner_id=ids[0], discarder_id=ids[1],
                                               hand=hand_text), None)
    names2 = {f["name"] for f in h2.fans}
    assert "Prevalent Wind" in names2 and "Seat Wind" not in names2  # starting East is North in hand 2


def test_under_minimum_and_no_win_are_refused_and_nothing_is_stored(seated):
    t, ids = seated
    with pytest.raises(HandRefused) as under:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                             hand=UNDER_5, flowers=8), None)
    assert under.value.status_code == 422
    assert "5 points: under the 8-point minimum, flowers not counted" in under.value.message
    assert "false mahjong" in under.value.message
    with pytest.raises(HandRefused, match="not a winning hand"):
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], hand=NOT_WINNING), None)
    with pytest.raises(HandRefused, match="13 tiles, 14 expected"):
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], hand="123456789m123s5p"),
                           None)
    assert counts() == (0, 0, 0, 0)


@pytest.mark.parametrize("data, field", [
    (HandData(number=0, result="draw"), "number"),
    (HandData(number=17, result="draw"), "number"),
    (HandData(number=1, result="tie"), "result"),
    (HandData(number=1, result="win", winner_id=999999, hand=VALID_22), "winner_id"),
    (HandData(number=1, result="win", winner_id=None, hand=VALID_22), "winner_id"),
    (HandData(number=1, result="win", winner_id=-1, hand=VALID_22), "winner_id"),
    (HandData(number=1, result="win", winner_id=0, hand=""), "winner_id"),
    (HandData(number=1, result="draw", winner_id=None, flowers=9), "flowers"),
])
def test_bad_hands_are_refused_with_the_field_to_blame(seated, data, field):
    t, _ = seated
    with pytest.raises(ServiceError) as exc:
        scoring.enter_hand(t, 1, 1, data, None)
    assert exc.value.field == field
    assert counts() == (0, 0, 0, 0)


def test_winner_and_discarder_must_differ_and_sit_at_the_table(seated):
    t, ids = seated
    other_table = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    with pytest.raises(ServiceError) as same:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[0],
                                             hand=VALID_22), None)
    assert same.value.field == "discarder_id"
    with pytest.raises(ServiceError) as elsewhere:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=other_table[0], hand=VALID_22), None)
    assert elsewhere.value.field == "winner_id"


def test_a_hand_number_is_entered_once(seated):
    t, ids = seated
    scoring.enter_hand(t, 1, 1, HandData(number=3, result="draw"), None)
    with pytest.raises(ConflictError, match="already entered"):
        scoring.enter_hand(t, 1, 1, HandData(number=3, result="draw"), None)
    assert counts()[0] == 1


# ----------------------------------------------------------------------------- false mahjong


def test_false_mahjong_kinds_from_the_engine_and_the_hand_goes_on(seated):
    t, (east, south, west, north) = seated
    hand = scoring.enter_hand(t, 1, 1, HandData(
        number=1, result="win", winner_id=north, discarder_id=east, hand=VALID_22,
        false_mahjongs=(FalseMahjongData(player_id=south, hand=UNDER_5),
                        FalseMahjongData(player_id=west, hand=NOT_WINNING))), None)
    kinds = {fm.player_id: (fm.kind, fm.amount) for fm in hand.false_mahjongs}
    assert kinds == {south: ("under_minimum", 10), west: ("not_winning", 20)}
    win = {north: 8 + 22 + 16, east: -(8 + 22), south: -8, west: -8}
    fm_south = {south: -30, east: 10, west: 10, north: 10}
    fm_west = {west: -60, east: 20, south: 20, north: 20}
    expected = {p: win[p] + fm_south[p] + fm_west[p] for p in win}
    assert hand.payment_map() == expected
    assert sum(expected.values()) == 0


def test_false_mahjong_kind_from_the_referee_when_no_tiles_and_on_a_draw(seated):
    t, ids = seated
    t.false_mahjong_not_winning = 25  # the tournament's amount, not a constant
    hand = scoring.enter_hand(t, 1, 1, HandData(number=4, result="draw", false_mahjongs=(
        FalseMahjongData(player_id=ids[2], kind="not_winning"),)), None)
    assert hand.payment_map() == {ids[0]: 25, ids[1]: 25, ids[2]: -75, ids[3]: 25}


def test_false_mahjong_refusals(seated):
    t, ids = seated
    cases = [
        (FalseMahjongData(player_id=ids[1]), "false_mahjongs.0.kind"),  # neither tiles nor kind
        (FalseMahjongData(player_id=ids[1], hand=VALID_22), "false_mahjongs.0.hand"),  # a valid win
        (FalseMahjongData(player_id=ids[1], hand=UNDER_5, kind="not_winning"), "false_mahjongs.0.kind"),
        (FalseMahjongData(player_id=ids[1], kind="cheating"), "false_mahjongs.0.kind"),
        (FalseMahjongData(player_id=123456), "false_mahjongs.0.player_id"),
    ]
    for fm, field in cases:
        with pytest.raises(ServiceError) as exc:
            scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw", false_mahjongs=(fm,)), None)
        assert exc.value.field == field, fm
    # The claimant's hand is dead: they cannot also win it.
    with pytest.raises(ServiceError) as dead:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[1], hand=VALID_22,
                                             false_mahjongs=(FalseMahjongData(player_id=ids[1],
                                                                              kind="not_winning"),)), None)
    assert dead.value.field == "winner_id"
    assert counts() == (0, 0, 0, 0)


# ----------------------------------------------------------------------------- corrections and history


def test_correction_keeps_history_and_refuses_stale_versions(seated, organiser):
    t, ids = seated
    hand = scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[1],
                                                 hand=VALID_22), organiser)
    version = hand.version
    scoring.correct_hand(t, 1, 1, 1, HandData(number=1, result="win", winner_id=ids[0], discarder_id=ids[2],
                                              hand=VALID_22), organiser, expected_version=version)
    assert hand.payment_map()[ids[2]] == -30 and hand.payment_map()[ids[1]] == -8
    with pytest.raises(ConflictError, match="changed by someone else"):
        scoring.correct_hand(t, 1, 1, 1, HandData(number=1, result="draw"), organiser, expected_version=version)
    trail = scoring.history(t, 1, 1)
    assert [c.action for c in trail] == [ScoreAction.HAND_CORRECTED, ScoreAction.HAND_ENTERED]
    assert trail[0].before["payments"][str(ids[1])] == -30 and trail[0].after["payments"][str(ids[2])] == -30
    assert trail[0].user_id == organiser.id
    scoring.delete_hand(t, 1, 1, 1, organiser)
    assert scoring.history(t, 1, 1)[0].action == ScoreAction.HAND_DELETED
    assert counts()[:3] == (0, 0, 0)
    with pytest.raises(NotFound):
        scoring.delete_hand(t, 1, 1, 1, organiser)


def test_a_refused_correction_changes_nothing(seated):
    t, ids = seated
    hand = scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=ids[0], hand=VALID_22), None)
    before = hand.payment_map()
    db.session.commit()
    with pytest.raises(HandRefused):
        scoring.correct_hand(t, 1, 1, 1, HandData(number=1, result="win", winner_id=ids[0], hand=UNDER_5), None)
    db.session.expire_all()
    assert db.session.get(Hand, hand.id).payment_map() == before
    assert [c.action for c in scoring.history(t, 1, 1)] == [ScoreAction.HAND_ENTERED]


# ----------------------------------------------------------------------------- totals-only tables


def test_totals_only_table(seated):
    t, ids = seated
    with pytest.raises(ServiceError, match="sum to zero"):
        scoring.enter_totals(t, 1, 2, dict.fromkeys(play_ids(t, 2), 5), None)
    table2 = play_ids(t, 2)
    scoring.enter_totals(t, 1, 2, dict(zip(table2, [120, -40, -30, -50], strict=True)), None)
    sheet = scoring.table_sheet(t, 1, 2)
    assert sheet.mode == "totals" and sheet.totals[table2[0]] == 120 and sheet.missing == []
    with pytest.raises(ConflictError, match="totals only"):
        scoring.enter_hand(t, 1, 2, HandData(number=1, result="draw"), None)
    # A table with hands cannot take totals.
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    with pytest.raises(ConflictError, match="hand by hand"):
        scoring.enter_totals(t, 1, 1, dict(zip(ids, [0, 0, 0, 0], strict=True)), None)
    scoring.clear_totals(t, 1, 2, None)
    assert scoring.table_sheet(t, 1, 2).mode == "hands"


def play_ids(t, table_number: int) -> list[int]:
    return [sp.player_id for sp in play.table_players(play.get_session(t, 1), table_number)]


# ----------------------------------------------------------------------------- closing a session


def test_session_check_lists_missing_hands_and_unentered_tables(seated):
    t, ids = seated
    for number in range(1, 16):
        scoring.enter_hand(t, 1, 1, HandData(number=number, result="draw"), None)
    problems = scoring.session_problems(t, 1)
    assert [(p.table, p.message) for p in problems] == [(1, "hands missing: 16"), (2, "nothing entered yet")]
    with pytest.raises(ConflictError, match="not complete"):
        lifecycle.finish_session(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=16, result="draw"), None)
    scoring.enter_totals(t, 1, 2, dict(zip(play_ids(t, 2), [10, -10, 0, 0], strict=True)), None)
    assert scoring.session_problems(t, 1) == []
    assert lifecycle.finish_session(t, 1).status == SessionStatus.FINISHED
    with pytest.raises(ConflictError, match="not in play"):
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)


# ----------------------------------------------------------------------------- issue 20 item 10

EIGHT_SELF_DRAWN = "123m456m678s234s5p5p"  # 6 fan points on a discard; exactly 8 self-drawn (Fully Concealed)


def test_a_false_mahjong_claim_is_checked_in_its_win_context(seated):
    t, (east, south, west, north) = seated
    claim = FalseMahjongData(player_id=south, hand=EIGHT_SELF_DRAWN)
    refusals = [
        (FalseMahjongData(player_id=south, hand=EIGHT_SELF_DRAWN, self_drawn=True), "false_mahjongs.0.hand"),
        (FalseMahjongData(player_id=south, hand="[123m]456m789s23p5s5s1p", kong=True), "false_mahjongs.0.hand"),
        # Robbing the Kong with Last Tile Claim is impossible: the flag is blamed, not the tiles
        (FalseMahjongData(player_id=south, hand=EIGHT_SELF_DRAWN, kong=True, wall_last=True), "false_mahjongs.0.kong"),
    ]
    for fm, field in refusals:
        with pytest.raises(HandRefused) as exc:
            scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw", false_mahjongs=(fm,)), None)
        assert exc.value.field == field, fm
    assert "valid win (8 points)" in str(_refusal(t, refusals[0][0]))
    hand = scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw", false_mahjongs=(claim,)), None)
    assert [(fm.kind, fm.amount) for fm in hand.false_mahjongs] == [("under_minimum", 10)]
    assert hand.payment_map() == {south: -30, east: 10, west: 10, north: 10}


def _refusal(t, fm):
    with pytest.raises(HandRefused) as exc:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw", false_mahjongs=(fm,)), None)
    return exc.value.message


def test_robbing_the_kong_with_last_tile_claim_is_refused_on_the_kong_flag(seated):
    t, (east, south, _, _) = seated
    with pytest.raises(HandRefused) as exc:
        scoring.enter_hand(t, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=south,
                                             hand="[123m]456m789s23p5s5s1p", kong=True, wall_last=True), None)
    assert exc.value.status_code == 422 and exc.value.field == "kong"
    assert "Robbing the Kong" in exc.value.message and "Last Tile Claim" in exc.value.message
    assert counts() == (0, 0, 0, 0)


def test_stop_immediately_a_false_mahjong_in_the_stopped_hand_still_pays(seated, organiser):
    t, (east, south, west, north) = seated
    t.end_rule = "stop_immediately"
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    clock.call_time(t, 1, 1, 2, organiser)
    stopped = HandData(number=2, result="not_scored",
                       false_mahjongs=(FalseMahjongData(player_id=west, kind="not_winning"),))
    # only the stopped hand takes "not_scored", and it never takes a win or a draw
    with pytest.raises(ServiceError) as exc:
        scoring.correct_hand(t, 1, 1, 1, HandData(number=1, result="not_scored"), None)
    assert exc.value.field == "result"
    with pytest.raises(ConflictError):
        scoring.correct_hand(t, 1, 1, 2, HandData(number=2, result="draw"), None)
    with pytest.raises(ServiceError) as exc:
        scoring.correct_hand(t, 1, 1, 2, HandData(number=2, result="not_scored", winner_id=east,
                                                  hand=VALID_22), None)
    assert exc.value.field == "result"
    hand = scoring.correct_hand(t, 1, 1, 2, stopped, organiser)
    assert hand.result == "not_scored" and hand.winner_id is None
    assert hand.payment_map() == {west: -60, east: 20, south: 20, north: 20}
    assert scoring.table_sheet(t, 1, 1).totals[west] == -60
    actions = db.session.scalars(select(ScoreChange.action).where(ScoreChange.hand_number == 2)
                                 .order_by(ScoreChange.id)).all()
    assert actions == [ScoreAction.HAND_NOT_SCORED, ScoreAction.HAND_CORRECTED]
    # taken back by a correction without it: the stopped hand pays nothing again
    hand = scoring.correct_hand(t, 1, 1, 2, HandData(number=2, result="not_scored"), organiser)
    assert sorted(hand.payment_map().values()) == [0, 0, 0, 0] and not hand.false_mahjongs
