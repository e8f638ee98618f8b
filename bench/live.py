"""Live pages figures: ``python bench/live.py [--players 1000] [--sessions 10] [--runs 5]``.

Builds the same tournament as bench/standings.py (every table of every session played hand by hand),
then prints the median time and query count of: the change marker (what a 304 costs), the rank
history of every session (`progress`), one player's record, the statistics, and whole responses
through the app (a 304, the player page, the statistics page, the projector's standings JSON) with
the per-process caches cold and warm.
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

from sqlalchemy import event, select  # noqa: E402

from bench._tournament import built, options  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.models import Seat, Tournament, TournamentSession  # noqa: E402
from tournament.services.results import progress  # noqa: E402
from tournament.services.results import statistics as stats_service  # noqa: E402
from tournament.services.results.standings import cache  # noqa: E402
from tournament.web.live import cache as live_cache  # noqa: E402


def measure(label: str, action, runs: int) -> None:
    queries = 0

    def count(*_):
        nonlocal queries
        queries += 1

    times = []
    for run in range(runs):
        db.session.expire_all()
        if run == 0:
            event.listen(db.engine, "before_cursor_execute", count)
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
        if run == 0:
            event.remove(db.engine, "before_cursor_execute", count)
    print(f"{label:<44} {statistics.median(times) * 1000:8.1f} ms median  {queries:3d} queries")


def main() -> None:
    args = options(__doc__, runs=5)
    with built(args) as (app, folder, tid):
        player = db.session.scalar(select(Seat.player_id).join(TournamentSession)
                                   .where(TournamentSession.tournament_id == tid).limit(1))
        def tournament() -> Tournament:
            return db.session.get(Tournament, tid)

        measure("change marker (the query behind a 304)", lambda: progress.change_marker(tid), args.runs)
        def progress_cold():
            cache.rankings.clear()
            progress.progress(tournament())

        def progress_in_play():
            # What a hand entered in the last session costs: only the last ranking is recomputed.
            for key in [k for k in cache.rankings if len(k.session_numbers) == args.sessions]:
                del cache.rankings[key]
            progress.progress(tournament())

        measure(f"progress: ranks after each of {args.sessions} sessions", progress_cold, args.runs)
        measure("progress after a hand in the last session", progress_in_play, args.runs)
        measure("player record (rankings already cached)", lambda: progress.player_record(tournament(), player),
                args.runs)
        measure("statistics", lambda: stats_service.statistics(tournament()), args.runs)
        db.session.commit()

        client = app.test_client()
        pages = {
            "player page": f"/t/{tid}/players/{player}",
            "statistics page": f"/t/{tid}/statistics",
            "standings.json": f"/t/{tid}/live/standings.json",
        }
        for label, page_url in pages.items():
            def cold(page_url=page_url):
                live_cache.clear()  # the pages and the rankings, not the standings
                cache.rankings.clear()
                assert client.get(page_url).status_code == 200

            def warm(page_url=page_url):
                assert client.get(page_url).status_code == 200

            measure(f"GET {label}, cold", cold, args.runs)
            measure(f"GET {label}, cached", warm, args.runs)
        etag = client.get(pages["player page"]).headers["ETag"]
        measure("GET player page, If-None-Match -> 304",
                lambda: client.get(pages["player page"], headers={"If-None-Match": etag}).status_code == 304,
                args.runs)


if __name__ == "__main__":
    main()
