"""Staff play page figures: ``python bench/play_page.py [--tables 8,32,125] [--runs 5]``.

For each size, builds the bench tournament (bench/_tournament.py: one session, every table played hand
by hand, a few by totals), puts the session in play, logs an organiser in, and prints the SQL queries and
the median time of the page a referee keeps open during play: GET /manage/tournaments/<id>/play/1 (every
table with its players, hands entered and scores, and the session check). 125 tables are 500 players.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import statistics
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from sqlalchemy import event, update  # noqa: E402

from bench._tournament import built  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.models import Tournament, TournamentSession, TournamentStaff, User  # noqa: E402
from tournament.services.people.users import create_user  # noqa: E402

PASSWORD = "bench-play-page-7"


def measure(client, url: str, runs: int) -> tuple[int, float]:
    """(queries of the first request, median milliseconds over `runs` requests)."""
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
        response = client.get(url)
        times.append(time.perf_counter() - started)
        if run == 0:
            event.remove(db.engine, "before_cursor_execute", count)
        assert response.status_code == 200, response.status_code
    return queries, statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="8,32,125", help="comma-separated table counts")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    figures = []
    for tables in [int(n) for n in args.tables.split(",")]:
        size = argparse.Namespace(players=4 * tables, sessions=1, seed=args.seed)
        with built(size) as (app, _folder, tid):
            db.session.execute(update(TournamentSession).where(TournamentSession.tournament_id == tid)
                               .values(status="in_play"))
            email = f"bench-play-{tid}@example.org"
            user = create_user(email, PASSWORD, "organiser")
            db.session.add(TournamentStaff(tournament_id=tid, user_id=user.id, role="organiser"))
            db.session.commit()
            try:
                client = app.test_client()
                page = client.get("/login").get_data(as_text=True)
                token = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page).group(1)
                answer = client.post("/login", data={"csrf_token": token, "email": email, "password": PASSWORD})
                assert answer.status_code == 302, "login failed"
                queries, ms = measure(client, f"/manage/tournaments/{tid}/play/1", args.runs)
                figures.append((tables, queries, ms))
                print(f"play page, {tables:4d} tables ({4 * tables} players): {queries:5d} queries  "
                      f"{ms:8.1f} ms median")
            finally:
                db.session.rollback()
                db.session.delete(db.session.get(User, user.id))
                db.session.commit()
                assert db.session.get(Tournament, tid) is not None
    print("tables  queries  ms (median)")
    for tables, queries, ms in figures:
        print(f"{tables:6d}  {queries:7d}  {ms:10.1f}")


if __name__ == "__main__":
    main()
