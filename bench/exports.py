"""Printing figures: ``python bench/exports.py [--players 1000] [--sessions 10] [--runs 3]``.

Builds the same tournament as bench/standings.py (bench/_tournament.py: every table of every session played
hand by hand, a fresh SQLite file by default or the DATABASE_URL database; removed at the end), then
prints the wall and CPU time to build, from the database (the verdicts are on CPU time: the machine may
be shared):
- the standings PDF (standings computed once, PDF built --runs times; target < 3 s),
- the score sheets of one session (a page per table; target < 3 s) and of every session,
- the seating PDF of one session and the schedule cards of every player,
- the EMA results file and its check.
"""

from __future__ import annotations

import io
import os
import pathlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from pypdf import PdfReader  # noqa: E402

from bench._tournament import built, options  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.models import Tournament  # noqa: E402
from tournament.pdf.standings import build_standings_pdf  # noqa: E402
from tournament.services.documents import (
    ema,  # noqa: E402
    exports,
)
from tournament.services.results.standings import standings  # noqa: E402

TARGET_S = 3.0


def timed(label: str, build: Callable[[], list[bytes]], runs: int, target: float | None = None) -> None:
    """Build `runs` times; print the median time, the pages and the size of what one run produced."""
    times: list[float] = []
    cpu: list[float] = []
    files: list[bytes] = []
    for _ in range(runs):
        db.session.expire_all()  # every run reads the database afresh
        started, cpu_started = time.perf_counter(), time.process_time()
        files = build()
        times.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started)
    pages = sum(len(PdfReader(io.BytesIO(data)).pages) for data in files)
    size = sum(len(data) for data in files)
    median, cpu_median = statistics.median(times), statistics.median(cpu)
    # The machine may be shared: the verdict is on this process's CPU time, the wall time is printed too.
    verdict = f" [target < {target:.0f} s CPU: {'met' if cpu_median < target else 'MISSED'}]" if target else ""
    print(f"{label}: median {median:.2f} s over {runs} run{'s' if runs > 1 else ''} "
          f"(min {min(times):.2f}, max {max(times):.2f}; CPU {cpu_median:.2f} s), {pages} pages, "
          f"{size // 1024} KiB{verdict}")


def main() -> None:
    args = options(__doc__, runs=3)
    with built(args) as (app, folder, tid):
        def tournament() -> Tournament:
            return db.session.get(Tournament, tid)

        def standings_pdf() -> list[bytes]:
            result = standings(tournament())
            return [build_standings_pdf(tournament().name, f"Standings after session {args.sessions}", result.rows,
                                        result.session_numbers, result.generated_at)]

        timed("standings PDF (standings computed + PDF)", standings_pdf, args.runs, TARGET_S)
        timed("score sheets, session 1 (a page per table)",
              lambda: [exports.score_sheets_pdf(tournament(), 1).data], args.runs, TARGET_S)
        timed(f"score sheets, all {args.sessions} sessions (one PDF per session)",
              lambda: [exports.score_sheets_pdf(tournament(), n).data for n in range(1, args.sessions + 1)], 1)
        timed("seating PDF, session 1 (by table and by name)",
              lambda: [exports.seating_pdf(tournament(), 1).data], args.runs)
        timed("schedule cards (a card per player)", lambda: [exports.schedule_cards_pdf(tournament()).data], 1)
        for label, work in (("EMA results file", lambda: ema.ema_csv(ema.ema_rows(tournament()))),
                            ("EMA check", lambda: ema.check(tournament()))):
            db.session.expire_all()
            started, cpu_started = time.perf_counter(), time.process_time()
            result = work()
            print(f"{label}: {time.perf_counter() - started:.2f} s (CPU {time.process_time() - cpu_started:.2f} s), "
                  f"{len(result.splitlines()) if isinstance(result, str) else len(result)} "
                  f"{'lines' if isinstance(result, str) else 'problems'}")
        print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    sys.exit(main())
