"""How the standings moved: the ranking as it stood after each session, and one player's record.

"After session k" means the sessions counted now (in play or finished) numbered k or less, with
every result entered so far: the ranking of the sessions <= k, decided by the one ranking
function (`ranking.rank_players`) from the same facts `standings.standings` reads. The last
entry of a history is therefore exactly today's standings.

Queries: `progress` reads the facts once (six queries) and ranks once per session whose inputs
changed since it was last ranked in this process (`standings.cache.ranked`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from sqlalchemy import or_, select

from tournament.constants import is_id
from tournament.extensions import db
from tournament.messages import msg
from tournament.models import (
    FalseMahjong,
    Hand,
    HandResult,
    Player,
    Seat,
    SessionStatus,
    Tournament,
    TournamentSession,
)
from tournament.services.core.errors import NotFound
from tournament.services.results.ranking import PointsText, RankedRow, RankText, split_table_points
from tournament.services.results.standings import WIND_ORDER, TableFacts, cache, facts
from tournament.services.results.standings import (  # the live pages' ETags and the standings cache share it
    change_marker as change_marker,
)
from tournament.services.results.standings import seating_marker as seating_marker


@dataclass(frozen=True)
class RankAfter(RankText, PointsText):
    """A player's place in the standings as they stood after one session."""

    session: int
    rank: int
    shared: bool
    table_points: Fraction
    score: int
    field_size: int              # ranked players at that point


@dataclass(frozen=True)
class Progress:
    tournament_id: int
    session_numbers: tuple[int, ...]
    after: dict[int, list[RankedRow]]          # session number -> the standings after it, best first
    tables: dict[tuple[int, int], TableFacts] = field(repr=False)  # (session, table) -> seats and results
    penalties: dict[tuple[int, int], int] = field(repr=False)  # (session, player) -> active penalty points

    def history(self, player_id: int) -> list[RankAfter]:
        """The player's rank after each counted session (empty for an unranked player)."""
        out = []
        for number in self.session_numbers:
            rows = self.after[number]
            row = next((r for r in rows if r.player_id == player_id), None)
            if row is not None:
                out.append(RankAfter(session=number, rank=row.rank, shared=row.shared,
                                     table_points=row.table_points, score=row.score, field_size=len(rows)))
        return out

    @property
    def final(self) -> list[RankedRow]:
        return self.after[self.session_numbers[-1]] if self.session_numbers else []


def progress(t: Tournament) -> Progress:
    """The standings after every counted session: what the rank charts draw."""
    with facts.no_gc_pauses():
        known = facts.read(t)
        numbers, players = known.numbers, known.players
        results = known.table_results(t.penalties_affect_table_points)
        after: dict[int, list[RankedRow]] = {}
        for index, k in enumerate(numbers):
            upto = [r for r in results if r.session <= k]
            played = {player_id for r in upto for player_id in r.scores}
            after[k] = cache.ranked(cache.RankingInputs(
                entrants=[facts.entrant(p, played) for p in players], tables=upto,
                table_points=t.table_points_list, tie_breaks=t.tie_break_list,
                penalties=known.penalty_totals(upto=k), session_numbers=numbers[:index + 1],
            ))
    return Progress(tournament_id=t.id, session_numbers=numbers, after=after, tables=known.tables,
                    penalties=known.penalties)


def standings_after(t: Tournament, session_number: int) -> list[RankedRow]:
    """The ranked rows as they stood after `session_number` (a counted session), best first."""
    result = progress(t)
    if session_number not in result.after:
        raise NotFound(msg("Session %(session_number)s has no results yet.", session_number=session_number))
    return result.after[session_number]


# ----------------------------------------------------------------------------- one player's record


@dataclass(frozen=True)
class Opponent:
    player_id: int
    name: str
    wind: str


@dataclass(frozen=True)
class WinningHand:
    session: int
    table: int
    hand: int
    points: int                  # fan points, flowers excluded
    flowers: int
    self_drawn: bool
    fans: tuple[tuple[str, int, int], ...]   # (name, points, count)
    tiles: str


@dataclass(frozen=True)
class SessionLine(PointsText):
    """One session of a player's record; results are None until the session is in play."""

    session: int
    status: str
    table: int
    wind: str
    opponents: tuple[Opponent, ...]  # in seat order
    counted: bool                    # the table has an entered result
    place: int | None
    table_points: Fraction | None
    score: int | None
    penalty: int
    hands_won: int
    self_draws: int
    deal_ins: int
    false_mahjongs: int
    fan_points: int                  # sum of the fan points of the hands won
    rank_after: RankAfter | None


@dataclass(frozen=True)
class PlayerRecord:
    player_id: int
    name: str
    country: str
    club: str
    team: str
    is_substitute: bool
    status: str
    row: RankedRow | None            # today's standings row; None when not ranked
    field_size: int
    sessions: list[SessionLine]      # published sessions the player is seated in
    history: list[RankAfter]
    hands: list[WinningHand]         # best first

    @property
    def totals(self) -> dict[str, int]:
        keys = ("hands_won", "self_draws", "deal_ins", "false_mahjongs", "fan_points", "penalty")
        return {key: sum(getattr(line, key) for line in self.sessions) for key in keys}


def player_record(t: Tournament, player_id: int, progress_result: Progress | None = None) -> PlayerRecord:
    """Everything the public page of a player shows. `progress_result` may be passed in (cached)."""
    player = db.session.get(Player, player_id) if is_id(player_id) else None
    if player is None or player.tournament_id != t.id:
        raise NotFound(msg("No such player in this tournament."))
    result = progress_result or progress(t)

    # The published sessions the player sits in, and everyone at those tables: two queries.
    mine = db.session.execute(
        select(TournamentSession.id, TournamentSession.number, TournamentSession.status, Seat.table_number,
               Seat.seat_wind)
        .join(Seat, Seat.session_id == TournamentSession.id)
        .where(TournamentSession.tournament_id == t.id, Seat.player_id == player_id,
               TournamentSession.status != SessionStatus.DRAFT.value)
        .order_by(TournamentSession.number)
    ).all()
    tablemates: dict[tuple[int, int], list[Opponent]] = defaultdict(list)
    if mine:
        wanted = or_(*[(Seat.session_id == sid) & (Seat.table_number == table) for sid, _, _, table, _ in mine])
        for sid, table, wind, pid, first, last in db.session.execute(
            select(Seat.session_id, Seat.table_number, Seat.seat_wind, Player.id, Player.first_name,
                   Player.last_name)
            .join(Player, Player.id == Seat.player_id).where(wanted)
        ):
            if pid != player_id:
                tablemates[(sid, table)].append(Opponent(player_id=pid, name=f"{first} {last}", wind=wind))

    # The hands the player won or dealt into, and their false mahjongs: two queries.
    session_ids = [sid for sid, *_ in mine]
    number_of = {sid: number for sid, number, *_ in mine}
    hands: list[WinningHand] = []
    per_session: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    if session_ids:
        for (sid, table, number, winner, discarder, fan_points, flowers, fans, tiles) in db.session.execute(
            select(Hand.session_id, Hand.table_number, Hand.number, Hand.winner_id, Hand.discarder_id,
                   Hand.fan_points, Hand.flowers, Hand.fans, Hand.tiles)
            .where(Hand.session_id.in_(session_ids), Hand.result == HandResult.WIN.value,
                   or_(Hand.winner_id == player_id, Hand.discarder_id == player_id))
        ):
            counts = per_session[number_of[sid]]
            if winner == player_id:
                counts["hands_won"] += 1
                counts["fan_points"] += fan_points
                counts["self_draws"] += discarder is None
                hands.append(WinningHand(
                    session=number_of[sid], table=table, hand=number, points=fan_points, flowers=flowers,
                    self_drawn=discarder is None,
                    fans=tuple((f.get("name", "?"), int(f.get("points", 0)), int(f.get("count", 1)))
                               for f in (fans or [])),
                    tiles=tiles or ""))
            else:
                counts["deal_ins"] += 1
        for (sid,) in db.session.execute(
            select(Hand.session_id).join(FalseMahjong, FalseMahjong.hand_id == Hand.id)
            .where(Hand.session_id.in_(session_ids), FalseMahjong.player_id == player_id)
        ):
            per_session[number_of[sid]]["false_mahjongs"] += 1
    hands.sort(key=lambda h: (-h.points, h.session, h.table, h.hand))

    history = result.history(player_id)
    rank_by_session = {r.session: r for r in history}
    row = next((r for r in result.final if r.player_id == player_id), None)
    lines = []
    for sid, number, status, table, wind in mine:
        table_facts = result.tables.get((number, table))
        counted = bool(table_facts and table_facts.counted)
        penalty = result.penalties.get((number, player_id), 0)
        score = placing = None
        if table_facts is not None and player_id in table_facts.seats:
            scores = table_facts.session_scores(facts.penalties_at(result.penalties, number))
            score = scores[player_id]
            # As on the session results: places and table points from the four session scores.
            placing = split_table_points(scores, t.table_points_list).get(player_id) if counted else None
        counts = per_session[number]
        lines.append(SessionLine(
            session=number, status=str(status), table=table, wind=wind,
            opponents=tuple(sorted(tablemates[(sid, table)], key=lambda o: WIND_ORDER.get(o.wind, 9))),
            counted=counted,
            place=placing.place if placing else None,
            table_points=placing.table_points if placing else None,
            score=score, penalty=penalty,
            hands_won=counts["hands_won"], self_draws=counts["self_draws"], deal_ins=counts["deal_ins"],
            false_mahjongs=counts["false_mahjongs"], fan_points=counts["fan_points"],
            rank_after=rank_by_session.get(number),
        ))
    return PlayerRecord(
        player_id=player.id, name=player.full_name, country=player.country or "", club=player.club or "",
        team=(player.team or "").strip(), is_substitute=player.is_substitute, status=str(player.status),
        row=row, field_size=len(result.final), sessions=lines, history=history, hands=hands,
    )



# ----------------------------------------------------------------------------- what changed
