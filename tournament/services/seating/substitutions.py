"""Substitutions during a session (MERS 4): a player leaves, arrives late, falls ill or is disqualified, and a
substitute takes the seat from a given hand on.

The hands before `from_hand` belong to the outgoing player, those from then on to the incoming one (score
entry asks `play.players_at_hand`). Table points follow MERS 4 (`Substitution.keeps_table_points`, read by the
standings' facts): a late player's substitute, or one who takes the seat before the first hand, plays the
table like anyone; otherwise the seat scores 0 table points and the other three take 4, 2 and 1. The
outgoing player is absent from the next draw when they left, fell ill or were disqualified (their status says
so); a late player is not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import joinedload

from tournament.constants import is_id, is_int
from tournament.extensions import db
from tournament.messages import msg, msg_n, status_word
from tournament.models import (
    HANDS_PER_SESSION,
    Hand,
    Penalty,
    Player,
    PlayerStatus,
    ScoreAction,
    Seat,
    SessionStatus,
    Substitution,
    SubstitutionReason,
    TableMode,
    Tournament,
    TournamentSession,
    User,
)
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.people import registration as reg
from tournament.services.play import penalties
from tournament.services.play import session as play
from tournament.services.play.score_changes import record_score_change
from tournament.text import control_refusal

MAX_NOTE = 500
# What the outgoing player's status becomes: absent from the next draw, or not.
LEAVES_THE_TOURNAMENT = {SubstitutionReason.LEFT: PlayerStatus.WITHDRAWN, SubstitutionReason.ILL: PlayerStatus.WITHDRAWN,
                         SubstitutionReason.DISQUALIFIED: PlayerStatus.DISQUALIFIED}


def substitution_json(sub: Substitution, session_number: int) -> dict[str, Any]:
    return {
        "id": sub.id,
        "session": session_number,
        "table": sub.table_number,
        "out_player_id": sub.out_player_id,
        "in_player_id": sub.in_player_id,
        "from_hand": sub.from_hand,
        "reason": str(sub.reason),
        "note": sub.note,
        "keeps_table_points": sub.keeps_table_points,
        "created_at": sub.created_at.isoformat() + "Z",
    }


def _player(t: Tournament, player_id: Any, field: str) -> Player:
    player = db.session.get(Player, player_id) if is_id(player_id) else None
    if player is None or player.tournament_id != t.id:
        raise ServiceError(msg("Choose a player of this tournament."), field=field)
    return player


def _seated_in_session(session: TournamentSession, player_id: int) -> int | None:
    """The table where the player sits in this session (drawn, or as an incoming substitute), if any."""
    table = db.session.scalar(select(Seat.table_number).where(Seat.session_id == session.id,
                                                               Seat.player_id == player_id))
    if table is not None:
        return table
    return db.session.scalar(select(Substitution.table_number).where(Substitution.session_id == session.id,
                                                                      Substitution.in_player_id == player_id))


def substitute(t: Tournament, session_number: int, table_number: int, *, out_player_id: Any, in_player_id: Any,
               from_hand: Any, reason: Any, user: User | None, note: Any = "", stays: bool = False) -> Substitution:
    """Record that `in_player_id` takes `out_player_id`'s seat at this table from hand `from_hand` on. A player
    who left or fell ill leaves the later draws (withdrawn), unless `stays`: they come back for the next session
    (the table page asks before saving). A disqualified player leaves whatever `stays` says."""
    session = play.get_session(t, session_number, to_score=True)
    table = play.session_table(session, table_number, lock=True)  # one writer per table at a time
    if session.status != SessionStatus.IN_PLAY:
        raise ConflictError(msg("Session %(number)s is %(status)s: substitutions are recorded while it is in play (before it "
                                "starts, swap seats on the draws page).", number=session.number,
                                status=status_word(session.status)))
    if table.mode == TableMode.TOTALS:
        raise ConflictError(msg("Table %(table_number)s is scored by its four totals: enter it hand by "
                                "hand to record a substitution.", table_number=table_number))
    if not is_int(from_hand) or not 1 <= from_hand <= HANDS_PER_SESSION:
        raise ServiceError(msg("The substitute plays from a hand 1 to %(hands_per_session)s.", hands_per_session=HANDS_PER_SESSION), field="from_hand")
    try:
        reason = SubstitutionReason(reason)
    except ValueError:
        raise ServiceError(msg("The reason is one of %(reasons)s.", reasons=", ".join(SubstitutionReason)), field="reason") from None
    if reason == SubstitutionReason.LATE and from_hand != 1:
        # MERS 4.1.1: "the current round will commence only then when the substitute has taken his place". A
        # late substitute from a later hand would split the seat's score between two players.
        raise ServiceError(msg("A late player's substitute plays the whole session, from hand 1 (MERS 4.1.1), not "
                               "from hand %(from_hand)s: a player who leaves during the session is ill, left or "
                               "disqualified.", from_hand=from_hand), field="from_hand")
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise ServiceError(msg("The note is a text of at most %(max_note)s characters.", max_note=MAX_NOTE), field="note")
    if problem := control_refusal(note.strip(), msg("the note")):
        raise ServiceError(problem, field="note")
    outgoing = _player(t, out_player_id, "out_player_id")
    incoming = _player(t, in_player_id, "in_player_id")
    if outgoing.id == incoming.id:
        raise ServiceError(msg("A player cannot substitute for themselves."), field="in_player_id")

    subs = play.substitutions_at(session, table_number)
    at_hand = play.players_at_hand(session, table_number, from_hand, subs)
    if outgoing.id not in {p.player_id for p in at_hand}:
        raise ConflictError(msg("%(name)s does not sit at table %(table_number)s at hand "
                                "%(from_hand)s.", name=outgoing.full_name, table_number=table_number, from_hand=from_hand),
                            field="out_player_id")
    elsewhere = _seated_in_session(session, incoming.id)
    if elsewhere is not None:
        raise ConflictError(msg("%(name)s already plays in session %(number)s (table %(elsewhere)s).", name=incoming.full_name, number=session.number, elsewhere=elsewhere),
                            field="in_player_id")
    if incoming.status in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED):
        raise ConflictError(msg("%(name)s is %(status)s: reinstate them first.", name=incoming.full_name,
                                status=status_word(incoming.status)), field="in_player_id")
    later = sorted(db.session.scalars(select(Hand.number).where(
        Hand.session_id == session.id, Hand.table_number == table_number, Hand.number >= from_hand)))
    if later:
        raise ConflictError(msg_n("Hand %(hands)s at table %(table)s is already entered with %(name)s seated: delete it first, "
                                  "record the substitution, then enter again.",
                                  "Hands %(hands)s at table %(table)s are already entered with %(name)s seated: delete "
                                  "them first, record the substitution, then enter again.", len(later),
                                  hands=", ".join(map(str, later)), table=table_number, name=outgoing.full_name), field="from_hand")
    if any(s.from_hand >= from_hand for s in subs):
        raise ConflictError(msg("Table %(table)s has a substitution from hand %(hand)s: record substitutions in the order they "
                                "happened.", table=table_number, hand=max(s.from_hand for s in subs)), field="from_hand")

    with changes():
        sub = Substitution(session_id=session.id, table_number=table_number, out_player_id=outgoing.id,
                           in_player_id=incoming.id, from_hand=from_hand, reason=reason, note=note.strip(),
                           created_by_id=user.id if user else None)
        db.session.add(sub)
        db.session.flush()
        record_score_change(session.id, table_number, from_hand, ScoreAction.SUBSTITUTION, user, before=None,
                            after={"substitution": {"out_player_id": outgoing.id, "in_player_id": incoming.id,
                                                    "from_hand": from_hand, "reason": str(reason)}})
        if incoming.status == PlayerStatus.REGISTERED:
            reg.check_in(incoming)
        leaves = LEAVES_THE_TOURNAMENT.get(reason)
        if stays is True and reason in (SubstitutionReason.LEFT, SubstitutionReason.ILL):
            leaves = None
        if leaves is not None and outgoing.status != leaves:
            reg.set_status(outgoing, leaves, f"{reason.capitalize()} in session {session.number}, hand {from_hand}"
                           + (f": {note.strip()}" if note.strip() else ""))
    return sub


def substitutions_of(t: Tournament, session_number: int) -> list[Substitution]:
    session = play.get_session(t, session_number)
    return list(db.session.scalars(select(Substitution).where(Substitution.session_id == session.id)
                                   .order_by(Substitution.table_number, Substitution.from_hand, Substitution.id)))


def get_substitution(t: Tournament, session_number: int, substitution_id: Any) -> Substitution:
    found = next((s for s in substitutions_of(t, session_number) if s.id == substitution_id), None)
    if found is None:
        raise NotFound(msg("No such substitution in this session."))
    return found


# ----------------------------------------------------------------------------- what the pages show


def by_session(sessions: list[TournamentSession]) -> dict[int, list[Substitution]]:
    """Every substitution of these sessions (by session id) with both players, in one query: the seating
    pages show who came in where, and from which hand."""
    out: dict[int, list[Substitution]] = {s.id: [] for s in sessions}
    if not sessions:
        return out
    found = db.session.scalars(
        select(Substitution).where(Substitution.session_id.in_(list(out)))
        .options(joinedload(Substitution.in_player), joinedload(Substitution.out_player))
        .order_by(Substitution.table_number, Substitution.from_hand, Substitution.id))
    for sub in found:
        out[sub.session_id].append(sub)
    return out


@dataclass(frozen=True)
class ScheduleLine:
    """A session of a player's schedule as the pages show it: the drawn seat, or the seat a substitute took
    (`came_in_for`, from `from_hand`); `left_from`: the hand from which a substitute took the player's seat."""

    session: int
    table: int
    wind: str
    opponents: tuple[str, ...]
    came_in_for: str = ""
    from_hand: int | None = None
    left_from: int | None = None
    previous_table: int | None = None  # the table published before a change of the field moved the player


def schedule_lines(t: Tournament, player_id: int) -> list[ScheduleLine]:
    """The player's schedule (`draws.player_schedule`) with the substitutions of every published session: the
    sessions they left during play say from which hand, and those they came into as a substitute are added."""
    from tournament.services.seating import draws as draw_service

    sessions = [s for s in draw_service.drawn_sessions(t) if s.is_published]
    subs = by_session(sessions)
    numbers = {s.id: s.number for s in sessions}
    lines = {e.session: ScheduleLine(e.session, e.table, e.wind, e.opponents, previous_table=e.previous_table)
             for e in draw_service.player_schedule(t, player_id)}
    for session_id, listed in subs.items():
        number = numbers[session_id]
        for sub in listed:
            if sub.out_player_id == player_id and number in lines:
                lines[number] = replace(lines[number], left_from=sub.from_hand)
            elif sub.in_player_id == player_id:
                seats = play.table_players(next(s for s in sessions if s.id == session_id), sub.table_number)
                wind = next(sp.start_wind for sp in seats if sp.player_id == sub.out_player_id)
                others = tuple(sp.player.full_name for sp in seats if sp.player_id != sub.out_player_id)
                lines[number] = ScheduleLine(number, sub.table_number, wind, others,
                                             came_in_for=sub.out_player.full_name, from_hand=sub.from_hand)
    return [lines[n] for n in sorted(lines)]


# ----------------------------------------------------------------------------- a late arrival (MERS 2.2, 4.1.1)

LATE_PENALTY_MINUTES = ((10, 10), (15, 20))  # MERS 2.2: late up to 10 minutes, 10 points; up to 15, 20 points
SUBSTITUTE_AFTER = 15                        # after 15 minutes a substitute takes the seat for the session
MAX_LATE_MINUTES = 600


def late_penalty(minutes: int) -> int:
    """MERS 2.2's penalty for a player `minutes` late: 10 points up to 10 minutes, 20 after (up to 15 minutes the
    player still plays; later a substitute plays the session, and the 20 points stay the late player's)."""
    return next((points for limit, points in LATE_PENALTY_MINUTES if minutes <= limit), LATE_PENALTY_MINUTES[-1][1])


@dataclass(frozen=True)
class LateArrival:
    penalty: Penalty
    substitution: Substitution | None


def late_arrival(t: Tournament, session_number: Any, *, player_id: Any, minutes: Any, user: User | None,
                 in_player_id: Any = None, note: Any = "") -> LateArrival:
    """One action for a late player (MERS 2.2 and 4.1.1): the penalty of 10 or 20 points (foul "Late arrival"
    when the tournament lists it) and, when a substitute is named (required after 15 minutes), that substitute
    in the late player's seat for the whole session, from hand 1. Both or neither: one transaction."""
    if not is_int(minutes) or not 1 <= minutes <= MAX_LATE_MINUTES:
        raise ServiceError(msg("Say how many minutes late: 1 to %(max)s.", max=MAX_LATE_MINUTES), field="minutes")
    if in_player_id is None and minutes > SUBSTITUTE_AFTER:
        raise ServiceError(msg("After %(minutes)s minutes a substitute takes the seat for the session (MERS 2.2): "
                               "choose the substitute.", minutes=SUBSTITUTE_AFTER), field="in_player_id")
    if not isinstance(note, str) or len(note) > MAX_NOTE:
        raise ServiceError(msg("The note is a text of at most %(max_note)s characters.", max_note=MAX_NOTE), field="note")
    if problem := control_refusal(note.strip(), msg("the note")):
        raise ServiceError(problem, field="note")
    if not is_int(session_number):
        raise ServiceError(msg("Give the session number."), field="session")
    session = play.get_session(t, session_number)
    late = _player(t, player_id, "player_id")
    table = next((seat.table_number for seat in session.seats if seat.player_id == late.id), None)
    if table is None:
        raise ServiceError(msg("%(name)s does not play in session %(number)s.", name=late.full_name,
                               number=session.number), field="player_id")
    sub = None
    if in_player_id is not None:
        sub = substitute(t, session.number, table, out_player_id=late.id, in_player_id=in_player_id, from_hand=1,
                         reason=SubstitutionReason.LATE, user=user, note=note)
    foul = "Late arrival" if "Late arrival" in t.foul_type_list else ""
    reason = f"{minutes} min late (MERS 2.2)" + (f": {note.strip()}" if note.strip() else "")
    penalty = penalties.give_penalty(t, player_id=late.id, session_number=session.number,
                                     amount=late_penalty(minutes), reason=reason, user=user, foul=foul)
    return LateArrival(penalty, sub)
