"""The standings and one session's results, computed from the facts (`facts`): nothing is stored that could
drift. `tournament.services.results.ranking` alone decides table points and the order.

Counted sessions are those in play or finished; draft and published ones have no results yet.
A table counts for table points once it has an entered result: a hand (hand-by-hand tables) or a
total (totals-only tables). Active penalties are deducted from the offender's session score.

Many screens ask for the same standings between two hands, so the result is cached (`cache`), keyed by
`change_marker`: the one place that says when the facts behind the standings have changed. When only
hands, totals or penalties changed, the facts of the last computation are brought up to date by reading
the changed tables again (the score changes say which), not the whole tournament; anything else, or any
doubt, reads everything afresh.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from sqlalchemy import func, select

from tournament.draws.model import WIND_ORDER
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import Hand, Player, PlayerStatus, Tournament, TournamentSession
from tournament.models._common import utcnow
from tournament.services.core.errors import NotFound
from tournament.services.results.ranking import (
    Placing,
    PointsText,
    RankedRow,
    TeamRow,
    rank_players,
    rank_teams,
    split_table_points,
)
from tournament.services.results.standings import cache, facts
from tournament.services.results.standings.marker import change_marker


@dataclass(frozen=True)
class Standings:
    tournament_id: int
    rows: list[RankedRow]            # ranked players, best first
    team_rows: list[TeamRow]         # teams, best first (empty when nobody has a team)
    session_numbers: tuple[int, ...]  # the sessions counted (in play or finished)
    generated_at: datetime           # naive UTC, like every timestamp of the project
    table_points: tuple[int, ...]
    tie_breaks: tuple[str, ...]
    # What the pages and the API derive from these standings (a rendered JSON body, say), kept with them in
    # the cache so that every poll between two hands does not render the same rows again.
    derived: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def player_ids(self) -> list[int]:
        """Ranked player ids best first: what the Swiss draw takes as `ranking`."""
        return [row.player_id for row in self.rows]


@dataclass(frozen=True)
class PlayerResult(PointsText):
    """One player at one table of a session."""

    player_id: int
    name: str
    seat_wind: str | None            # None for a player with results but no seat (should not happen)
    is_substitute: bool
    table_score: int                 # sum of hand payments, or the sheet's total
    penalty: int                     # active penalty points deducted
    score: int                       # table_score - penalty: the session score
    place: int | None                # None while the table has no result
    table_points: Fraction


@dataclass(frozen=True)
class TableResults:
    table: int
    mode: str                        # "hands" or "totals"
    counted: bool                    # has an entered result
    hands: int                       # hands entered (hand-by-hand tables)
    players: list[PlayerResult]      # in seat order E, S, W, N

    @property
    def balance(self) -> int:
        """Sum of the table scores before penalties: 0 when the payments are consistent."""
        return sum(p.table_score for p in self.players)


@dataclass(frozen=True)
class SessionResults:
    number: int
    status: str
    tables: list[TableResults]
    generated_at: datetime


# ----------------------------------------------------------------------------- standings


def standings(t: Tournament) -> Standings:
    """The tournament's individual and team standings, computed from the recorded facts.

    One query when nothing changed since the last computation. After hands, totals or penalties only,
    the facts of the last computation are brought up to date (`facts.updated`): a handful of queries
    that read the changed tables alone. Otherwise six queries whatever the size of the tournament
    (sessions, players, seats, summed payments, tables and totals, summed penalties).
    """
    marker = change_marker(t.id)
    key = (t.id, *(marker or ()))
    hit, last = cache.standings_lookup(key)
    if hit is not None:
        return hit
    with facts.no_gc_pauses():
        current = (facts.updated(last, marker) if last is not None and marker is not None else None) \
            or facts.read(t, marker)
        result = compute(t, current)
    cache.standings_keep(key, result, current)
    return result


def compute(t: Tournament, known: facts.TournamentFacts) -> Standings:
    """The standings of these facts (no cache)."""
    results = known.table_results(t.penalties_affect_table_points)
    played = {player_id for r in results for player_id in r.scores}  # seated in a session in play
    if not known.numbers:  # before play: the players expected, every one at 0
        played = {p.id for p in known.players if p.status in (PlayerStatus.REGISTERED, PlayerStatus.PRESENT)}
    rows = rank_players(
        [facts.entrant(p, played) for p in known.players], results,
        table_points=t.table_points_list, tie_breaks=t.tie_break_list,
        penalties=known.penalty_totals(), session_numbers=known.numbers,
    )
    return Standings(
        tournament_id=t.id, rows=rows, team_rows=rank_teams(rows), session_numbers=known.numbers,
        generated_at=utcnow(), table_points=tuple(t.table_points_list), tie_breaks=tuple(t.tie_break_list),
    )


# ----------------------------------------------------------------------------- one session


def session_results(t: Tournament, number: int) -> SessionResults:
    """Per-table results of one drawn session: players in seat order, scores, penalties, table points.

    Works for any drawn session; one that is not in play yet simply has no counted table. Pages
    decide whether a draft session may be shown.
    """
    session = db.session.execute(
        select(TournamentSession.id, TournamentSession.status)
        .where(TournamentSession.tournament_id == t.id, TournamentSession.number == number)
    ).first()
    if session is None:
        raise NotFound(msg("Session %(number)s has not been drawn yet.", number=number))
    session_id, status = session
    session_key = {session_id: number}

    tables = facts.load_tables(session_key)
    penalties = facts.penalties_at(facts.load_penalties(session_key), number)
    hand_counts = dict(db.session.execute(
        select(Hand.table_number, func.count(Hand.id)).where(Hand.session_id == session_id)
        .group_by(Hand.table_number)
    ).all())
    player_ids = {player_id for table in tables.values() for player_id in table.table_scores()}
    people = {
        p.id: p for p in db.session.scalars(select(Player).where(Player.tournament_id == t.id,
                                                                 Player.id.in_(player_ids)))
    } if player_ids else {}

    out = []
    for (_, table_number), table in sorted(tables.items()):
        raw = table.table_scores()
        scores = table.session_scores(penalties)
        placed_by = table.placed(scores if t.penalties_affect_table_points else raw)
        placings: dict[int, Placing] = (
            split_table_points(placed_by, t.table_points_list) if table.counted else {}
        )
        players = []
        for player_id in sorted(raw, key=lambda pid: (WIND_ORDER.get(table.seats.get(pid, ""), 9), pid)):
            person = people.get(player_id)
            placing = placings.get(player_id)
            players.append(PlayerResult(
                player_id=player_id,
                name=person.full_name if person else f"#{player_id}",
                seat_wind=table.seats.get(player_id),
                is_substitute=bool(person and person.is_substitute),
                table_score=raw[player_id],
                penalty=penalties.get(player_id, 0),
                score=scores[player_id],
                place=placing.place if placing else None,
                table_points=placing.table_points if placing else Fraction(0),
            ))
        out.append(TableResults(table=table_number, mode=table.mode, counted=table.counted,
                                hands=int(hand_counts.get(table_number, 0)), players=players))
    return SessionResults(number=number, status=str(status), tables=out, generated_at=utcnow())
