"""The ranking: table points per session and the order of the standings. Pure: no database, no Flask.

Rules (docs/rules/README.md, "Table points and the ranking"): at each table the four session scores give table points
4-2-1-0 (the tournament's list); tied players share the points of the places they span, exactly
(two tied first: 3 each; all four tied: 1.75 each). Players are ordered by total table points,
then total score, then the tournament's tie-breaks in its order; players equal on all of these
share the rank (1, 2, 2, 4). Substitutes sit at tables (their scores decide places) but are never
ranked. A player not seated in a session gets 0 table points and 0 score for it.

`ranking_key` is the one function that decides the order; everything else builds on it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import groupby
from operator import itemgetter
from typing import NamedTuple, TypeVar

from tournament.constants import DEFAULT_TABLE_POINTS
from tournament.text import fold, format_points  # format_points: one home, pure (pdf/ uses it)

# ----------------------------------------------------------------------------- display


def points_number(points: Fraction | int) -> int | float:
    """Table points for JSON: an integer when whole, else a number exact to two decimals."""
    text = format_points(points)
    return float(text) if "." in text else int(text)


# ----------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Entrant:
    """A registered player as the ranking sees them."""

    player_id: int
    name: str                # as displayed: "Zoë Łukasz"
    sort_name: str           # "Łukasz, Zoë": the order inside a shared rank
    country: str = ""
    team: str = ""
    ranked: bool = True      # substitutes and players who never sat at a table are not ranked
    # MERS 4.4: a disqualified player keeps their place in the results with 0 table points for the whole
    # tournament (their score stands); see docs/rules/event-day.md.
    disqualified: bool = False


@dataclass(frozen=True)
class TableResult:
    """One table of one session: each seated player's session score, penalties already deducted.

    `counted` is False while the table has no entered result (no hand, no totals): its players then
    get no table points for it yet, only their score (penalties).
    """

    session: int
    table: int
    scores: Mapping[int, int]
    counted: bool = True
    # The scores that decide the places, when they are not `scores`: a tournament whose penalties do not
    # move table points places its tables by the scores before penalties.
    placing_scores: Mapping[int, int] | None = None


# ----------------------------------------------------------------------------- outputs


class RankText:
    """`rank_label` of a row with a rank: '2=' for a shared rank, as printed on results lists."""

    rank: int
    shared: bool  # another row has the same rank

    @property
    def rank_label(self) -> str:
        return f"{self.rank}=" if self.shared else str(self.rank)


class PointsText:
    """`table_points_text` of a row with table points: as shown everywhere (3, 1.75, 2.33), empty for none."""

    table_points: Fraction | None

    @property
    def table_points_text(self) -> str:
        return format_points(self.table_points) if self.table_points is not None else ""


@dataclass(frozen=True)
class Placing:
    """A player's result at one table: place 1..4 (tied players share the best of their places)."""

    place: int
    table_points: Fraction


class SessionCell(NamedTuple):
    """One session of a player's breakdown. `table` is None when the player was not seated.

    A named tuple rather than a dataclass: a standings has one per player and session (10,000 for
    1,000 players over 10 sessions) and tuples are much cheaper to build.
    """

    session: int
    table: int | None
    place: int | None          # None when not seated or the table has no result yet
    table_points: Fraction
    score: int

    @property
    def played(self) -> bool:
        return self.table is not None


@dataclass(frozen=True)
class RankedRow(RankText, PointsText):
    rank: int
    shared: bool               # another player has the same rank
    player_id: int
    name: str
    sort_name: str
    country: str
    team: str
    table_points: Fraction
    score: int
    firsts: int
    seconds: int
    best_session: int          # best score of a session played; 0 when none
    penalties: int             # active penalty points
    sessions: tuple[SessionCell, ...]
    disqualified: bool = False  # MERS 4.4: kept in the results with 0 table points

    def cell(self, session: int) -> SessionCell | None:
        return next((c for c in self.sessions if c.session == session), None)


@dataclass(frozen=True)
class TeamRow(RankText, PointsText):
    rank: int
    shared: bool
    team: str
    members: tuple[str, ...]   # names, in ranking order
    table_points: Fraction
    score: int


# ----------------------------------------------------------------------------- table points


def split_table_points(scores: Mapping[int, int],
                       table_points: Sequence[int] = DEFAULT_TABLE_POINTS) -> dict[int, Placing]:
    """Place and table points of each player at one table, ties sharing exactly.

    Tied players span consecutive places and share the sum of those places' points equally;
    each gets the best place of the span (two tied first are both first).
    """
    unit = _unit(len(scores))
    return {player_id: Placing(place, _fraction(units, unit))
            for player_id, (place, units) in _split_units(scores, table_points, unit).items()}


def _unit(table_size: int) -> int:
    """A denominator every share divides: shares are sums over 1..table_size tied players."""
    return math.lcm(*range(1, max(table_size, 1) + 1))


def _split_units(scores: Mapping[int, int], table_points: Sequence[int], unit: int) -> dict[int, tuple[int, int]]:
    """(place, table points in 1/unit) per player: integers, so that totals add up fast and exactly."""
    ordered = sorted(scores.items(), key=itemgetter(1), reverse=True)
    count = len(ordered)
    points = table_points if len(table_points) >= count else [*table_points, *[0] * (count - len(table_points))]
    if len(set(scores.values())) == count:  # no tie, the usual case
        return {player_id: (place, points[place - 1] * unit)
                for place, (player_id, _) in enumerate(ordered, start=1)}
    result: dict[int, tuple[int, int]] = {}
    start = 0
    while start < count:  # each run of equal scores spans places start+1 .. end
        end = start + 1
        while end < count and ordered[end][1] == ordered[start][1]:
            end += 1
        share = sum(points[start:end]) * unit // (end - start)  # exact: the run's length divides unit
        for player_id, _ in ordered[start:end]:
            result[player_id] = (start + 1, share)
        start = end
    return result


_FRACTIONS: dict[tuple[int, int], Fraction] = {}


def _fraction(units: int, unit: int) -> Fraction:
    """Fraction(units, unit), built once per value: a standings has few distinct ones."""
    value = _FRACTIONS.get((units, unit))
    if value is None:
        value = _FRACTIONS.setdefault((units, unit), Fraction(units, unit))
    return value


# Table points are multiples of 1/lcm(1..table size): times this they are whole for tables of up to ten players,
# and whole numbers compare and add many times faster than fractions (a standings sorts and sums hundreds).
_SCALE = 2520


def _scaled(points: Fraction | int) -> int | Fraction:
    """`points` x 2520, exactly: an int for every table of up to ten players, else a fraction."""
    numerator, denominator = points.numerator, points.denominator
    if _SCALE % denominator:
        return Fraction(numerator * _SCALE, denominator)
    return numerator * (_SCALE // denominator)


def _unscaled(scaled: int | Fraction) -> Fraction:
    return _fraction(scaled, _SCALE) if isinstance(scaled, int) else scaled / _SCALE


# ----------------------------------------------------------------------------- order


def _by_name(row: RankedRow) -> tuple[str, str, int]:
    return (fold(row.sort_name), row.sort_name, row.player_id)


TIE_BREAK_VALUES: dict[str, Callable[[RankedRow], int]] = {
    # Larger is better everywhere: fewest penalties is compared on the negated count.
    "firsts": lambda row: row.firsts,
    "seconds": lambda row: row.seconds,
    "best_session": lambda row: row.best_session,
    "fewest_penalties": lambda row: -row.penalties,
}


def ranking_key(row: RankedRow, tie_breaks: Sequence[str] = ()) -> tuple:
    """THE order of the standings, as a key where larger is better.

    Total table points, total score, then the tournament's tie-breaks in its order. Two players
    with equal keys share their rank. Unknown tie-break names are refused, not ignored.
    """
    try:
        extra = tuple(TIE_BREAK_VALUES[name](row) for name in tie_breaks)
    except KeyError as exc:
        raise ValueError(f"Unknown tie-break {exc.args[0]!r}; known: {', '.join(TIE_BREAK_VALUES)}") from exc
    return (_scaled(row.table_points), row.score, *extra)


R = TypeVar("R", "RankedRow", "TeamRow")


def _assign_ranks(items: list[R], key: Callable[[R], tuple], name: Callable[[R], tuple]) -> list[R]:
    """Sort best first by `key` (ties by `name`), give equal keys the same rank (1, 2, 2, 4)."""
    keyed = sorted(((key(item), name(item), item) for item in items), key=lambda k: k[1])
    keyed.sort(key=lambda k: k[0], reverse=True)  # stable: names stay in order within equal keys
    out: list[R] = []
    position = 0
    for _, group_iter in groupby(keyed, key=lambda k: k[0]):
        group = [item for _, _, item in group_iter]
        for item in group:
            # The rows are built here, unranked, and ranked before anyone sees them: setting the two
            # fields in place avoids re-creating a thousand frozen rows.
            object.__setattr__(item, "rank", position + 1)
            object.__setattr__(item, "shared", len(group) > 1)
            out.append(item)
        position += len(group)
    return out


def rank_players(entrants: Iterable[Entrant], tables: Iterable[TableResult], *,
                 table_points: Sequence[int] = DEFAULT_TABLE_POINTS,
                 tie_breaks: Sequence[str] = (),
                 penalties: Mapping[int, int] | None = None,
                 session_numbers: Sequence[int] | None = None) -> list[RankedRow]:
    """The individual standings, best first, with a cell per session for every ranked player.

    `penalties`: active penalty points per player (for the `fewest_penalties` tie-break; they are
    already deducted from the table scores). `session_numbers`: the sessions to show (default:
    those with a table result).
    """
    penalties = penalties or {}
    tables = list(tables)
    sessions = sorted(set(session_numbers) if session_numbers is not None else {t.session for t in tables})
    unit = _unit(max((len(t.scores) for t in tables), default=4))
    zero = Fraction(0)
    # per player: {session: (cell, table points in 1/unit)}
    cells: dict[int, dict[int, tuple[SessionCell, int]]] = {}
    for table in tables:
        placed_by = table.scores if table.placing_scores is None else table.placing_scores
        placings = _split_units(placed_by, table_points, unit) if table.counted else {}
        for player_id, score in table.scores.items():
            place, units = placings.get(player_id, (None, 0))
            cell = SessionCell(session=table.session, table=table.table, place=place,
                               table_points=_fraction(units, unit) if place else zero, score=score)
            cells.setdefault(player_id, {})[table.session] = (cell, units)

    missed = {s: (SessionCell(session=s, table=None, place=None, table_points=zero, score=0), 0) for s in sessions}
    rows = []
    for e in entrants:
        if not e.ranked:
            continue
        mine = cells.get(e.player_id, {})
        pairs = [mine.get(s) or missed[s] for s in sessions]
        if e.disqualified:
            pairs = [(cell._replace(table_points=zero), 0) for cell, _ in pairs]
        row_cells = tuple(cell for cell, _ in pairs)
        places = [cell.place for cell in row_cells]
        rows.append(RankedRow(
            rank=0, shared=False, player_id=e.player_id, name=e.name, sort_name=e.sort_name,
            country=e.country, team=e.team,
            table_points=_fraction(sum(units for _, units in pairs), unit),
            score=sum(cell.score for cell in row_cells),
            firsts=places.count(1),
            seconds=places.count(2),
            best_session=max((cell.score for cell in row_cells if cell.table is not None), default=0),
            penalties=penalties.get(e.player_id, 0),
            sessions=row_cells,
            disqualified=e.disqualified,
        ))
    tie_breaks = tuple(tie_breaks)
    return _assign_ranks(rows, key=lambda r: ranking_key(r, tie_breaks), name=_by_name)


def rank_teams(rows: Iterable[RankedRow]) -> list[TeamRow]:
    """Teams by the sum of their ranked members' table points, then score; ties share the rank."""
    members: dict[str, list[RankedRow]] = {}
    names: dict[str, str] = {}
    for row in rows:
        team = row.team.strip()
        if not team:
            continue
        key = team.casefold()
        names.setdefault(key, team)
        members.setdefault(key, []).append(row)
    teams = [
        TeamRow(rank=0, shared=False, team=names[key],
                members=tuple(r.name for r in sorted(group, key=lambda r: (r.rank, _by_name(r)))),
                table_points=_unscaled(sum(_scaled(r.table_points) for r in group)),
                score=sum(r.score for r in group))
        for key, group in members.items()
    ]
    return _assign_ranks(teams, key=lambda t: (_scaled(t.table_points), t.score), name=lambda t: (fold(t.team), t.team))
