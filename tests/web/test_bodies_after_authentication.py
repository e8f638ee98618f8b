"""Bodies are read only by whoever may send them (issue 22, item 1): an API body after the token and the
permission, a GET's body never, a page's JSON body never, and the backup import's values counted as they
stream in. Each test measures what the request cost: its time and the memory Python allocated for it."""

from __future__ import annotations

import json
import time
import tracemalloc

from tests.helpers import MB, csrf_token, login, make_user, tiny_values
from tournament.services.people.users import create_api_token
from tournament.web.api import backup as backup_route


def _measured(send) -> tuple[object, float, int]:
    """(response, seconds, peak bytes allocated while answering)."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    began = time.perf_counter()
    try:
        response = send()
        elapsed = time.perf_counter() - began
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return response, elapsed, peak


def test_an_import_without_a_token_is_refused_unread(client, tiny_10mb):
    response, elapsed, peak = _measured(lambda: client.post(
        "/api/v1/tournaments/import", data=tiny_10mb, content_type="application/json"))
    assert response.status_code == 401
    # The old guard parsed all 10 MB first: 5.1 s and +590 MB in gunicorn.
    assert peak < 1 * MB, f"{peak / MB:.1f} MB allocated for a refused anonymous body"
    assert elapsed < 1.0


def test_an_import_with_an_unknown_token_is_refused_unread(client, tiny_10mb):
    response, _, peak = _measured(lambda: client.post(
        "/api/v1/tournaments/import", data=tiny_10mb, content_type="application/json",
        headers={"Authorization": "Bearer mcr_not_a_token"}))
    assert response.status_code == 401
    assert peak < 3 * MB  # the token's look-up allocates a little; reading the body would be 10 MB


def test_a_referee_token_cannot_make_the_import_read_its_body(client, app_ctx, tiny_10mb):
    referee = make_user("ref@example.org", "referee")
    _, plain = create_api_token(referee, "t")
    response, _, peak = _measured(lambda: client.post(
        "/api/v1/tournaments/import", data=tiny_10mb, content_type="application/json",
        headers={"Authorization": f"Bearer {plain}"}))
    assert response.status_code == 403
    assert peak < 3 * MB


def test_an_api_write_checks_the_permission_before_the_body(client, app_ctx, tournament):
    # A token of someone not on the tournament's staff: 403, although the body is too deep to take.
    stranger = make_user("stranger@example.org", "organiser")
    _, plain = create_api_token(stranger, "t")
    body = '{"first_name": ' + "[" * 5000 + "]" * 5000 + "}"
    response = client.post(f"/api/v1/tournaments/{tournament.id}/players", data=body,
                           content_type="application/json", headers={"Authorization": f"Bearer {plain}"})
    assert response.status_code == 403


def test_the_import_counts_values_as_they_arrive(client, app_ctx, organiser, monkeypatch):
    # An organiser's body of more values than any backup: refused before it is all read, let alone parsed.
    monkeypatch.setattr(backup_route, "MAX_IMPORT_VALUES", 100_000)
    _, plain = create_api_token(organiser, "t")
    body = tiny_values(4 * MB)  # ~1 million values
    response, _, peak = _measured(lambda: client.post(
        "/api/v1/tournaments/import", data=body, content_type="application/json",
        headers={"Authorization": f"Bearer {plain}"}))
    assert response.status_code == 413
    assert "more than 100,000 values" in response.get_json()["error"]
    # Read up to the budget (~400 kB), then stopped: not the 4 MB, nor its parse (~230 MB).
    assert peak < 2 * MB, f"{peak / MB:.1f} MB allocated"


def test_a_backup_within_the_value_budget_still_imports(client, app_ctx, organiser, tournament, monkeypatch):
    _, plain = create_api_token(organiser, "t")
    headers = {"Authorization": f"Bearer {plain}"}
    document = client.get(f"/api/v1/tournaments/{tournament.id}/export.json", headers=headers).get_data()
    values = sum(document.count(c) for c in (b"[", b"{", b","))
    monkeypatch.setattr(backup_route, "MAX_IMPORT_VALUES", values)
    response = client.post("/api/v1/tournaments/import", data=document, content_type="application/json",
                           headers=headers)
    assert response.status_code == 201, response.get_json()
    monkeypatch.setattr(backup_route, "MAX_IMPORT_VALUES", values - 1)
    response = client.post("/api/v1/tournaments/import", data=document, content_type="application/json",
                           headers=headers)
    assert response.status_code == 413


def test_a_get_with_a_body_is_refused_unread(client, tournament):
    # The refusal page once first: compiling its templates and loading the language's catalogue (~1 MB at
    # first use) is not what is measured; reading the 4 MB body would be.
    assert client.open(f"/t/{tournament.id}/standings", method="GET", data=b"{}",
                       content_type="application/json").status_code == 400
    body = json.dumps({"pad": "x" * (4 * MB)}).encode()
    response, elapsed, peak = _measured(lambda: client.open(
        f"/t/{tournament.id}/standings", method="GET", data=body, content_type="application/json"))
    assert response.status_code == 400
    assert "carries no body" in response.get_data(as_text=True)
    assert peak < 1 * MB  # the old guard read and parsed it: 1.96 s, then a 200
    assert elapsed < 1.0


def test_a_get_to_the_api_with_a_body_is_refused(client, app_ctx, organiser):
    _, plain = create_api_token(organiser, "t")
    response = client.open("/api/v1/me", method="GET", data="{}", content_type="application/json",
                           headers={"Authorization": f"Bearer {plain}"})
    assert response.status_code == 400
    assert "carries no body" in response.get_json()["error"]


def test_a_page_takes_a_form_not_json(client, organiser, tournament):
    login(client, organiser.email)
    token = csrf_token(client, "/account")
    body = tiny_values(2 * MB)
    response, _, peak = _measured(lambda: client.post(
        f"/manage/tournaments/{tournament.id}/play/1/clock/extend", data=body,
        content_type="application/json", headers={"X-CSRFToken": token}))
    assert response.status_code == 415
    assert peak < 1 * MB


def test_a_get_without_a_body_is_unaffected(client, tournament):
    assert client.get(f"/t/{tournament.id}/standings").status_code == 200
