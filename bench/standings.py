"""Standings figures: ``python bench/standings.py [--players 1000] [--sessions 10] [--runs 5]``.

Builds a tournament (bench/_tournament.py) in a database (a fresh SQLite file by default, or the DATABASE_URL database:
the schema comes from the migrations, the bench tournament is removed at the end), with every table
of every session played hand by hand: 16 hands a table, wins (self-drawn or on a discard) whose
payments sum to zero, draws, a few false mahjongs, some penalties (a few cancelled) and a few
totals-only tables. Rows are inserted in bulk. Then prints the time to compute the standings
(median of --runs, target < 200 ms), the number of SQL queries, the time when nothing changed and when a
hand changed one table since the last computation, and the time to build the standings PDF (target < 3 s).
"""

from __future__ import annotations

import os
import pathlib
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from sqlalchemy import delete, event, select  # noqa: E402

from bench._tournament import built, options  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.models import ScoreAction, ScoreChange, Tournament, TournamentSession  # noqa: E402
from tournament.pdf.standings import build_standings_pdf  # noqa: E402
from tournament.services.results import standings as standings_service  # noqa: E402
from tournament.services.results.standings import standings  # noqa: E402

TARGET_STANDINGS_MS = 200
TARGET_PDF_S = 3.0


def main() -> None:
    args = options(__doc__, runs=5)
    with built(args) as (app, folder, tid):
        queries = 0

        def count(*_):
            nonlocal queries
            queries += 1

        times, cpu_times = [], []
        result = None
        for run in range(args.runs):
            db.session.expire_all()  # a fresh page: nothing cached in the session
            t = db.session.get(Tournament, tid)
            if run == 0:
                event.listen(db.engine, "before_cursor_execute", count)
            standings_service.clear_caches()  # measure the computation, not the caches
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
        # What a poll costs during play: a table's hand changed since the last computation, whose facts are then
        # brought up to date (that table read again) rather than read afresh. The change is a score change of
        # the last session's table 1 (its hands are read again: the same rows).
        last_session = db.session.scalar(select(TournamentSession.id).where(TournamentSession.tournament_id == tid)
                                         .order_by(TournamentSession.number.desc()).limit(1))
        after_hand, bench_changes = [], []
        for _ in range(args.runs):
            change = ScoreChange(session_id=last_session, table_number=1, action=ScoreAction.HAND_CORRECTED)
            db.session.add(change)
            db.session.commit()
            bench_changes.append(change.id)
            started = time.perf_counter()
            assert standings(t).rows == result.rows
            after_hand.append(time.perf_counter() - started)
        db.session.execute(delete(ScoreChange).where(ScoreChange.id.in_(bench_changes)))
        db.session.commit()
        print(f"standings after a hand (the changed table read again): median "
              f"{statistics.median(after_hand) * 1000:.1f} ms")
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


if __name__ == "__main__":
    main()
