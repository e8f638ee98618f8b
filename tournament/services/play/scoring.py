"""Referee score entry: hands validated by the fan engine, false mahjongs, totals-only tables,
corrections with their history, and the check before a session is closed.

The engine decides: a claimed win that is no winning hand, or scores under 8 without flowers, is never
stored as a win (`HandRefused`, 422); the referee records it as a false mahjong instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import inspect, select
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.attributes import set_committed_value

from tournament.constants import is_int
from tournament.extensions import db
from tournament.mcr import MCRError, settle_false_mahjong, settle_win
from tournament.mcr.result import MINIMUM_POINTS
from tournament.messages import Message, msg
from tournament.models import (
    HANDS_PER_SESSION,
    DisputeResolution,
    EntryMode,
    FalseMahjong,
    FalseMahjongKind,
    Hand,
    HandConfirmation,
    HandPayment,
    HandResult,
    Player,
    ScoreAction,
    ScoreChange,
    SessionTable,
    Substitution,
    TableMode,
    TableTotal,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.play import referee_calls, time_calls
from tournament.services.play import session as play
from tournament.services.play.hand_check import MAX_FLOWERS, HandCheck, Verdict, check_hand
from tournament.services.play.score_changes import record_score_change
from tournament.text import control_refusal

MAX_TOTAL = 1_000_000  # a session total beyond this is a typing error, not a score
NOT_A_CLAIMANT = msg("The false mahjong claimant must be one of the four players at this table.")
# a false mahjong's kind in a sentence (the words the pages' status labels use)
FALSE_MAHJONG_WORDS = {"under_minimum": msg("under minimum"), "not_winning": msg("not winning")}


class HandRefused(ServiceError):
    """The engine refuses the claimed win: not a winning hand, under the minimum, or unreadable."""

    status_code = 422

    def __init__(self, message: str, check: HandCheck | None = None, field: str | None = "hand"):
        super().__init__(message, field=field)
        self.check = check


@dataclass(frozen=True)
class FalseMahjongData:
    player_id: int
    hand: str | None = None
    kind: str | None = None  # "under_minimum" | "not_winning": the referee's word when no tiles are given
    # The claim's win context, as for a win: 8 fan points self-drawn is a win, not "under the minimum".
    self_drawn: bool = False
    last_tile: bool = False
    wall_last: bool = False
    kong: bool = False


@dataclass(frozen=True)
class HandData:
    number: int
    result: str  # "win" | "draw"
    winner_id: int | None = None
    discarder_id: int | None = None  # None on a win: self-drawn
    hand: str | None = None
    flowers: int = 0
    last_tile: bool = False
    wall_last: bool = False
    kong: bool = False
    false_mahjongs: tuple[FalseMahjongData, ...] = field(default_factory=tuple)
    # A referee's ruling on the points (MERS 1.9: no wait fan or Last Tile for a winning tile not shown; the
    # winner's own under-count stands): 8 <= ruled <= the engine's fan points, paid instead, with its text.
    ruled_points: int | None = None
    ruling: str = ""


@dataclass(frozen=True)
class _Verdict:
    """Everything a hand record stores, worked out before anything is written."""

    result: str
    winner_id: int | None
    discarder_id: int | None
    tiles: str
    flowers: int
    last_tile: bool
    wall_last: bool
    kong: bool
    fans: list[dict[str, Any]]
    fan_points: int
    false_mahjongs: list[tuple[int, str, str, int]]  # (player, kind, tiles, amount to each other player)
    payments: dict[int, int]
    ruled_points: int | None = None
    ruling: str = ""


# ----------------------------------------------------------------------------- the engine decides


def check_number(number: Any) -> int:
    if not is_int(number) or not 1 <= number <= HANDS_PER_SESSION:
        raise ServiceError(msg("The hand number must be 1 to %(hands_per_session)s.", hands_per_session=HANDS_PER_SESSION), field="number")
    return number


def _seat_of(players: Sequence[play.SeatedPlayer], player_id: Any, field_name: str, refusal: Message) -> int:
    for index, seated in enumerate(players):
        if is_int(player_id) and seated.player_id == player_id:
            return index
    raise ServiceError(refusal, field=field_name)


def _false_mahjong_kind(
    t: Tournament, players: Sequence[play.SeatedPlayer], fm: FalseMahjongData, index: int, winds: play.HandWinds
) -> tuple[str, str]:
    """(kind, tiles) of one false mahjong: from the engine when the tiles are given, else the referee's word."""
    field_name = f"false_mahjongs.{index}"
    tiles = (fm.hand or "").strip()
    if fm.kind is not None and fm.kind not in {k.value for k in FalseMahjongKind}:
        raise ServiceError(msg("A false mahjong is 'under_minimum' (a legal hand under 8) or "
                               "'not_winning'."),
                           field=f"{field_name}.kind")
    if not tiles:
        if fm.kind is None:
            raise ServiceError(msg("Give the claimed hand's tiles, or say which kind of false mahjong it "
                                   "was."),
                               field=f"{field_name}.kind")
        return fm.kind, ""
    seat = _seat_of(players, fm.player_id, f"{field_name}.player_id", NOT_A_CLAIMANT)
    for flag in ("self_drawn", "last_tile", "wall_last", "kong"):
        if not isinstance(getattr(fm, flag), bool):
            raise ServiceError(msg("%(flag)s is true or false.", flag=flag), field=f"{field_name}.{flag}")
    check = check_hand(  # flowers never count toward the minimum
        tiles,
        self_drawn=fm.self_drawn,
        last_tile=fm.last_tile,
        wall_last=fm.wall_last,
        kong=fm.kong,
        seat_wind=winds.seat_winds[players[seat].start_wind],
        prevalent_wind=winds.prevalent,
        ruleset=t.ruleset,
    )
    if check.verdict == Verdict.VALID:
        raise HandRefused(msg("The claimed hand is a valid win (%(fan_points)s points): enter it as the "
                              "win, not as a false mahjong.", fan_points=check.fan_points), check, field=f"{field_name}.hand")
    if check.code == "bad_context":  # an impossible flag, not unreadable tiles: the referee's word cannot cover it
        raise HandRefused(msg("The claim's win context is impossible: %(reason)s.", reason=check.reason_message),
                          check, field=f"{field_name}.{check.field or 'hand'}")
    if check.verdict not in (Verdict.UNDER_MINIMUM, Verdict.NOT_WINNING):
        if fm.kind is None:
            raise HandRefused(msg("The claimed hand cannot be read: %(reason)s. Correct it, or leave the "
                                  "tiles out and say which kind of false mahjong it was.",
                                  reason=check.reason_message), check, field=f"{field_name}.hand")
        return fm.kind, tiles  # unreadable tiles: the referee's word decides, the text is kept as written
    if fm.kind is not None and fm.kind != check.verdict:
        raise ServiceError(msg("The engine classes this claim as %(verdict)s (%(reason)s), not %(kind)s.",
                               verdict=FALSE_MAHJONG_WORDS[check.verdict], reason=check.reason_message,
                               kind=FALSE_MAHJONG_WORDS[fm.kind]), field=f"{field_name}.kind")
    return check.verdict, tiles


def _decide(t: Tournament, session: TournamentSession, table_number: int, data: HandData) -> _Verdict:
    """Validate a hand against the table and the engine and work out its payments; writes nothing."""
    number = check_number(data.number)
    players = play.players_at_hand(session, table_number, number)  # substitutes in from their hand on
    winds = play.hand_winds(number)
    payments = {seated.player_id: 0 for seated in players}
    if data.result not in (HandResult.WIN, HandResult.DRAW, HandResult.NOT_SCORED):
        raise ServiceError(msg("A hand is a win or a draw (wall exhausted); 'not_scored' only for the "
                               "hand a stop-immediately time call stopped."), field="result")
    if not is_int(data.flowers) or not 0 <= data.flowers <= MAX_FLOWERS:
        raise ServiceError(msg("Flowers are 0 to %(max_flowers)s.", max_flowers=MAX_FLOWERS), field="flowers")

    false_mahjongs: list[tuple[int, str, str, int]] = []
    claimants: set[int] = set()
    for index, fm in enumerate(data.false_mahjongs):
        seat = _seat_of(players, fm.player_id, f"false_mahjongs.{index}.player_id", NOT_A_CLAIMANT)
        if fm.player_id in claimants:
            raise ServiceError(msg("A player's hand is dead after a false mahjong: one per player and "
                                   "hand."),
                               field=f"false_mahjongs.{index}.player_id")
        claimants.add(fm.player_id)
        kind, tiles = _false_mahjong_kind(t, players, fm, index, winds)
        amount = (t.false_mahjong_under_minimum if kind == FalseMahjongKind.UNDER_MINIMUM
                  else t.false_mahjong_not_winning)
        for s, delta in enumerate(settle_false_mahjong(seat, kind, amount, amount)):
            payments[players[s].player_id] += delta
        false_mahjongs.append((fm.player_id, kind, tiles, amount))

    if data.result in (HandResult.DRAW, HandResult.NOT_SCORED):
        if data.winner_id is not None or data.discarder_id is not None or (data.hand or "").strip():
            raise ServiceError(msg("A draw has no winner, discarder or winning hand.") if data.result == HandResult.DRAW
                               else msg("A hand stopped by the time call has no winner, discarder or winning hand."),
                               field="result")
        return _Verdict(data.result, None, None, "", 0, False, False, False, [], 0, false_mahjongs, payments)

    winner = _seat_of(players, data.winner_id, "winner_id",
                      msg("The winner must be one of the four players at this table."))
    referee_calls.check_not_dead(session, table_number, number, data.winner_id)  # a dead hand ruled at a call
    if data.winner_id in claimants:
        raise ServiceError(msg("This player's hand is dead after their false mahjong: they cannot win "
                               "this hand."),
                           field="winner_id")
    discarder = None
    if data.discarder_id is not None:
        discarder = _seat_of(players, data.discarder_id, "discarder_id",
                             msg("The discarder must be one of the four players at this table."))
        if discarder == winner:
            raise ServiceError(msg("The discarder cannot be the winner: leave it empty for a self-drawn "
                                   "win."),
                               field="discarder_id")
    tiles = (data.hand or "").strip()
    if not tiles:
        raise ServiceError(msg("Enter the winning hand: the engine checks every win."), field="hand")
    check = check_hand(
        tiles,
        self_drawn=discarder is None,
        last_tile=bool(data.last_tile),
        wall_last=bool(data.wall_last),
        kong=bool(data.kong),
        seat_wind=winds.seat_winds[players[winner].start_wind],
        prevalent_wind=winds.prevalent,
        flowers=data.flowers,
        ruleset=t.ruleset,
    )
    if check.verdict != Verdict.VALID:
        # the engine's reason as a message too: the pages say it in the reader's language, the API in English
        reason = check.reason_message
        refusal = (msg("Not a valid win: %(reason)s. Record it as a false mahjong instead.", reason=reason)
                   if check.is_false_mahjong else msg("Not a valid win: %(reason)s.", reason=reason))
        raise HandRefused(refusal, check,
                          field=check.field if check.field and check.field != "hand" else "hand")
    ruled, ruling = _ruling(data, check.fan_points)
    try:
        deltas = settle_win(winner, discarder, (check.fan_points if ruled is None else ruled) + data.flowers)
    except MCRError as exc:  # cannot happen after the checks above; refused rather than stored wrongly
        raise ServiceError(exc.message) from exc
    for s, delta in enumerate(deltas):
        payments[players[s].player_id] += delta
    fans = [{"name": f.name, "points": f.points, "count": f.count} for f in check.fans]
    return _Verdict(HandResult.WIN, data.winner_id, data.discarder_id, tiles, data.flowers, bool(data.last_tile),
                    bool(data.wall_last), bool(data.kong), fans, check.fan_points, false_mahjongs, payments,
                    ruled, ruling)


class RulingRefused(ServiceError):
    status_code = 422


def _ruling(data: HandData, fan_points: int) -> tuple[int | None, str]:
    """The referee's ruled value and its text, checked: the engine's count stays recorded beside it."""
    if data.ruled_points is None:
        if (data.ruling or "").strip():
            raise RulingRefused(msg("A ruling's text goes with its ruled points: give both, or neither."),
                                field="ruled_points")
        return None, ""
    ruled = data.ruled_points
    if not is_int(ruled) or not MINIMUM_POINTS <= ruled <= fan_points:
        raise RulingRefused(msg("A ruled value is %(minimum_points)s to the engine's %(fan_points)s fan "
                                "points: a ruling can take fans away (a winning tile not shown, the "
                                "winner's own count), not add them.", minimum_points=MINIMUM_POINTS, fan_points=fan_points),
                            field="ruled_points")
    if problem := control_refusal((data.ruling or "").strip(), msg("the ruling")):
        raise RulingRefused(problem, field="ruling")
    text = " ".join((data.ruling or "").split())
    if not text or len(text) > 500:
        raise RulingRefused(msg("Say what the referee ruled (at most 500 characters)."), field="ruling")
    return (None, "") if ruled == fan_points and not text else (ruled, text)


# ----------------------------------------------------------------------------- reading


def hand_summary(hand: Hand) -> dict[str, Any]:
    """A hand as the API, the history and the pages show it; payments keyed by player id (as text)."""
    fans = [dict(f) for f in hand.fans]
    if hand.result == HandResult.WIN and hand.flowers:
        fans.append({"name": "Flower Tiles", "points": 1, "count": hand.flowers})
    return {
        "id": hand.id,
        "number": hand.number,
        "result": str(hand.result),
        "winner_id": hand.winner_id,
        "discarder_id": hand.discarder_id,
        "self_drawn": hand.is_self_drawn,
        "hand": hand.tiles,
        "flowers": hand.flowers,
        "last_tile": hand.last_tile,
        "wall_last": hand.wall_last,
        "kong": hand.kong,
        "fans": fans,
        "fan_points": hand.fan_points,
        "ruled_points": hand.ruled_points,
        "ruling": hand.ruling or None,
        "total": hand.base if hand.result == HandResult.WIN else 0,
        "false_mahjongs": [
            {"player_id": fm.player_id, "kind": str(fm.kind), "hand": fm.tiles, "amount": fm.amount}
            for fm in hand.false_mahjongs
        ],
        "payments": {str(p.player_id): p.delta for p in hand.payments},
        "version": hand.version,
    }


def hand_answer(hand: Hand) -> dict[str, Any]:
    """A hand as every API answer gives it: the summary plus who at the table confirmed it and its status
    (pending, confirmed, disputed). The history keeps the bare summary: confirmations are not score changes."""
    return {**hand_summary(hand), "status": hand.status, "confirmed_by": hand.confirmed_by}


def table_hands(t: Tournament, session_number: int, table_number: int) -> list[Hand]:
    """The table's hands in order, their payments and false mahjongs loaded with them (one query each for all
    the hands: the table page, the players' view and the API read them for every hand)."""
    session = play.get_session(t, session_number)
    play.table_players(session, table_number)
    return list(db.session.scalars(
        select(Hand).where(Hand.session_id == session.id, Hand.table_number == table_number).order_by(Hand.number)
        .options(selectinload(Hand.payments), selectinload(Hand.false_mahjongs))
    ))


def get_hand(t: Tournament, session_number: int, table_number: int, hand_number: Any) -> Hand:
    if not is_int(hand_number) or not 1 <= hand_number <= HANDS_PER_SESSION:
        raise NotFound(msg("There is no hand %(hand_number)s in a session.", hand_number=hand_number))
    session = play.get_session(t, session_number)
    play.table_players(session, table_number)
    hand = db.session.scalar(select(Hand).where(
        Hand.session_id == session.id, Hand.table_number == table_number, Hand.number == hand_number))
    if hand is None:
        raise NotFound(msg("Hand %(hand_number)s has not been entered at table %(table_number)s.", hand_number=hand_number, table_number=table_number))
    return hand


# ----------------------------------------------------------------------------- writing


def already_stored(t: Tournament, session_number: int, table_number: int, data: HandData) -> bool:
    """Hand `data.number` is stored as `data` says (result, winner, discarder, tiles, flowers): an entry
    refused as a conflict was a double submit of the same hand, stored once, not a different hand."""
    try:
        summary = hand_summary(get_hand(t, session_number, table_number, data.number))
    except ServiceError:
        return False
    return (summary["result"], summary["winner_id"], summary["discarder_id"], summary["hand"] or None,
            summary["flowers"]) == (data.result, data.winner_id, data.discarder_id, data.hand or None, data.flowers)


def _writable_table(t: Tournament, session_number: int, table_number: int) -> tuple[TournamentSession, SessionTable]:
    session = play.get_session(t, session_number, to_score=True)
    table = play.session_table(session, table_number, lock=True)
    play.require_in_play(session)
    if table.mode == TableMode.TOTALS:
        raise ConflictError(msg("Table %(table_number)s is scored by session totals only: clear its "
                                "totals before entering hands.", table_number=table_number))
    return session, table


def _apply(hand: Hand, verdict: _Verdict) -> None:
    hand.result = verdict.result
    hand.winner_id = verdict.winner_id
    hand.discarder_id = verdict.discarder_id
    hand.tiles = verdict.tiles
    hand.flowers = verdict.flowers
    hand.last_tile = verdict.last_tile
    hand.wall_last = verdict.wall_last
    hand.kong = verdict.kong
    hand.fans = verdict.fans
    hand.fan_points = verdict.fan_points
    hand.ruled_points = verdict.ruled_points
    hand.ruling = verdict.ruling
    # Payments are updated in place (same four players): a delete and re-insert would trip the unique key.
    existing = {p.player_id: p for p in hand.payments}
    for player_id, delta in verdict.payments.items():
        if player_id in existing:
            existing.pop(player_id).delta = delta
        else:
            hand.payments.append(HandPayment(player_id=player_id, delta=delta))
    for stale in existing.values():
        hand.payments.remove(stale)
    hand.false_mahjongs.clear()
    for player_id, kind, tiles, amount in verdict.false_mahjongs:
        hand.false_mahjongs.append(FalseMahjong(player_id=player_id, kind=kind, tiles=tiles, amount=amount))


def _staff_word(t: Tournament, hand: Hand) -> None:
    """A hand staff recorded (entered, corrected, stored by a time call) counts at once. In the players' entry
    mode it is also the referee's word on the table's record: confirmed, nobody's confirmation awaited
    (docs/rules/players-entry.md). In the referee mode the players may confirm it as before."""
    hand.staff_confirmed_at = utcnow() if t.entry_mode == EntryMode.PLAYERS else None


def _staff_took_over(t: Tournament, hand: Hand, user: User | None) -> None:
    """A staff correction: the hand now counts as staff recorded it, every open dispute is settled by it, and
    the players' earlier confirmations go (in the referee mode they confirm the corrected hand afresh)."""
    now = utcnow()
    hand.confirmations.clear()
    _staff_word(t, hand)
    hand.entered_by_player_id = None
    hand.counted = True
    for dispute in hand.open_disputes:
        dispute.resolution = DisputeResolution.CORRECTED
        dispute.resolved_at = now
        dispute.resolved_by_id = user.id if user else None


def enter_hand(t: Tournament, session_number: int, table_number: int, data: HandData, user: User | None,
               player: Player | None = None) -> Hand:
    """Store a new hand with its fans, false mahjongs and payments, and note it in the history.

    `player`: entered by a player at the table from their link (`services.play.confirmations`); the hand then
    counts once the table (or staff) confirmed it, and the player who entered it has confirmed it."""
    session, _ = _writable_table(t, session_number, table_number)
    time_calls.check_hand_may_be_entered(t, session, table_number, check_number(data.number))  # the end rule
    if data.result == HandResult.NOT_SCORED:
        raise ServiceError(msg("Only a time call stores a hand as not scored (stop-immediately rule)."), field="result")
    verdict = _decide(t, session, table_number, data)
    taken = db.session.scalar(select(Hand.id).where(
        Hand.session_id == session.id, Hand.table_number == table_number, Hand.number == data.number))
    if taken is not None:
        raise ConflictError(msg("Hand %(number)s is already entered at table %(table_number)s. Correct it"
                                " instead of entering it again.", number=data.number, table_number=table_number))
    with changes():
        hand = Hand(session_id=session.id, table_number=table_number, number=data.number,
                    entered_by_id=user.id if user else None)
        _apply(hand, verdict)
        if player is not None:
            hand.entered_by_player_id = player.id
            hand.counted = False
            hand.confirmations.append(HandConfirmation(player_id=player.id))
        else:
            _staff_word(t, hand)
        db.session.add(hand)
        db.session.flush()
        _nothing_more_to_load(hand)
        action = ScoreAction.HAND_ENTERED_BY_PLAYER if player is not None else ScoreAction.HAND_ENTERED
        record_score_change(session.id, table_number, hand.number, action, user, None, hand_summary(hand))
    return hand


def _nothing_more_to_load(hand: Hand) -> None:
    """A hand just inserted has no rows but those added with it: its collections not touched yet are known
    empty, so the answer and the history do not query them (three statements of a hand's ~20)."""
    state = inspect(hand)
    for name in ("payments", "false_mahjongs", "confirmations", "disputes"):
        if name in state.unloaded:
            set_committed_value(hand, name, [])


def correct_hand(t: Tournament, session_number: int, table_number: int, hand_number: int, data: HandData,
                 user: User | None, expected_version: int | None = None) -> Hand:
    """Replace a stored hand; the history keeps what it was. A stale `expected_version` is a conflict."""
    session, _ = _writable_table(t, session_number, table_number)
    hand = get_hand(t, session_number, table_number, hand_number)
    db.session.refresh(hand)  # read under the table's lock: a correction committed meanwhile is seen here
    # The hand stopped by a stop-immediately time call stays not scored, but a false mahjong made in it before
    # the gong still pays: correcting it with result "not_scored" records just those (GB 3.5.6, issue 20).
    if not (hand.result == HandResult.NOT_SCORED and data.result == HandResult.NOT_SCORED):
        time_calls.check_hand_may_be_entered(t, session, table_number, hand_number)
        if data.result == HandResult.NOT_SCORED:
            raise ServiceError(msg("Only a time call stores a hand as not scored (stop-immediately rule)."),
                               field="result")
    if expected_version is not None and expected_version != hand.version:
        raise ConflictError(msg("Hand %(hand_number)s at table %(table_number)s was changed by someone "
                                "else meanwhile. Nothing was changed: reload it and correct it again.", hand_number=hand_number, table_number=table_number))
    if data.number != hand_number:
        raise ServiceError(msg("This is hand %(hand_number)s: delete it and enter hand %(number)s if the "
                               "number was wrong.", hand_number=hand_number, number=data.number),
                           field="number")
    verdict = _decide(t, session, table_number, data)
    before = hand_summary(hand)
    with changes():
        _apply(hand, verdict)
        _staff_took_over(t, hand, user)
        db.session.flush()
        record_score_change(session.id, table_number, hand_number, ScoreAction.HAND_CORRECTED, user, before, hand_summary(hand))
    return hand


def delete_hand(t: Tournament, session_number: int, table_number: int, hand_number: int, user: User | None,
                expected_version: int | None = None) -> None:
    session, _ = _writable_table(t, session_number, table_number)
    hand = get_hand(t, session_number, table_number, hand_number)
    db.session.refresh(hand)  # read under the table's lock (as corrections)
    time_calls.check_hand_may_be_entered(t, session, table_number, hand_number)  # a not-scored hand goes with its time call
    if expected_version is not None and expected_version != hand.version:
        raise ConflictError(msg("Hand %(hand_number)s at table %(table_number)s was changed by someone "
                                "else meanwhile. Nothing was deleted.", hand_number=hand_number, table_number=table_number))
    before = hand_summary(hand)
    with changes():
        db.session.delete(hand)
        record_score_change(session.id, table_number, hand_number, ScoreAction.HAND_DELETED, user, before, None)


def record_not_scored(t: Tournament, session: TournamentSession, table_number: int, number: int,
                      user: User | None) -> Hand:
    """The hand in progress when time was called under the stop-immediately rule: stored with no payments (a
    false mahjong made in it before the gong is added by correct_hand with result "not_scored")."""
    players = play.players_at_hand(session, table_number, number)
    with changes():
        hand = Hand(session_id=session.id, table_number=table_number, number=number, result=HandResult.NOT_SCORED,
                    entered_by_id=user.id if user else None)
        _staff_word(t, hand)
        hand.payments = [HandPayment(player_id=p.player_id, delta=0) for p in players]
        db.session.add(hand)
        db.session.flush()
        record_score_change(session.id, table_number, number, ScoreAction.HAND_NOT_SCORED, user, None,
                            hand_summary(hand))
    return hand


def remove_not_scored(t: Tournament, session: TournamentSession, table_number: int, number: int,
                      user: User | None) -> None:
    """Undoing a time call takes back the not-scored hand it stored (a hand entered otherwise stays)."""
    hand = db.session.scalar(select(Hand).where(Hand.session_id == session.id, Hand.table_number == table_number,
                                                Hand.number == number, Hand.result == HandResult.NOT_SCORED))
    if hand is None:
        return
    before = hand_summary(hand)
    with changes():
        db.session.delete(hand)
        record_score_change(session.id, table_number, number, ScoreAction.HAND_DELETED_TIME_CALL_UNDONE, user, before, None)


# ----------------------------------------------------------------------------- totals-only tables


def enter_totals(t: Tournament, session_number: int, table_number: int, scores: dict[int, int],
                 user: User | None, expected_version: int | None = None) -> SessionTable:
    """Score a table by the paper sheet's four session totals (they sum to zero; penalties stay apart)."""
    session = play.get_session(t, session_number, to_score=True)
    table = play.session_table(session, table_number, lock=True)
    play.require_in_play(session)
    if expected_version is not None and expected_version != table.version:
        raise ConflictError(msg("Table %(table_number)s's totals were changed by someone else meanwhile. "
                                "Reload them.", table_number=table_number))
    players = play.table_players(session, table_number)
    ids = [p.player_id for p in players]
    if set(scores) != set(ids):
        raise ServiceError(msg("Give a total for each of the four players at the table."), field="scores")
    for pid, score in scores.items():
        if not is_int(score) or abs(score) > MAX_TOTAL:
            raise ServiceError(msg("Totals are whole numbers."), field=f"score_{pid}")
    if sum(scores.values()) != 0:
        raise ServiceError(msg("The four totals must sum to zero (they sum to %(total)+d).", total=sum(scores.values())),
                           field="scores")
    has_hands = db.session.scalar(select(Hand.id).where(
        Hand.session_id == session.id, Hand.table_number == table_number).limit(1))
    if has_hands is not None:
        raise ConflictError(msg("Table %(table_number)s already has hands entered: a table is scored hand"
                                " by hand or by totals, not both.", table_number=table_number))
    before = {str(tt.player_id): tt.score for tt in table.totals} or None
    with changes():
        table.mode = TableMode.TOTALS
        existing = {tt.player_id: tt for tt in table.totals}
        for pid in ids:
            if pid in existing:
                existing[pid].score = scores[pid]
            else:
                table.totals.append(TableTotal(player_id=pid, score=scores[pid]))
        record_score_change(session.id, table_number, None, ScoreAction.TOTALS_CORRECTED if before else ScoreAction.TOTALS_ENTERED, user, before,
             {str(pid): scores[pid] for pid in ids})
    return table


def clear_totals(t: Tournament, session_number: int, table_number: int, user: User | None) -> SessionTable:
    """Back to hand-by-hand entry for a table whose totals were entered by mistake."""
    session = play.get_session(t, session_number, to_score=True)
    table = play.session_table(session, table_number, lock=True)
    play.require_in_play(session)
    if table.mode != TableMode.TOTALS:
        return table
    before = {str(tt.player_id): tt.score for tt in table.totals}
    with changes():
        table.totals.clear()
        table.mode = TableMode.HANDS
        record_score_change(session.id, table_number, None, ScoreAction.TOTALS_CLEARED, user, before, None)
    return table


# ----------------------------------------------------------------------------- a table at a glance


@dataclass(frozen=True)
class HandRow:
    number: int
    winds: play.HandWinds
    hand: Hand | None
    running: dict[int, int]  # player id -> session score after this hand (payments of the counted hands only)
    players: list[play.SeatedPlayer] = field(default_factory=list)  # who sits at this hand (substitutions)


@dataclass(frozen=True)
class TableSheet:
    session: TournamentSession
    table_number: int
    table: SessionTable | None
    players: list[play.SeatedPlayer]
    rows: list[HandRow]
    totals: dict[int, int]  # player id -> session score from hands (those counted) or totals, penalties not included
    missing: list[int]  # hand numbers still to enter (hands mode)
    not_played: list[int] = field(default_factory=list)  # after time was called: never played, not missing
    time_call: time_calls.TimeCall | None = None
    substitutions: list[Substitution] = field(default_factory=list)

    @property
    def everyone(self) -> list[play.SeatedPlayer]:
        """The drawn players and every substitute who came in, in that order."""
        return [*self.players, *(play.SeatedPlayer(start_wind="", player=s.in_player) for s in self.substitutions)]

    @property
    def mode(self) -> str:
        return self.table.mode if self.table else TableMode.HANDS

    @property
    def entered(self) -> int:
        return sum(1 for row in self.rows if row.hand is not None)


def table_sheet(t: Tournament, session_number: int, table_number: int) -> TableSheet:
    session = play.get_session(t, session_number)
    players = play.table_players(session, table_number)
    table = db.session.scalar(select(SessionTable).where(
        SessionTable.session_id == session.id, SessionTable.table_number == table_number))
    hands = {h.number: h for h in table_hands(t, session_number, table_number)}
    subs = play.substitutions_at(session, table_number)
    running = {p.player_id: 0 for p in players} | {s.in_player_id: 0 for s in subs}
    rows = []
    for number in range(1, HANDS_PER_SESSION + 1):
        hand = hands.get(number)
        # The running scores and the totals count what the standings count (`Hand.in_standings`): a players'
        # entry waiting for the table's confirmation, or disputed, is shown but not added.
        if hand is not None and hand.in_standings:
            for payment in hand.payments:
                running[payment.player_id] = running.get(payment.player_id, 0) + payment.delta
        rows.append(HandRow(number=number, winds=play.hand_winds(number), hand=hand, running=dict(running),
                            players=play.with_substitutions(players, subs, number)))
    if table is not None and table.mode == TableMode.TOTALS:
        totals = {tt.player_id: tt.score for tt in table.totals}
        missing: list[int] = []
    else:
        totals = running
        missing = [n for n in range(1, HANDS_PER_SESSION + 1) if n not in hands]
    call = time_calls.time_call(session, table_number)
    not_played = [n for n in missing if call is not None and n > call.limit]
    missing = [n for n in missing if n not in not_played]
    return TableSheet(session, table_number, table, players, rows, totals, missing, not_played, call, subs)


def history(t: Tournament, session_number: int, table_number: int | None = None) -> list[ScoreChange]:
    session = play.get_session(t, session_number)
    query = select(ScoreChange).where(ScoreChange.session_id == session.id)
    if table_number is not None:
        query = query.where(ScoreChange.table_number == table_number)
    return list(db.session.scalars(query.order_by(ScoreChange.at.desc(), ScoreChange.id.desc())))


# ----------------------------------------------------------------------------- closing a session


@dataclass(frozen=True)
class TableProblem:
    table: int
    message: str


def session_problems(t: Tournament, session_number: int) -> list[TableProblem]:
    """What stands between a session and its closing: unentered tables, missing hands, tables that
    do not sum to zero (penalties apart)."""
    session = play.get_session(t, session_number)
    problems = []
    for table_number in play.table_numbers(session):
        sheet = table_sheet(t, session_number, table_number)
        if sheet.mode == TableMode.TOTALS:
            if len(sheet.totals) != 4:
                problems.append(TableProblem(table_number, msg("totals are incomplete")))
        elif sheet.entered == 0 and sheet.time_call is None:
            problems.append(TableProblem(table_number, msg("nothing entered yet")))
        elif sheet.missing:
            listed = ", ".join(str(n) for n in sheet.missing)
            problems.append(TableProblem(table_number, msg("hands missing: %(hands)s", hands=listed)))
        if sum(sheet.totals.values()) != 0:
            problems.append(TableProblem(table_number, msg("scores sum to %(total)+d, not zero",
                                                           total=sum(sheet.totals.values()))))
        for row in sheet.rows:
            if row.hand is not None and sum(p.delta for p in row.hand.payments) != 0:
                problems.append(TableProblem(table_number, msg("hand %(number)s's payments do not sum to zero",
                                                               number=row.number)))
            if row.hand is not None and row.hand.open_disputes:
                problems.append(TableProblem(table_number, msg("hand %(number)s is disputed: a referee must correct it "
                                                               "or rule that it stands", number=row.number)))
            elif row.hand is not None and not row.hand.counted:
                problems.append(TableProblem(table_number, msg("hand %(number)s awaits the players' confirmation",
                                                               number=row.number)))
    return problems
