"""Statistics and awards of a tournament, from the hands, false mahjongs and penalties entered.

Five queries whatever the size of the tournament (sessions, players, winning hands, false mahjongs,
penalties); everything else is counted here. Only sessions in play or finished count, as for the
standings. Hand points are fan points without flowers: what the engine scored the hand.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import FalseMahjong, Hand, HandResult, Penalty, Player, Tournament, TournamentSession
from tournament.models._common import utcnow
from tournament.services.results.standings.facts import COUNTED_STATUSES, plain_rows

TOP_HANDS = 10


@dataclass(frozen=True)
class HandStat:
    """A winning hand as the awards show it."""

    session: int
    table: int
    hand: int
    player_id: int
    name: str
    points: int
    flowers: int
    self_drawn: bool
    discarder: str                       # "" when self-drawn
    fans: tuple[tuple[str, int, int], ...]   # (name, points, count), as the engine listed them
    tiles: str


@dataclass(frozen=True)
class FanCount:
    name: str
    points: int
    hands: int        # winning hands that scored the fan
    times: int        # including repeats inside a hand (two Pungs of Terminals or Honors count twice)


@dataclass(frozen=True)
class PlayerStat:
    player_id: int
    name: str
    country: str
    wins: int
    self_draws: int
    deal_ins: int
    false_mahjongs: int
    penalties: int          # active penalties given
    penalty_points: int
    best_hand: int          # fan points of the best hand won; 0 when none


@dataclass(frozen=True)
class Statistics:
    tournament_id: int
    session_numbers: tuple[int, ...]
    hands: int                           # hands entered: wins, draws and unscored
    wins: int
    self_draws: int
    draws: int                           # wall exhausted (and hands stopped by time)
    false_mahjongs: int
    penalties: int
    penalty_points: int
    top_hands: list[HandStat]            # best first
    best_of_session: dict[int, HandStat]  # session -> its best hand (the first entered among equals)
    fans: list[FanCount]                 # most often scored first
    players: list[PlayerStat]            # everyone who played, by name
    generated_at: datetime



def statistics(t: Tournament) -> Statistics:
    """The awards and counts of the sessions in play or finished, in five queries."""
    sessions = dict(db.session.execute(
        select(TournamentSession.id, TournamentSession.number)
        .where(TournamentSession.tournament_id == t.id, TournamentSession.status.in_(COUNTED_STATUSES))
    ).all())
    names = {pid: (f"{first} {last}", f"{last}, {first}", country or "") for pid, first, last, country in plain_rows(
        select(Player.id, Player.first_name, Player.last_name, Player.country).where(Player.tournament_id == t.id)
    )}
    session_ids = list(sessions)
    counted = Hand.session_id.in_(session_ids)

    # Every hand: wins carry their fans; the others are only counted.
    hand_rows = plain_rows(
        select(Hand.id, Hand.session_id, Hand.table_number, Hand.number, Hand.result, Hand.winner_id,
               Hand.discarder_id, Hand.fan_points, Hand.flowers, Hand.fans, Hand.tiles)
        .where(counted).order_by(Hand.id)
    ) if session_ids else []
    false_rows = plain_rows(
        select(FalseMahjong.player_id, func.count(FalseMahjong.id))
        .join(Hand, Hand.id == FalseMahjong.hand_id).where(counted).group_by(FalseMahjong.player_id)
    ) if session_ids else []
    penalty_rows = plain_rows(
        select(Penalty.player_id, func.count(Penalty.id), func.sum(Penalty.amount))
        .where(Penalty.tournament_id == t.id, Penalty.session_id.in_(session_ids), Penalty.cancelled_at.is_(None))
        .group_by(Penalty.player_id)
    ) if session_ids else []

    def name(pid: int | None) -> str:
        return names[pid][0] if pid in names else ""

    wins: Counter[int] = Counter()
    self_draws: Counter[int] = Counter()
    deal_ins: Counter[int] = Counter()
    best: dict[int, int] = defaultdict(int)
    played: set[int] = set()
    fan_hands: Counter[str] = Counter()
    fan_times: Counter[str] = Counter()
    fan_points: dict[str, int] = {}
    won: list[HandStat] = []
    draws = 0
    for (_, sid, table, number, result, winner, discarder, points, flowers, fans, tiles) in hand_rows:
        if result != HandResult.WIN or winner is None:
            draws += 1
            continue
        fans = fans or []
        stat = HandStat(
            session=sessions[sid], table=table, hand=number, player_id=winner, name=name(winner),
            points=points, flowers=flowers, self_drawn=discarder is None, discarder=name(discarder),
            fans=tuple((str(f.get("name", "?")), int(f.get("points", 0)), int(f.get("count", 1))) for f in fans),
            tiles=tiles or "",
        )
        won.append(stat)
        wins[winner] += 1
        played.add(winner)
        best[winner] = max(best[winner], points)
        if discarder is None:
            self_draws[winner] += 1
        else:
            deal_ins[discarder] += 1
            played.add(discarder)
        for fan_name, fan_value, count in stat.fans:
            fan_hands[fan_name] += 1
            fan_times[fan_name] += count
            fan_points[fan_name] = fan_value

    false_by_player = {pid: int(n) for pid, n in false_rows}
    penalties_by_player = {pid: (int(n), int(total or 0)) for pid, n, total in penalty_rows}
    everyone = played | set(false_by_player) | set(penalties_by_player)

    # Best first; among equal points the first entered (won is in entry order and sorting is stable).
    ranked_hands = sorted(won, key=lambda h: -h.points)
    best_of_session: dict[int, HandStat] = {}
    for stat in ranked_hands:
        best_of_session.setdefault(stat.session, stat)

    players = [
        PlayerStat(player_id=pid, name=name(pid), country=names.get(pid, ("", "", ""))[2],
                   wins=wins[pid], self_draws=self_draws[pid], deal_ins=deal_ins[pid],
                   false_mahjongs=false_by_player.get(pid, 0),
                   penalties=penalties_by_player.get(pid, (0, 0))[0],
                   penalty_points=penalties_by_player.get(pid, (0, 0))[1],
                   best_hand=best.get(pid, 0))
        for pid in everyone if pid in names
    ]
    players.sort(key=lambda p: names[p.player_id][1].casefold())
    fan_list = [FanCount(name=fan, points=fan_points[fan], hands=count, times=fan_times[fan])
                for fan, count in fan_hands.items()]
    fan_list.sort(key=lambda f: (-f.hands, -f.points, f.name))
    return Statistics(
        tournament_id=t.id, session_numbers=tuple(sorted(sessions.values())),
        hands=len(hand_rows), wins=len(won), self_draws=sum(self_draws.values()), draws=draws,
        false_mahjongs=sum(false_by_player.values()),
        penalties=sum(n for n, _ in penalties_by_player.values()),
        penalty_points=sum(total for _, total in penalties_by_player.values()),
        top_hands=ranked_hands[:TOP_HANDS], best_of_session=dict(sorted(best_of_session.items())),
        fans=fan_list, players=players, generated_at=utcnow(),
    )
