"""Security headers on every response; no-store for logged-in pages; templates that a strict CSP allows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import PASSWORD, login, make_user
from tournament.config import PROJECT_ROOT

TEMPLATES = PROJECT_ROOT / "templates"


def _csp(response) -> dict[str, str]:
    policy = response.headers.get("Content-Security-Policy")
    assert policy, f"no Content-Security-Policy on {response.request.path}"
    parts = [p.strip() for p in policy.split(";") if p.strip()]
    return {part.split()[0]: part.partition(" ")[2] for part in parts}


def _assert_headers(response) -> None:
    directives = _csp(response)
    assert directives["default-src"] == "'self'"
    assert directives["script-src"] == "'self'"  # no 'unsafe-inline', no 'unsafe-eval'
    assert "unsafe" not in directives["style-src"]
    assert directives["frame-ancestors"] == "'none'"
    assert directives["object-src"] == "'none'"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("url", ["/", "/login", "/checker", "/no-such-page", "/t/2147483647",
                                 "/static/css/app.css", "/api/v1/me"])
def test_every_response_has_the_security_headers(client, url):
    _assert_headers(client.get(url))


def test_logged_in_pages_are_never_stored(app, client):
    with app.app_context():
        make_user("olivia@example.org", "organiser")
    assert client.get("/").headers.get("Cache-Control") != "no-store"  # a public page, anonymous: cacheable
    assert login(client, "olivia@example.org", PASSWORD).status_code == 302
    for url in ["/manage", "/account", "/"]:
        response = client.get(url)
        assert response.status_code == 200
        _assert_headers(response)
        assert response.headers["Cache-Control"] == "no-store", url
    static = client.get("/static/css/app.css")
    assert static.headers.get("Cache-Control") != "no-store"  # the stylesheet is the same for everyone


def test_account_and_login_pages_are_never_stored_even_anonymous(client):
    assert client.get("/account").headers["Cache-Control"] == "no-store"  # the redirect to the login page
    assert client.get("/login").headers["Cache-Control"] == "no-store"  # it carries the CSRF token


def test_api_answers_to_a_token_are_never_stored(client):
    response = client.get("/api/v1/me", headers={"Authorization": "Bearer mcr_nonsense"})
    assert response.status_code == 401
    assert response.headers["Cache-Control"] == "no-store"


# What a CSP without 'unsafe-inline' blocks: inline <script> bodies, on*="" handlers, javascript: URLs,
# <style> elements and style="" attributes. Every page of the app, including those being added, must do
# without them (scripts in static/js, styles in static/css).
FORBIDDEN = {
    "inline script": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I),
    "event handler attribute": re.compile(r"<[^>]+\son[a-z]+\s*=", re.I),
    "javascript: URL": re.compile(r"javascript:", re.I),
    "style element": re.compile(r"<style[\s>]", re.I),
    "style attribute": re.compile(r"<[^>]+\sstyle\s*=", re.I),
}


def test_no_template_needs_inline_script_or_style():
    problems = []
    for path in sorted(TEMPLATES.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        for what, pattern in FORBIDDEN.items():
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{path.relative_to(PROJECT_ROOT)}:{line}: {what}")
    assert not problems, "blocked by the Content-Security-Policy:\n" + "\n".join(problems)


def test_the_template_check_finds_what_it_looks_for(tmp_path: Path):
    samples = ['<script>alert(1)</script>', '<button onclick="go()">', '<a href="javascript:go()">',
               '<style>p{}</style>', '<p class="x" style="color:red">']
    for sample, (what, pattern) in zip(samples, FORBIDDEN.items(), strict=True):
        assert pattern.search(sample), what
    assert not FORBIDDEN["inline script"].search('<script src="/static/js/a.js" defer></script>')
    assert not FORBIDDEN["style attribute"].search('<link rel="stylesheet" href="/static/css/app.css">')
