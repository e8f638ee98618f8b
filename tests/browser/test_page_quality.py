"""Every page people use on the day, in chromium: axe-core finds no critical or serious accessibility
violation, nothing answers 404 (favicon, manifest, scripts), and no page scrolls sideways on a phone (390 px)
or a laptop (1280 px).

axe-core is vendored (tests/browser/vendor/axe.min.js, MPL-2.0, from `npm pack axe-core`): no network at test
time. It is injected with the page's CSP bypassed (the app allows no inline script, rightly)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD
from tournament.services.play import session as play

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def axe_problems(page) -> list[str]:
    """Critical and serious violations, one line each. label-content-name-mismatch (experimental in axe) is
    switched on: a button must be named by what it shows. The seating projector is a wall screen nobody uses
    by hand: it reloads every minute to show a new draw, which meta-refresh would flag."""
    page.evaluate(AXE)
    rules = {"label-content-name-mismatch": {"enabled": True}}
    if page.url.endswith("/projector"):
        rules["meta-refresh"] = {"enabled": False}
    result = page.evaluate("async (rules) => await axe.run(document, {rules})", rules)
    lines = []
    for v in result["violations"]:
        if v["impact"] in ("critical", "serious"):
            targets = [" ".join(map(str, n["target"])) for n in v["nodes"][:3]]
            lines.append(f"{v['impact']} {v['id']} ({len(v['nodes'])} nodes): {v['help']} e.g. {targets}")
    return lines


def test_axe_finds_no_critical_or_serious_violation(axe_page, demo, referee):
    t, public, referee_pages = demo
    page = axe_page
    found = {}
    for url in public:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if problems := axe_problems(page):
            found[url] = problems
    log_in(page, referee.email, PASSWORD)
    for url in referee_pages:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if problems := axe_problems(page):
            found[url] = problems
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)


def test_no_page_asks_for_something_missing(page, demo, referee):
    """No 404 in the console of any page: the favicon and the manifest exist, every script and style too."""
    t, public, referee_pages = demo
    missing = []
    page.on("response", lambda r: missing.append(f"{page.url} -> {r.url}") if r.status == 404 else None)
    for url in public:
        page.goto(url)
        page.wait_for_load_state("networkidle")
    log_in(page, referee.email, PASSWORD)
    for url in referee_pages:
        page.goto(url)
        page.wait_for_load_state("networkidle")
    assert not missing, missing
    # The icon and manifest are declared in the page (chromium asks for /favicon.ico otherwise).
    page.goto("/")
    icons = page.locator("link[rel=icon]")
    assert [icons.nth(i).get_attribute("type") for i in range(icons.count())] == ["image/svg+xml", "image/png"]
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    answer = page.request.get(manifest)
    assert answer.ok and answer.json()["name"]


def widest(page) -> list[str]:
    """The innermost elements that reach past the right edge (what to fix when a page scrolls sideways)."""
    return page.evaluate("""() => Array.from(document.querySelectorAll('main *'))
        .filter(e => e.getBoundingClientRect().right > window.innerWidth + 0.5
                && !Array.from(e.children).some(c => c.getBoundingClientRect().right > window.innerWidth + 0.5))
        .slice(0, 3).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))""")


@pytest.mark.parametrize("width", [390, 1280])
def test_no_page_scrolls_sideways(browser, live_server, demo, referee, width):
    t, public, referee_pages = demo
    context = browser.new_context(base_url=live_server, viewport={"width": width, "height": 900})
    context.set_default_timeout(10_000)
    page = context.new_page()
    # A name as long as registration allows, on the table page's player cards and in the standings.
    first = play.table_players(play.get_session(t, 2), 1)[0].player
    first.first_name = "Maximiliane-Alexandrina-Konstantinopolitanische"
    first.last_name = "Vanderbeek-Oppenheimer-Wolfeschlegelsteinhausen"
    commit_setup()
    pages = [u for u in public if "projector" not in u and not u.endswith("/clock")]
    # The hand checker with a hand scored: the fan table is the widest part.
    pages.append("/check?hand=[EEE]123456789m5p5p&self_drawn=1&seat_wind=E&prevalent_wind=E")
    wide = {}
    try:
        for url in pages:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            sizes = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
            if sizes[0] > sizes[1]:
                wide[url] = sizes + widest(page)
            # A table scrolling inside its own box hides its right-hand columns just the same: the
            # standings' table points and score, the checker's points and total.
            if "/standings" in url or url.startswith("/check"):
                boxes = page.evaluate("""Array.from(document.querySelectorAll('.table-wrap'))
                    .filter(w => w.offsetParent).map(w => [w.scrollWidth, w.clientWidth])""")
                if any(inner > box for inner, box in boxes):
                    wide[url + " (table)"] = boxes
        log_in(page, referee.email, PASSWORD)
        for url in (f"/manage/tournaments/{t.id}/play/2/tables/1",):
            page.goto(url)
            sizes = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
            if sizes[0] > sizes[1]:
                wide[url] = sizes
    finally:
        context.close()
    assert not wide, wide


def test_the_flask_command_needs_no_app_option():
    """.flaskenv names the app and python-dotenv is installed for the flask command to read it: `flask routes`
    and `flask users ...` need no --app (flask's own loader sets FLASK_APP from the file)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    env = {k: v for k, v in os.environ.items() if k not in ("FLASK_APP", "FLASK_SKIP_DOTENV")}
    loaded = subprocess.run([sys.executable, "-c", "import os; from flask.cli import load_dotenv; load_dotenv(); "
                             "print(os.environ.get('FLASK_APP'))"], cwd=root, env=env, capture_output=True,
                            text=True, timeout=60)
    assert loaded.stdout.strip() == "app.py", loaded.stderr
    done = subprocess.run([str(Path(sys.executable).with_name("flask")), "routes"], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "checker.page" in done.stdout, done.stderr
