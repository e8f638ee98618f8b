"""Page weight and time to interactive on venue wifi: ``python bench/page_weight.py [--runs 3]``.

Serves a small tournament in play (8 players, session 1 in play, three hands entered at table 1) through the
shipped nginx site (gzip as deployed; tests/deploy/servers.py renders it for loopback) and opens, each in a
fresh browser context (an empty cache: a first visit) at a phone's width, the table page, the hand form, a
player's page (/p/<token>) and the public standings. For each it prints:

- kB transferred (Chromium's own count of the bytes received, headers included), with gzip through nginx
  and, for comparison, straight from the app without compression;
- the time to interactive (navigation start to DOMContentLoaded's end: the page's scripts are deferred, so all
  have run; the ones fetched after the load event by after-load.js, the offline queue and the hand form's live
  score, are not needed to use the page) and to the load event, median of --runs visits, with the CPU throttled 4x
  (Emulation.setCPUThrottlingRate) and the network at 400 ms / 400 kbit/s (Network.emulateNetworkConditions).

The budget the issue sets: the table page and the hand form under 60 kB and interactive in under 1.5 s.
tests/browser/test_page_weight.py holds the weight budget in the test suite. Needs Debian's chromium and nginx.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import statistics
import sys
import tempfile
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
os.environ.setdefault("INSTANCE_PATH", tempfile.mkdtemp(prefix="mcr-bench-instance-"))

from flask_migrate import upgrade  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from tests.browser.weight import CPU_SLOWDOWN, KBITS_PER_SECOND, LATENCY_MS, first_visit, logged_in_state  # noqa: E402
from tests.deploy.servers import NGINX, nginx  # noqa: E402
from tests.helpers import PASSWORD, add_players, make_tournament, make_user  # noqa: E402
from tournament import create_app  # noqa: E402
from tournament.extensions import db  # noqa: E402
from tournament.services.people import player_links
from tournament.services.play import scoring
from tournament.services.play.scoring import HandData  # noqa: E402
from tournament.services.seating import (
    draws,  # noqa: E402
    lifecycle,
)

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
BUDGET_KB = 60
BUDGET_MS = 1500


def setup() -> dict[str, str]:
    """The tournament; returns the pages to measure by name."""
    upgrade()
    organiser = make_user("bench-weight@example.org", "organiser", "Olivia Organiser")
    t = make_tournament(organiser, name="Page weight bench")
    players = add_players(t, 8)
    draws.draw_next(t, seed=1)
    lifecycle.start_session(t, 1)
    for number in (1, 2, 3):
        scoring.enter_hand(t, 1, 1, HandData(number=number, result="draw"), organiser)
    token = player_links.token_of(player_links.link_of(t, players[0].id))
    db.session.commit()
    table = f"/manage/tournaments/{t.id}/play/1/tables/1"
    return {"table page": table, "hand form": table + "/hands/new", "player's page": f"/p/{token}",
            "public standings": f"/t/{t.id}/standings"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="throttled visits per page (median)")
    args = parser.parse_args()
    if NGINX is None or not os.path.exists(CHROMIUM):
        sys.exit("needs nginx and chromium (Debian packages nginx, chromium)")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="mcr-bench-weight-"))
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/bench.db"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EXPORT_DIR": str(folder)})
    with app.app_context():
        pages = setup()
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    direct = f"http://127.0.0.1:{server.server_port}"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as pw, nginx(server.server_port, folder) as site:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            state = logged_in_state(browser, site, "bench-weight@example.org", PASSWORD)
            plain_state = logged_in_state(browser, direct, "bench-weight@example.org", PASSWORD)
            print(f"first visit at 390 px; throttled: CPU {CPU_SLOWDOWN}x slower, {LATENCY_MS} ms, "
                  f"{KBITS_PER_SECOND} kbit/s; median of {args.runs}")
            # The throttled CPU is this machine's slowed down: anything else running stretches the times too.
            load, cores = os.getloadavg()[0], os.cpu_count() or 1
            print(f"load average {load:.1f} on {cores} cores" + (
                ": the times below are stretched by other work, run again when idle" if load > cores / 2 else ""))
            print(f"{'page':<18} {'kB gzip':>8} {'kB plain':>9} {'interactive ms':>15} {'load ms':>8}  budget")
            for name, path in pages.items():
                staff = "/manage/" in path
                gzip_visit = first_visit(browser, site, path, state if staff else None)
                plain = first_visit(browser, direct, path, plain_state if staff else None)
                throttled = [first_visit(browser, site, path, state if staff else None, throttled=True)
                             for _ in range(args.runs)]
                interactive = statistics.median(v.interactive_ms for v in throttled)
                load = statistics.median(v.load_ms for v in throttled)
                within = gzip_visit.kb < BUDGET_KB and interactive < BUDGET_MS
                print(f"{name:<18} {gzip_visit.kb:>8.1f} {plain.kb:>9.1f} {interactive:>15.0f} {load:>8.0f}  "
                      f"{'ok' if within else 'OVER'}  ({gzip_visit.breakdown()})")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
