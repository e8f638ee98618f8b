"""The EMA results file and the check that comes before sending it.

The file lists the ranked players in standings order (`standings(t)`: the one ranking), one CSV line each:
Place (the rank; shared ranks repeat), first and last name, EMA number, table points (as `points_number`
gives them: 3, 2.5, 2.33), score, and the ISO 3166-1 alpha-2 country code.

Only players who sat at a table are ranked and listed: a no-show is not (the check names them); a disqualified
player is, with 0 table points (MERS 4.4).

The check lists what would make the file wrong or incomplete: ranked players with a missing or malformed
EMA number (8 digits) or one shared with another player, or without a country, substitutes who played (drawn,
or come in during a session: never ranked, so not in the file), the host country when it is not set, sessions
not played or still in play, and the tables that are unfinished or do not sum to zero (by the rules of
`scoring.session_problems`, the check run when a session is closed).

Who played (`who_played`): everyone who sat at a table of a session in play or finished for at least one hand,
drawn there or come in as a substitute (`Substitution`: the outgoing player plays the hands before `from_hand`,
the incoming one those from then on; a late player replaced from hand 1 played none of that session).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.messages import msg
from tournament.models import (
    HANDS_PER_SESSION,
    ClockEvent,
    ClockEventKind,
    Hand,
    HandDispute,
    HandPayment,
    Player,
    PlayerStatus,
    Seat,
    SessionStatus,
    SessionTable,
    Substitution,
    TableMode,
    TableTotal,
    Tournament,
    TournamentSession,
)
from tournament.models.clock import TIME_CALL_KINDS
from tournament.services.core.csvfile import csv_text
from tournament.services.play.clock import TimeCall
from tournament.services.results.ranking import points_number
from tournament.services.results.standings import standings

HEADER = ("Place", "First Name", "Last Name", "EMA number", "Table points", "Score", "Country")
EMA_NUMBER = re.compile(r"^[0-9]{8}$")
PLAYED = (SessionStatus.IN_PLAY, SessionStatus.FINISHED)


@dataclass(frozen=True)
class EmaRow:
    place: int
    first_name: str
    last_name: str
    ema_number: str
    table_points: int | float
    score: int
    country: str
    player_id: int = 0  # who the row is (not written in the files)

    def cells(self) -> list[str | int | float]:
        """Place, points and score as numbers (written unquoted, a negative score too), the rest as text."""
        return [self.place, self.first_name, self.last_name, self.ema_number, self.table_points, self.score,
                self.country]


@dataclass(frozen=True)
class Problem:
    message: str
    player_id: int | None = None
    table: int | None = None
    session: int | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"message": self.message}
        for key in ("player_id", "table", "session"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out


def _players(t: Tournament) -> dict[int, Player]:
    return {p.id: p for p in db.session.scalars(select(Player).where(Player.tournament_id == t.id))}


def ema_rows(t: Tournament) -> list[EmaRow]:
    """The ranked players in standings order, as the EMA file lists them. A player stripped from the EMA
    result (MERS 4.3) is left out, and those ranked below move up one place for each."""
    people = _players(t)
    rows = []
    stripped = []  # the ranks of those left out, for the places of those below
    for row in standings(t).rows:
        person = people[row.player_id]
        if person.left_out_of_ema:
            stripped.append(row.rank)
            continue
        rows.append(EmaRow(
            place=row.rank - sum(1 for rank in stripped if rank < row.rank), first_name=person.first_name.strip(), last_name=person.last_name.strip(),
            ema_number=(person.ema_number or "").strip(), table_points=points_number(row.table_points),
            score=row.score, country=(person.country or "").strip().upper(), player_id=person.id,
        ))
    return rows


def ema_csv(rows: list[EmaRow]) -> str:
    """The file's text: the header line, then one line per row, through the app's one CSV writer (a name
    like `=1+1` is written as text, not run as a formula)."""
    return csv_text(HEADER, (row.cells() for row in rows))


def _number_problems(ranked_ids: list[int], people: dict[int, Player]) -> list[Problem]:
    problems = []
    holders: dict[str, list[Player]] = defaultdict(list)
    for player_id in ranked_ids:
        person = people[player_id]
        number = (person.ema_number or "").strip()
        if not number:
            problems.append(Problem(msg("%(name)s has no EMA number.", name=person.full_name), player_id=player_id))
        elif not EMA_NUMBER.match(number):
            problems.append(Problem(msg("%(name)s's EMA number %(number)r is not 8 digits.", name=person.full_name, number=number),
                                    player_id=player_id))
        else:
            holders[number].append(person)
    for number, sharing in holders.items():
        if len(sharing) > 1:
            names = ", ".join(p.full_name for p in sharing)
            for person in sharing:
                problems.append(Problem(msg("EMA number %(number)s is given to %(count)s players:"
                                            " %(names)s.", number=number, count=len(sharing), names=names),
                                        player_id=person.id))
    return problems


@dataclass(frozen=True)
class Played:
    """Who played at least one hand, and where: (session number, table, first hand) per player, in order."""

    where: dict[int, list[tuple[int, int, int]]]

    @property
    def ids(self) -> set[int]:
        return set(self.where)


def who_played(t: Tournament) -> Played:
    """Everyone who played at least one hand of a session in play or finished (see the module's docstring):
    two queries, the seats and the substitutions."""
    sessions = dict(db.session.execute(select(TournamentSession.id, TournamentSession.number).where(
        TournamentSession.tournament_id == t.id, TournamentSession.status.in_(PLAYED))).all())
    if not sessions:
        return Played({})
    # (session id, table) -> {player id: first hand}, and the hand from which each player left
    first: dict[tuple[int, int], dict[int, int]] = defaultdict(dict)
    left: dict[tuple[int, int, int], int] = {}
    for session_id, table, player_id in db.session.execute(
            select(Seat.session_id, Seat.table_number, Seat.player_id).where(Seat.session_id.in_(list(sessions)))):
        first[(session_id, table)][player_id] = 1
    for session_id, table, out_id, in_id, from_hand in db.session.execute(
            select(Substitution.session_id, Substitution.table_number, Substitution.out_player_id,
                   Substitution.in_player_id, Substitution.from_hand)
            .where(Substitution.session_id.in_(list(sessions))).order_by(Substitution.from_hand, Substitution.id)):
        left[(session_id, table, out_id)] = from_hand
        first[(session_id, table)][in_id] = from_hand
    where: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for (session_id, table), players in first.items():
        for player_id, hand in players.items():
            if left.get((session_id, table, player_id), HANDS_PER_SESSION + 1) > hand:  # played a hand before leaving
                where[player_id].append((sessions[session_id], table, hand))
    return Played({player_id: sorted(places) for player_id, places in where.items()})


def check(t: Tournament) -> list[Problem]:
    """Everything to fix (or knowingly accept) before the file goes to the EMA; empty when all is well."""
    people = _players(t)
    result = standings(t)
    problems = _number_problems([row.player_id for row in result.rows], people)
    if not t.country:
        problems.append(Problem(msg("The host country is not set: give it in the tournament's settings (EMA "
                                    "writes it in 3 letters, e.g. NED). The EMA file does not guess it.")))
    for row in result.rows:
        person = people[row.player_id]
        if not (person.country or "").strip() and not person.left_out_of_ema:
            problems.append(Problem(msg("%(name)s has no country: EMA's results need one for every player.",
                                        name=person.full_name), player_id=person.id))
    ranked = {row.player_id for row in result.rows}
    for person in sorted(people.values(), key=lambda p: (p.last_name, p.first_name)):
        if person.id not in ranked and not person.is_substitute and person.status in (
                PlayerStatus.REGISTERED, PlayerStatus.PRESENT):
            problems.append(Problem(
                msg("%(name)s played no session: not ranked and left out of the file (a no-show, or "
                    "a player still expected). Withdraw them if they are not coming.", name=person.full_name), player_id=person.id))
        elif person.left_out_of_ema:
            problems.append(Problem(
                msg("%(name)s withdrew and is left out of the EMA results (MERS 4.3); the standings "
                    "keep them.", name=person.full_name), player_id=person.id))
        elif person.status == PlayerStatus.DISQUALIFIED:
            problems.append(Problem(
                msg("%(name)s is disqualified: in the file with 0 table points (MERS 4.4).", name=person.full_name),
                player_id=person.id))

    sessions = {s.number: s for s in db.session.scalars(
        select(TournamentSession).where(TournamentSession.tournament_id == t.id))}
    for number in range(1, max([t.session_count, *sessions]) + 1):
        session = sessions.get(number)
        if session is None or session.status not in PLAYED:
            problems.append(Problem(msg("Session %(number)s has not been played.", number=number), session=number))
        elif session.status == SessionStatus.IN_PLAY:
            problems.append(Problem(msg("Session %(number)s is still in play (not closed).", number=number), session=number))

    played = who_played(t).where
    for number, table, player_id, hand in sorted((number, table, player_id, hand)
                                                 for player_id, places in played.items()
                                                 for number, table, hand in places):
        person = people.get(player_id)
        if person is not None and person.is_substitute:
            if hand == 1:
                message = msg("Substitute %(name)s played at table %(table)s of session %(number)s: "
                              "substitutes are not ranked and are left out of the file.", name=person.full_name,
                              table=table, number=number)
            else:
                message = msg("Substitute %(name)s played at table %(table)s of session %(number)s from hand "
                              "%(hand)s: substitutes are not ranked and are left out of the file.",
                              name=person.full_name, table=table, number=number, hand=hand)
            problems.append(Problem(message, player_id=player_id, table=table, session=number))

    in_play = {s.id: s.number for s in sessions.values() if s.status in PLAYED}
    for number, table, message in table_problems(in_play):
        problems.append(Problem(msg("Session %(number)s, table %(table)s: %(problem)s.", number=number, table=table, problem=message), table=table, session=number))
    return problems


# ----------------------------------------------------------------------------- the tables of many sessions


@dataclass
class _TableFacts:
    mode: str = TableMode.HANDS.value
    totals: dict[int, int] | None = None
    hand_sums: dict[int, int] | None = None       # hand number -> sum of its payments
    time_call: TimeCall | None = None
    uncounted: set[int] | None = None             # hands the standings do not count yet (`Hand.in_standings`)
    disputed: set[int] | None = None              # hands with an open dispute


def table_problems(sessions: dict[int, int]) -> list[tuple[int, int, str]]:
    """(session number, table, message) for every table of these sessions (id -> number) that is not
    complete or does not sum to zero: the rules and words of `scoring.session_problems` (the check run
    when a session is closed), read for all the sessions in six queries instead of a score sheet per
    table (a thousand players over ten sessions are 2,500 tables). tests/services/test_ema.py holds the
    two to the same answers."""
    if not sessions:
        return []
    ids = list(sessions)
    facts: dict[tuple[int, int], _TableFacts] = {}
    for session_id, table in db.session.execute(
        select(Seat.session_id, Seat.table_number).where(Seat.session_id.in_(ids)).distinct()
    ):
        facts[(session_id, table)] = _TableFacts()

    unseated = _TableFacts()  # results recorded at a table nobody sits at: not a table of the session

    def table_of(session_id: int, table: int) -> _TableFacts:
        return facts.get((session_id, table), unseated)

    for session_id, table, mode, player_id, score in db.session.execute(
        select(SessionTable.session_id, SessionTable.table_number, SessionTable.mode, TableTotal.player_id,
               TableTotal.score)
        .outerjoin(TableTotal, TableTotal.table_id == SessionTable.id).where(SessionTable.session_id.in_(ids))
    ):
        row = table_of(session_id, table)
        row.mode = str(mode)
        row.totals = row.totals if row.totals is not None else {}
        if player_id is not None:
            row.totals[player_id] = score
    in_sessions = (Hand.session_id.in_(ids), Hand.number.between(1, HANDS_PER_SESSION))
    for session_id, table, number, counted, total in db.session.execute(
        select(Hand.session_id, Hand.table_number, Hand.number, Hand.counted,
               func.coalesce(func.sum(HandPayment.delta), 0))
        .outerjoin(HandPayment, HandPayment.hand_id == Hand.id).where(*in_sessions)
        .group_by(Hand.id, Hand.session_id, Hand.table_number, Hand.number, Hand.counted)
    ):
        row = table_of(session_id, table)
        row.hand_sums = row.hand_sums if row.hand_sums is not None else {}
        row.hand_sums[number] = int(total)
        if not counted:  # `Hand.in_standings`, read as the column it is
            row.uncounted = (row.uncounted or set()) | {number}
    # The players' entries and disputes (services.play.confirmations): the hands a dispute stays open on.
    for session_id, table, number in db.session.execute(
        select(Hand.session_id, Hand.table_number, Hand.number).distinct()
        .join(HandDispute, HandDispute.hand_id == Hand.id)
        .where(*in_sessions, HandDispute.resolved_at.is_(None))
    ):
        row = table_of(session_id, table)
        row.disputed = (row.disputed or set()) | {number}
    # The standing time call of a table is its latest call or undo (as `clock.time_call` reads it).
    for session_id, table, kind, in_progress, last_hand, at in db.session.execute(
        select(ClockEvent.session_id, ClockEvent.table_number, ClockEvent.kind, ClockEvent.hand_in_progress,
               ClockEvent.last_hand, ClockEvent.at)
        .where(ClockEvent.session_id.in_(ids),
               ClockEvent.kind.in_((*TIME_CALL_KINDS, ClockEventKind.TIME_CALL_UNDONE)))
        .order_by(ClockEvent.at, ClockEvent.id)
    ):
        called = kind in TIME_CALL_KINDS
        table_of(session_id, table).time_call = TimeCall(table, in_progress, last_hand, at) if called else None

    out = []
    for (session_id, table), row in sorted(facts.items(), key=lambda item: (sessions[item[0][0]], item[0][1])):
        number = sessions[session_id]
        hand_sums = row.hand_sums or {}
        if row.mode == TableMode.TOTALS:
            totals = row.totals or {}
            if len(totals) != 4:
                out.append((number, table, msg("totals are incomplete")))
            balance = sum(totals.values())
        else:
            call = row.time_call
            missing = [n for n in range(1, HANDS_PER_SESSION + 1)
                       if n not in hand_sums and not (call is not None and n > call.limit)]
            if not hand_sums and call is None:
                out.append((number, table, msg("nothing entered yet")))
            elif missing:
                out.append((number, table, msg("hands missing: %(hands)s", hands=", ".join(str(n) for n in missing))))
            # The table's score is what the standings count: the hands a players' confirmation still waits for
            # are listed below, not summed.
            balance = sum(total for hand, total in hand_sums.items() if hand not in (row.uncounted or ()))
        if balance != 0:
            out.append((number, table, msg("scores sum to %(total)+d, not zero", total=balance)))
        for hand, total in sorted(hand_sums.items()):
            if total != 0:
                out.append((number, table, msg("hand %(number)s's payments do not sum to zero", number=hand)))
            if hand in (row.disputed or ()):
                out.append((number, table, msg("hand %(number)s is disputed: a referee must correct it or rule "
                                               "that it stands", number=hand)))
            elif hand in (row.uncounted or ()):
                out.append((number, table, msg("hand %(number)s awaits the players' confirmation", number=hand)))
    return out
