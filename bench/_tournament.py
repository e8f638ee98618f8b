"""The bench tournament that bench/standings.py, bench/exports.py and bench/live.py measure: `build` fills
the database with every table of every session played hand by hand (bulk inserts), `remove` deletes it;
`options` and `built` are the command line and the setup the three share.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import delete, insert, select, text

from tournament import create_app
from tournament.extensions import db
from tournament.models import (
    SEAT_WINDS,
    Hand,
    HandPayment,
    Penalty,
    Player,
    Seat,
    SessionTable,
    TableTotal,
    Tournament,
    TournamentSession,
)
from tournament.models._common import utcnow

HANDS = 16
FIRST = ["Aino", "Zoë", "Łukasz", "Søren", "Émilie", "Jonas", "Mei", "Hiroshi", "Camille", "Dmitri"]
LAST = ["Virtanen", "Dvořák", "Nowak", "Ærø", "Müller", "王", "Tanaka", "Rossi", "García", "Öberg"]


def _ids(table, rows: list[dict]) -> list[int]:
    """Bulk insert returning the new ids in the order of the rows."""
    result = db.session.execute(insert(table).returning(table.c.id, sort_by_parameter_order=True), rows)
    return [row[0] for row in result]


def win_payments(rng: random.Random, seats: list[int]) -> dict[int, int]:
    winner = rng.choice(seats)
    base = 8 + rng.choice([0, 0, 1, 2, 4, 6, 8, 16, 24]) + rng.randint(0, 3)  # fans + flowers
    if rng.random() < 0.3:
        return {p: 3 * (8 + base) if p == winner else -(8 + base) for p in seats}
    discarder = rng.choice([p for p in seats if p != winner])
    return {p: 3 * 8 + base if p == winner else -(8 + base) if p == discarder else -8 for p in seats}


def build(players: int, sessions: int, seed: int) -> Tournament:
    rng = random.Random(seed)
    t = Tournament(name=f"Bench {players} x {sessions}", session_count=sessions, tie_breaks="firsts,best_session")
    db.session.add(t)
    db.session.flush()
    player_ids = _ids(Player.__table__, [
        dict(tournament_id=t.id, first_name=f"{FIRST[i % 10]}{i}", last_name=LAST[(i // 10) % 10], country="FI",
             team=f"Team {i % 50}", is_substitute=False, status="present", notes="", club="",
             created_at=utcnow(), version=1)
        for i in range(players)
    ])
    hands_total = payments_total = 0
    for number in range(1, sessions + 1):
        session_id = _ids(TournamentSession.__table__, [
            dict(tournament_id=t.id, number=number, status="finished", method="draw", seed=seed,
                 drawn_at=utcnow(), version=1)
        ])[0]
        order = player_ids[:]
        rng.shuffle(order)
        tables = [order[i:i + 4] for i in range(0, players - players % 4, 4)]
        db.session.execute(insert(Seat.__table__), [
            dict(session_id=session_id, table_number=k, seat_wind=wind, player_id=pid)
            for k, table in enumerate(tables, start=1) for wind, pid in zip(SEAT_WINDS, table, strict=True)
        ])
        hand_rows, hand_payments, totals_tables = [], [], []
        for k, table in enumerate(tables, start=1):
            if rng.random() < 0.02:  # a paper score sheet only
                totals_tables.append((k, table))
                continue
            for hand in range(1, HANDS + 1):
                payments: dict[int, int] = {}
                if rng.random() < 0.1:
                    result, winner, discarder = "draw", None, None
                else:
                    payments = win_payments(rng, table)
                    result = "win"
                    winner = max(payments, key=payments.get)
                    losers = [p for p in table if payments[p] < -8]
                    discarder = losers[0] if len(losers) == 1 else None
                if rng.random() < 0.01:  # a false mahjong: 10 to each of the others
                    claimant = rng.choice(table)
                    for p in table:
                        payments[p] = payments.get(p, 0) + (-30 if p == claimant else 10)
                hand_rows.append(dict(session_id=session_id, table_number=k, number=hand, result=result,
                                      winner_id=winner, discarder_id=discarder, tiles="", flowers=0,
                                      last_tile=False, wall_last=False, kong=False, fans=[], fan_points=8,
                                      entered_at=utcnow(), updated_at=utcnow(), version=1))
                hand_payments.append(payments)
        hand_ids = _ids(Hand.__table__, hand_rows)
        payment_rows = [dict(hand_id=hid, player_id=pid, delta=delta)
                        for hid, payments in zip(hand_ids, hand_payments, strict=True)
                        for pid, delta in payments.items()]
        db.session.execute(insert(HandPayment.__table__), payment_rows)
        hands_total += len(hand_ids)
        payments_total += len(payment_rows)
        for k, table in totals_tables:
            table_id = _ids(SessionTable.__table__, [dict(session_id=session_id, table_number=k, mode="totals",
                                                          version=1)])[0]
            scores = [rng.randint(-150, 150) for _ in range(3)]
            db.session.execute(insert(TableTotal.__table__), [
                dict(table_id=table_id, player_id=pid, score=score)
                for pid, score in zip(table, [*scores, -sum(scores)], strict=True)
            ])
        penalised = rng.sample(player_ids, max(1, players // 100))
        db.session.execute(insert(Penalty.__table__), [
            dict(tournament_id=t.id, session_id=session_id, player_id=pid, amount=rng.choice([5, 10, 30]),
                 reason="bench", given_at=utcnow(), cancel_reason="", version=1,
                 cancelled_at=utcnow() if i % 4 == 0 else None)
            for i, pid in enumerate(penalised)
        ])
    db.session.commit()
    db.session.execute(text("ANALYZE"))  # fresh planner statistics, as autovacuum would gather after a day's play
    db.session.commit()
    print(f"built: {players} players, {sessions} sessions, {hands_total} hands, {payments_total} payments")
    return t


def remove(t: Tournament) -> None:
    """Delete the bench tournament child tables first (payments restrict deleting players)."""
    sessions = select(TournamentSession.id).where(TournamentSession.tournament_id == t.id)
    hands = select(Hand.id).where(Hand.session_id.in_(sessions))
    tables = select(SessionTable.id).where(SessionTable.session_id.in_(sessions))
    for statement in (
        delete(HandPayment).where(HandPayment.hand_id.in_(hands)),
        delete(Hand).where(Hand.session_id.in_(sessions)),
        delete(TableTotal).where(TableTotal.table_id.in_(tables)),
        delete(SessionTable).where(SessionTable.session_id.in_(sessions)),
        delete(Penalty).where(Penalty.tournament_id == t.id),
        delete(Seat).where(Seat.session_id.in_(sessions)),
        delete(TournamentSession).where(TournamentSession.tournament_id == t.id),
        delete(Player).where(Player.tournament_id == t.id),
        delete(Tournament).where(Tournament.id == t.id),
    ):
        db.session.execute(statement)
    db.session.commit()


def options(doc: str, runs: int) -> argparse.Namespace:
    """The benches' command line: the tournament's size, the runs per figure and the seed."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--runs", type=int, default=runs)
    parser.add_argument("--seed", type=int, default=2026)
    return parser.parse_args()


@contextmanager
def built(args: argparse.Namespace) -> Iterator[tuple[Flask, str, int]]:
    """Inside an app context on DATABASE_URL (or a fresh SQLite file), migrated, with the bench tournament
    built: yields (app, a scratch folder that is also the export folder, the tournament's id). The tournament
    is removed at the end."""
    folder = tempfile.mkdtemp(prefix="mcr-bench-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/bench.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EXPORT_DIR": folder})
    with app.app_context():
        print(f"database: {db.engine.dialect.name}")
        upgrade()
        started = time.perf_counter()
        tid = build(args.players, args.sessions, args.seed).id
        print(f"build time: {time.perf_counter() - started:.1f} s")
        try:
            yield app, folder, tid
        finally:
            remove(db.session.get(Tournament, tid))
