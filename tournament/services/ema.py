"""The EMA results file and the check that comes before sending it.

The file lists the ranked players in standings order (`standings(t)`: the one ranking), one CSV line each:
Place (the rank; shared ranks repeat), first and last name, EMA number, table points (as `points_number`
gives them: 3, 2.5, 2.33), score, and the ISO 3166-1 alpha-2 country code.

The check lists what would make the file wrong or incomplete: ranked players with a missing or malformed
EMA number (8 digits) or one shared with another player, substitutes who played (never ranked, so not in
the file), sessions not played or still in play, and the tables that are unfinished or do not sum to zero
(as `scoring.session_problems`, the check run when a session is closed, finds them).
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from tournament.extensions import db
from tournament.models import Player, Seat, SessionStatus, Tournament, TournamentSession
from tournament.services import scoring
from tournament.services.ranking import points_number
from tournament.services.standings import standings

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

    def cells(self) -> list[str]:
        return [str(self.place), self.first_name, self.last_name, self.ema_number, str(self.table_points),
                str(self.score), self.country]


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
    """The ranked players in standings order, as the EMA file lists them."""
    people = _players(t)
    rows = []
    for row in standings(t).rows:
        person = people[row.player_id]
        rows.append(EmaRow(
            place=row.rank, first_name=person.first_name.strip(), last_name=person.last_name.strip(),
            ema_number=(person.ema_number or "").strip(), table_points=points_number(row.table_points),
            score=row.score, country=(person.country or "").strip().upper(),
        ))
    return rows


def ema_csv(rows: list[EmaRow]) -> str:
    """The file's text: the header line, then one line per row; CRLF line ends as CSV has them."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(HEADER)
    writer.writerows(row.cells() for row in rows)
    return buffer.getvalue()


def _number_problems(ranked_ids: list[int], people: dict[int, Player]) -> list[Problem]:
    problems = []
    holders: dict[str, list[Player]] = defaultdict(list)
    for player_id in ranked_ids:
        person = people[player_id]
        number = (person.ema_number or "").strip()
        if not number:
            problems.append(Problem(f"{person.full_name} has no EMA number.", player_id=player_id))
        elif not EMA_NUMBER.match(number):
            problems.append(Problem(f"{person.full_name}'s EMA number {number!r} is not 8 digits.",
                                    player_id=player_id))
        else:
            holders[number].append(person)
    for number, sharing in holders.items():
        if len(sharing) > 1:
            names = ", ".join(p.full_name for p in sharing)
            for person in sharing:
                problems.append(Problem(f"EMA number {number} is given to {len(sharing)} players: {names}.",
                                        player_id=person.id))
    return problems


def check(t: Tournament) -> list[Problem]:
    """Everything to fix (or knowingly accept) before the file goes to the EMA; empty when all is well."""
    people = _players(t)
    result = standings(t)
    problems = _number_problems([row.player_id for row in result.rows], people)

    sessions = {s.number: s for s in db.session.scalars(
        select(TournamentSession).where(TournamentSession.tournament_id == t.id))}
    for number in range(1, max([t.session_count, *sessions]) + 1):
        session = sessions.get(number)
        if session is None or session.status not in PLAYED:
            problems.append(Problem(f"Session {number} has not been played.", session=number))
        elif session.status == SessionStatus.IN_PLAY:
            problems.append(Problem(f"Session {number} is still in play (not closed).", session=number))

    played_ids = [s.id for s in sessions.values() if s.status in PLAYED]
    if played_ids:
        seats = db.session.execute(
            select(TournamentSession.number, Seat.table_number, Seat.player_id)
            .join(TournamentSession, TournamentSession.id == Seat.session_id)
            .where(Seat.session_id.in_(played_ids))
            .order_by(TournamentSession.number, Seat.table_number)
        ).all()
        for number, table, player_id in seats:
            person = people.get(player_id)
            if person is not None and person.is_substitute:
                problems.append(Problem(
                    f"Substitute {person.full_name} played at table {table} of session {number}: substitutes "
                    "are not ranked and are left out of the file.", player_id=player_id, table=table,
                    session=number))

    for number in sorted(sessions):
        if sessions[number].status in PLAYED:
            for p in scoring.session_problems(t, number):
                problems.append(Problem(f"Session {number}, table {p.table}: {p.message}.", table=p.table,
                                        session=number))
    return problems
