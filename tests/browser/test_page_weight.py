"""Page-weight budget (issue 21 item 13): the table page and the hand form, the two pages a referee opens on a
phone all day, weigh under 60 kB on a first visit (empty cache), everything the browser fetched counted.

Measured as the venue's phones receive it: through the shipped nginx site (deploy/nginx-site.conf, rendered
for loopback by tests/deploy/servers.py) in front of the app, so HTML, CSS, JS and JSON arrive gzip-compressed
exactly as nginx would send them; Chromium counts the bytes itself (tests/browser/weight.py). The werkzeug
server alone compresses nothing, which would measure a site nobody deploys. bench/page_weight.py prints the
same figures with the CPU and the network throttled, and the time to interactive.
"""

from __future__ import annotations

import pytest

from tests.browser.weight import first_visit, logged_in_state
from tests.deploy.servers import NGINX, ROOT, nginx
from tests.helpers import PASSWORD

pytestmark = [pytest.mark.browser,
              pytest.mark.skipif(NGINX is None, reason="nginx is not installed (Debian package nginx)")]

BUDGET = 60_000  # bytes on the wire, first visit


def test_table_page_and_hand_form_fit_the_budget(browser, live_server, tmp_path, played_table, organiser):
    t = played_table
    app_port = int(live_server.rsplit(":", 1)[1])
    with nginx(app_port, tmp_path) as site:
        state = logged_in_state(browser, site, organiser.email, PASSWORD)
        table = f"/manage/tournaments/{t.id}/play/1/tables/1"
        for path in (table, table + "/hands/new"):
            visit = first_visit(browser, site, path, storage_state=state)
            print(f"{path}: {visit.kb:.1f} kB ({visit.breakdown()})")
            assert visit.status == 200, visit
            assert len(visit.resources) >= 3, visit  # the page, its CSS and scripts: not a redirect to the login
            assert visit.transferred < BUDGET, f"{path}: {visit.kb:.1f} kB ({visit.breakdown()})"
            fetched = " ".join(url for url, _ in visit.resources)
            assert "/css/live.css" not in fetched  # the live pages' styles stay on the live pages
            assert ("/css/tiles.css" in fetched) == path.endswith("/hands/new")  # tiles only where drawn
            assert "/js/offline-queue.js" in fetched  # a table's pages keep hands through a network drop
            assert "/js/confirm.js" not in fetched  # no form here asks for a confirmation
            assert "/css/pages.css" not in fetched and "/css/staff.css" not in fetched  # app.css alone styles these
            # The hand form's live score comes after the load event (after-load.js), with the offline queue.
            assert ("/js/hand-score.js" in fetched) == path.endswith("/hands/new")
        # The offline queue (and the confirmation dialog) only where used: not on the public pages or the login.
        for path in (f"/t/{t.id}/standings", "/login"):
            fetched = " ".join(url for url, _ in first_visit(browser, site, path).resources)
            assert "/js/offline-queue.js" not in fetched and "/js/confirm.js" not in fetched, (path, fetched)
            assert "/css/pages.css" in fetched, (path, fetched)  # the rules the table's pages do without
            # The staff pages' rules not on the live pages a player's phone opens.
            assert ("/css/staff.css" in fetched) == (path == "/login"), (path, fetched)
        # Compressed on the way, as nginx sends it: the site's biggest stylesheet arrives at under half its size.
        css = next(size for url, size in visit.resources if "/css/app.css" in url)
        assert css < (ROOT / "static/css/app.css").stat().st_size / 2, css
