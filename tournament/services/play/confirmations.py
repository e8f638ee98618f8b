"""Players at their table: the session and table a player's link opens, hands entered by players, the table's
confirmations, disputes, and the referees' answer to them.

How a hand counts (docs/rules/players-entry.md):
- entered or corrected by staff: it counts at once (both entry modes); in the `referee` mode players may confirm
  it all the same, in the `players` mode it is the referee's word (confirmed: `scoring._staff_word`);
- entered by a player (the `players` entry mode): it counts once all four players at the hand confirmed it
  (the one who entered it has), or a referee ruled that it stands;
- disputed by a player: it goes to the referees' queue; a player's entry stops counting until a referee
  corrects it (which settles every open dispute) or rules that it stands.
A hand's status is `pending`, `confirmed` (all four, or a referee) or `disputed` (an open dispute). Whenever
the status or the counting changes, a score change is recorded: the standings and the live pages follow it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sqlalchemy import not_, or_, select

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import (
    DisputeResolution,
    EntryMode,
    Hand,
    HandConfirmation,
    HandDispute,
    HandStatus,
    Player,
    ScoreAction,
    ScoreChange,
    Seat,
    SessionStatus,
    Substitution,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import PermissionDenied, ServiceError
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.score_changes import record_score_change
from tournament.services.play.scoring import HandData
from tournament.text import control_refusal

MAX_REASON = 500


@dataclass(frozen=True)
class PlayerTable:
    """Where a player's link takes them: the session people look for their seat in and their table there."""

    session: TournamentSession | None
    table_number: int | None

    @property
    def in_play(self) -> bool:
        return self.session is not None and self.session.status == SessionStatus.IN_PLAY


def _table_in(session: TournamentSession, player_id: int) -> int | None:
    """The player's table in the session: their drawn seat, or the seat they came into as a substitute."""
    table = db.session.scalar(select(Seat.table_number).where(Seat.session_id == session.id,
                                                               Seat.player_id == player_id))
    if table is not None:
        return table
    return db.session.scalar(select(Substitution.table_number).where(
        Substitution.session_id == session.id, Substitution.in_player_id == player_id).limit(1))


def player_table(t: Tournament, player: Player) -> PlayerTable:
    """The session in play (else the next published, else the last published) and the player's table in it."""
    session = play.session_to_find(list(t.sessions))
    if session is None:
        return PlayerTable(None, None)
    return PlayerTable(session, _table_in(session, player.id))


def _own_table(t: Tournament, player: Player, table_number: Any) -> TournamentSession:
    """The session in play, where the player sits at `table_number` (403 elsewhere, 409 with no session in play)."""
    where = player_table(t, player)
    if where.session is None or not where.in_play:
        raise ServiceError(msg("No session is in play: hands are entered and confirmed during a session."),
                           field="session")
    if where.table_number is None or where.table_number != table_number:
        raise PermissionDenied(msg("You do not play at table %(table_number)s in session %(number)s: only"
                                   " the players of a table confirm or dispute its hands.", table_number=table_number, number=where.session.number))
    return where.session


def _check_at_hand(hand: Hand, player: Player) -> None:
    if player.id not in {p.player_id for p in hand.payments}:
        raise PermissionDenied(msg("You did not play hand %(number)s: the players who did confirm it.", number=hand.number))


def _counts(hand: Hand) -> bool:
    if hand.entered_by_player_id is None or hand.staff_confirmed_at is not None:
        return True
    return hand.status == HandStatus.CONFIRMED


def _after(hand: Hand, before: tuple[HandStatus, bool], user: User | None, action: ScoreAction) -> None:
    """Bring `counted` up to date; a change of status or counting is a score change the standings follow."""
    hand.counted = _counts(hand)
    db.session.flush()
    if (hand.status, hand.counted) != before:
        session_id, table_number = hand.session_id, hand.table_number
        # No snapshot: the hand's scores did not change; who confirmed or disputed is on the hand itself.
        record_score_change(session_id, table_number, hand.number, action, user)


# ----------------------------------------------------------------------------- players


def enter_hand(t: Tournament, player: Player, data: HandData) -> Hand:
    """A player enters a hand of their own table in the session in play (the `players` entry mode)."""
    if t.entry_mode != EntryMode.PLAYERS:
        raise PermissionDenied(msg("In this tournament the referees enter the hands; you confirm them or "
                                   "dispute them."))
    if data.ruled_points is not None or (data.ruling or "").strip():
        raise PermissionDenied(msg("Only a referee rules on a hand's points: enter the hand as the engine"
                                   " counts it and call a referee."), field="ruled_points")
    where = player_table(t, player)
    if where.session is None or not where.in_play or where.table_number is None:
        raise PermissionDenied(msg("You have no table in a session in play: hands are entered at your "
                                   "table during the session."))
    session = where.session
    at_hand = {p.player_id for p in play.players_at_hand(session, where.table_number, scoring.check_number(data.number))}
    if player.id not in at_hand:
        raise PermissionDenied(msg("You do not play hand %(number)s at table %(table_number)s.", number=data.number, table_number=where.table_number))
    return scoring.enter_hand(t, session.number, where.table_number, data, None, player=player)


def confirm(t: Tournament, player: Player, table_number: Any, hand_number: Any) -> Hand:
    """The player agrees hand `hand_number` of their table is recorded right (again: nothing more)."""
    session = _own_table(t, player, table_number)
    play.session_table(session, table_number, lock=True)  # one write at a time per table, corrections included
    hand = scoring.get_hand(t, session.number, table_number, hand_number)
    db.session.refresh(hand)
    _check_at_hand(hand, player)
    if player.id in hand.confirmed_by:
        return hand
    before = (hand.status, hand.counted)
    with changes():
        for dispute in hand.open_disputes:  # confirming takes back the player's own open dispute
            if dispute.player_id == player.id:
                hand.disputes.remove(dispute)
        hand.confirmations.append(HandConfirmation(player_id=player.id))
        db.session.flush()
        db.session.refresh(hand)
        _after(hand, before, None, ScoreAction.HAND_CONFIRMED)
    return hand


def dispute(t: Tournament, player: Player, table_number: Any, hand_number: Any, reason: Any) -> Hand:
    """The player says hand `hand_number` is recorded wrong: it goes to the referees' queue."""
    reason = reason.strip() if isinstance(reason, str) else reason
    if not isinstance(reason, str) or not reason:
        raise ServiceError(msg("Say what is wrong with the hand: the referee reads it."), field="reason")
    if len(reason) > MAX_REASON:
        raise ServiceError(msg("At most %(max_reason)s characters.", max_reason=MAX_REASON), field="reason")
    if problem := control_refusal(reason, msg("the reason"), multiline=True):  # a text box on the player's page
        raise ServiceError(problem, field="reason")
    session = _own_table(t, player, table_number)
    play.session_table(session, table_number, lock=True)
    hand = scoring.get_hand(t, session.number, table_number, hand_number)
    db.session.refresh(hand)
    _check_at_hand(hand, player)
    before = (hand.status, hand.counted)
    with changes():
        for confirmation in list(hand.confirmations):  # a player who disputes no longer confirms
            if confirmation.player_id == player.id:
                hand.confirmations.remove(confirmation)
        mine = next((d for d in hand.open_disputes if d.player_id == player.id), None)
        if mine is not None:
            mine.reason = reason
        else:
            hand.disputes.append(HandDispute(player_id=player.id, reason=reason))
        db.session.flush()
        db.session.refresh(hand)
        _after(hand, before, None, ScoreAction.HAND_DISPUTED)
    return hand


# ----------------------------------------------------------------------------- referees


def rule_stands(t: Tournament, session_number: int, table_number: int, hand_number: Any, user: User | None) -> Hand:
    """A referee rules the hand stands as entered: its open disputes are closed and it counts (confirmed)."""
    session = play.get_session(t, session_number, to_score=True)
    play.session_table(session, table_number, lock=True)
    play.require_in_play(session)
    hand = scoring.get_hand(t, session_number, table_number, hand_number)
    db.session.refresh(hand)
    before = (hand.status, hand.counted)
    now = utcnow()
    with changes():
        for open_dispute in hand.open_disputes:
            open_dispute.resolution = DisputeResolution.STANDS
            open_dispute.resolved_at = now
            open_dispute.resolved_by_id = user.id if user else None
        hand.staff_confirmed_at = now
        _after(hand, before, user, ScoreAction.HAND_STANDS)
    return hand


def dispute_json(d: HandDispute, hand: Hand) -> dict[str, Any]:
    return {"id": d.id, "table": hand.table_number, "hand": hand.number, "player_id": d.player_id,
            "reason": d.reason, "opened_at": d.opened_at.isoformat() + "Z", "hand_status": hand.status}


def open_disputes(t: Tournament, session_number: int) -> list[tuple[HandDispute, Hand]]:
    """The session's open disputes, oldest first: the referees' queue."""
    session = play.get_session(t, session_number)
    return list(db.session.execute(
        select(HandDispute, Hand).join(Hand, Hand.id == HandDispute.hand_id)
        .where(Hand.session_id == session.id, HandDispute.resolved_at.is_(None))
        .order_by(HandDispute.opened_at, HandDispute.id)))


def unconfirmed_tables(session: TournamentSession) -> dict[int, dict[str, int]]:
    """Per table: how many hands await confirmation (`pending`: not counted yet) and how many are disputed."""
    out: dict[int, dict[str, int]] = {}
    hands = db.session.scalars(select(Hand).where(
        Hand.session_id == session.id,
        or_(not_(Hand.in_standings), Hand.id.in_(select(HandDispute.hand_id).where(HandDispute.resolved_at.is_(None))))))
    for hand in hands:
        row = out.setdefault(hand.table_number, {"pending": 0, "disputed": 0})
        if hand.open_disputes:
            row["disputed"] += 1
        elif not hand.in_standings:
            row["pending"] += 1
    return out


class ByStaff(StrEnum):
    """How a hand of the players' entry mode came to count on staff's word (what the pages say of it)."""

    CORRECTED = "corrected"  # a referee corrected it
    ENTERED = "entered"      # a referee entered it (or a stop-immediately time call stored it)
    CONFIRMED = "confirmed"  # a referee ruled a player's entry stands ("Confirm for the table" too)


# The score changes that record a hand (the last of them says whether staff entered it or corrected it).
_RECORDED = (ScoreAction.HAND_ENTERED, ScoreAction.HAND_ENTERED_BY_PLAYER, ScoreAction.HAND_CORRECTED,
             ScoreAction.HAND_NOT_SCORED)


def counted_by_staff(t: Tournament, session: TournamentSession, table_number: int,
                     hands: list[Hand]) -> dict[int, ByStaff]:
    """Hand number -> how staff made it count, for the table's hands that count on a referee's word and are not
    disputed, in the `players` entry mode: the players' page says so instead of awaiting their confirmations.
    Empty in the `referee` mode, where the players' confirmations stay as they were (one query at most)."""
    if t.entry_mode != EntryMode.PLAYERS:
        return {}
    by_staff = [h for h in hands if h.staff_confirmed_at is not None and not h.open_disputes]
    recorded = [h.number for h in by_staff if h.entered_by_player_id is None]
    last: dict[int, ScoreAction] = {}
    if recorded:
        for number, action in db.session.execute(
            select(ScoreChange.hand_number, ScoreChange.action)
            .where(ScoreChange.session_id == session.id, ScoreChange.table_number == table_number,
                   ScoreChange.hand_number.in_(recorded), ScoreChange.action.in_(_RECORDED))
            .order_by(ScoreChange.id)
        ):
            last[number] = action
    return {h.number: ByStaff.CONFIRMED if h.entered_by_player_id is not None else
            ByStaff.CORRECTED if last.get(h.number) == ScoreAction.HAND_CORRECTED else ByStaff.ENTERED
            for h in by_staff}


# ----------------------------------------------------------------------------- what a player's link shows


@dataclass(frozen=True)
class PlayerView:
    """Everything a player's page and the player's API answer show, read with a few queries."""

    player: Player
    where: PlayerTable
    hands: list[Hand]
    seats: list[play.SeatedPlayer]  # the table's players as they sit for the next hand (substitutions in)
    next_hand: int | None           # the number of the next hand to enter (None: all 16 entered)
    seat_wind: str | None           # the player's seat wind for that hand
    names: dict[int, str]           # everyone the table's seats and hands name (a substitution's leaver too)
    by_staff: dict[int, ByStaff] = field(default_factory=dict)  # hands counting on a referee's word: no Confirm


def player_view(t: Tournament, player: Player) -> PlayerView:
    where = player_table(t, player)
    if where.session is None or where.table_number is None:
        return PlayerView(player, where, [], [], None, None, {player.id: player.full_name})
    hands = scoring.table_hands(t, where.session.number, where.table_number)
    entered = {h.number for h in hands}
    next_hand = next((n for n in range(1, play.HANDS_PER_SESSION + 1) if n not in entered), None)
    seats = play.players_at_hand(where.session, where.table_number, next_hand or play.HANDS_PER_SESSION)
    seat_wind = None
    if next_hand is not None:
        winds = play.hand_winds(next_hand)
        seat_wind = next((winds.seat_winds[s.start_wind] for s in seats if s.player_id == player.id), None)
    named = {s.player_id for s in seats} | {p.player_id for h in hands for p in h.payments}
    names = {p.id: p.full_name for p in db.session.scalars(select(Player).where(Player.id.in_(named)))}
    return PlayerView(player, where, hands, seats, next_hand, seat_wind, names,
                      counted_by_staff(t, where.session, where.table_number, hands))
