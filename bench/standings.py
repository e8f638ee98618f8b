"""Standings figures: ``python bench/standings.py [--players 1000] [--sessions 10] [--runs 5]``.

Builds a tournament in a database (a fresh SQLite file by default, or the DATABASE_URL database:
the schema comes from the migrations, the bench tournament is removed at the end), with every table
of every session played hand by hand: 16 hands a table, wins (self-drawn or on a discard) whose
payments sum to zero, draws, a few false mahjongs, some penalties (a few cancelled) and a few
totals-only tables. Rows are inserted in bulk. Then prints the time to compute the standings
(median of --runs, target < 200 ms), the number of SQL queries, and the time to build the standings
PDF (target < 3 s).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from flask_migrate import upgrade  # noqa: E402
from sqlalchemy import delete, event, insert, select, text  # noqa: E402

from tournament import create_app  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.models import (  # noqa: E402
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
from tournament.models._common import utcnow  # noqa: E402
from tournament.pdf.standings import build_standings_pdf  # noqa: E402
from tournament.services import standings as standings_service  # noqa: E402
from tournament.services.standings import standings  # noqa: E402

HANDS = 16
TARGET_STANDINGS_MS = 200
TARGET_PDF_S = 3.0
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="mcr-bench-")
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/bench.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EXPORT_DIR": folder})
    with app.app_context():
        print(f"database: {db.engine.dialect.name}")
        upgrade()
        started = time.perf_counter()
        t = build(args.players, args.sessions, args.seed)
        print(f"build time: {time.perf_counter() - started:.1f} s")
        try:
            queries = 0

            def count(*_):
                nonlocal queries
                queries += 1

            times, cpu_times = [], []
            result = None
            for run in range(args.runs):
                db.session.expire_all()  # a fresh page: nothing cached in the session
                t = db.session.get(Tournament, t.id)
                if run == 0:
                    event.listen(db.engine, "before_cursor_execute", count)
                standings_service._caches.clear()  # measure the computation, not the cache
                started, cpu_started = time.perf_counter(), time.process_time()
                result = standings(t)
                times.append(time.perf_counter() - started)
                cpu_times.append(time.process_time() - cpu_started)
                if run == 0:
                    event.remove(db.engine, "before_cursor_execute", count)
            assert result is not None
            # What most page views cost: nothing changed since the last computation, one query.
            warm = []
            for _ in range(args.runs):
                started = time.perf_counter()
                standings(t)
                warm.append(time.perf_counter() - started)
            print(f"standings, unchanged facts (cached, one version query): median "
                  f"{statistics.median(warm) * 1000:.1f} ms")
            median_ms = statistics.median(times) * 1000
            print(f"standings: median {median_ms:.0f} ms over {args.runs} runs "
                  f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}), {queries} SQL queries, "
                  f"{len(result.rows)} rows, {len(result.team_rows)} teams; "
                  f"CPU in this process (SQLite included, a PostgreSQL server's not): "
                  f"median {statistics.median(cpu_times) * 1000:.0f} ms "
                  f"[target < {TARGET_STANDINGS_MS} ms: {'met' if median_ms < TARGET_STANDINGS_MS else 'MISSED'}]")
            pdf_times = []
            for _ in range(3):
                started = time.perf_counter()
                pdf = build_standings_pdf(t.name, f"Standings after session {args.sessions}", result.rows,
                                          result.session_numbers, result.generated_at)
                pdf_times.append(time.perf_counter() - started)
            pdf_s = statistics.median(pdf_times)
            print(f"load average while measuring: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
                  f"on {os.cpu_count()} CPUs")
            print(f"standings PDF: median {pdf_s:.2f} s over 3 builds, {len(pdf) // 1024} KiB "
                  f"[target < {TARGET_PDF_S:.0f} s: {'met' if pdf_s < TARGET_PDF_S else 'MISSED'}]")
        finally:
            remove(t)


if __name__ == "__main__":
    main()
