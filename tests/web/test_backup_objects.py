"""The backup import counts the objects of its body as they arrive (issue 31): 5.2 million small objects in
40 MB, within the value budget, took a worker to 1.18 GB before their 422. Past MAX_IMPORT_OBJECTS the body
is refused (413) before it is all read, let alone parsed; a real backup still restores."""

from __future__ import annotations

import tracemalloc

from tests.helpers import MB
from tournament.services.people.users import create_api_token
from tournament.web.api import backup as backup_route


def _peak(send) -> tuple[object, int]:
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        response = send()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return response, peak


def test_a_body_of_more_objects_than_any_backup_is_refused_as_it_arrives(client, app_ctx, organiser, monkeypatch):
    monkeypatch.setattr(backup_route, "MAX_IMPORT_OBJECTS", 100_000)
    _, plain = create_api_token(organiser, "t")
    body = b"[" + b",".join([b'{"a":0}'] * 500_000) + b"]"  # 4 MB: 1 million values, well within their budget
    response, peak = _peak(lambda: client.post("/api/v1/tournaments/import", data=body,
                                               content_type="application/json",
                                               headers={"Authorization": f"Bearer {plain}"}))
    assert response.status_code == 413
    assert response.get_json()["error"] == ("The document holds more than 100,000 objects: more than any backup "
                                            "of this server. Nothing was saved.")
    # Read up to the budget (~800 kB), then stopped: not the 4 MB, nor its parse (~65 MB).
    assert peak < 3 * MB, f"{peak / MB:.1f} MB allocated"


def test_a_backup_within_the_object_budget_still_restores(client, app_ctx, organiser, demo_tournament, monkeypatch):
    _, plain = create_api_token(organiser, "t")
    headers = {"Authorization": f"Bearer {plain}"}
    document = client.get(f"/api/v1/tournaments/{demo_tournament.id}/export.json", headers=headers).get_data()
    objects = document.count(b"{")
    assert objects * 100 < backup_route.MAX_IMPORT_OBJECTS  # the demo, played: 3,500 objects, 0.1 % of the budget
    monkeypatch.setattr(backup_route, "MAX_IMPORT_OBJECTS", objects)
    response = client.post("/api/v1/tournaments/import", data=document, content_type="application/json",
                           headers=headers)
    assert response.status_code == 201, response.get_json()
    monkeypatch.setattr(backup_route, "MAX_IMPORT_OBJECTS", objects - 1)
    response = client.post("/api/v1/tournaments/import", data=document, content_type="application/json",
                           headers=headers)
    assert response.status_code == 413
    assert f"more than {objects - 1:,} objects" in response.get_json()["error"]
