"""Every HTML page of the app, opened in chromium under the Content-Security-Policy: no violation.

The pages are found from the app's URL map (so pages added later are visited too), logged in as the
tournament's organiser, with a session in play and a hand entered so that the score-entry, clock and live
pages have something to show and their scripts run."""

from __future__ import annotations

import pytest

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD, seated_session
from tournament.models import SessionStatus
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.seating import lifecycle

pytestmark = pytest.mark.browser

VALID_HAND = "123456789m123s5p5p"

# Chromium reports a blocked inline script or style both as a console error and as this DOM event.
COLLECT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") +
                              " at line " + e.lineNumber);
});
"""


def _pages(app, values: dict[str, int]) -> list[str]:
    urls = []
    with app.test_request_context():
        from flask import url_for

        for rule in app.url_map.iter_rules():
            if "GET" not in rule.methods or rule.endpoint == "static" or rule.rule.startswith("/api/"):
                continue
            # documents and images are no pages (chromium's own image viewer styles itself inline)
            if (rule.rule.endswith((".json", ".pdf", ".csv", ".xlsx", ".ics", ".ico"))
                    or not set(rule.arguments) <= set(values)):
                continue
            urls.append(url_for(rule.endpoint, **{name: values[name] for name in rule.arguments}))
    return sorted(set(urls))


def test_no_page_breaks_the_content_security_policy(app, page, organiser, tournament):
    session = seated_session(tournament, players=16, status=SessionStatus.PUBLISHED)
    lifecycle.start_session(tournament, 1)
    east, south, west, north = (sp.player_id for sp in play.table_players(session, 1))
    scoring.enter_hand(tournament, 1, 1, HandData(number=1, result="win", winner_id=east, discarder_id=south,
                                                  hand=VALID_HAND), None)
    commit_setup()
    urls = _pages(app, {"tournament_id": tournament.id, "number": 1, "table": 1, "hand_number": 1,
                        "player_id": east})
    assert len(urls) > 30  # the crawl found the app's pages

    console_errors: list[str] = []
    page.on("console", lambda msg: console_errors.append(msg.text) if "Content Security Policy" in msg.text
            else None)
    page.add_init_script(COLLECT_VIOLATIONS)
    log_in(page, organiser.email, PASSWORD)

    problems = []
    for url in urls:
        response = page.goto(url)
        assert response is not None and response.status < 500, f"{url}: {response and response.status}"
        assert "default-src 'self'" in response.headers.get("content-security-policy", ""), url
        page.wait_for_timeout(250)  # scripts that start on load (polling, pickers, charts) have run
        violations = page.evaluate("window.__cspViolations")
        problems += [f"{url}: {v}" for v in violations]
    problems += console_errors
    assert not problems, "\n".join(problems)


def test_a_blocked_inline_script_would_be_reported(page, live_server):
    """The check above can fail: an inline script on a page served with our policy is reported."""
    page.add_init_script(COLLECT_VIOLATIONS)
    page.goto("/login")
    page.evaluate("""() => {
        const s = document.createElement("script");
        s.textContent = "window.__ran = true";
        document.body.appendChild(s);
    }""")
    page.wait_for_timeout(100)
    assert page.evaluate("window.__ran === undefined")
    assert any("script-src" in v for v in page.evaluate("window.__cspViolations"))
