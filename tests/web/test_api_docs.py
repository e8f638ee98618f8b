"""The API docs page (/api/docs) and what the OpenAPI document declares for every operation."""

from __future__ import annotations

import html
import re

from tests.helpers import Api, token_for

METHODS = ("get", "post", "put", "patch", "delete")
WRITES = ("post", "put", "patch", "delete")


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                yield method, path, item[method]


def test_the_docs_page_lists_every_operation_of_the_document(client, spec):
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    page = html.unescape(response.get_data(as_text=True))
    ops = list(operations(spec))
    assert len(ops) >= 33
    for method, path, op in ops:
        # Each operation is a section with its method, path, summary and a curl line for that path.
        section = page.split(f'id="{method}-{path}'.replace("/", "-").replace("{", "").replace("}", ""), 1)
        assert len(section) == 2, f"{method.upper()} {path} is not on the page"
        body = section[1].split("</section>", 1)[0]
        assert f"{method.upper()}</span> <code>{path}</code>" in body
        assert re.sub(r"`([^`]+)`", r"<code>\1</code>", op["summary"]) in body
        # A player's own routes take the link's token in the path, not a Bearer token: no 401 there.
        assert "Answers" in body and ("401" in body or "{link_token}" in path)
        concrete = re.sub(r"\{[a-z_]+\}", "1", path.replace("{link_token}", "$LINK_TOKEN"))
        assert re.search(r"curl .*" + re.escape(concrete), body)
        if method in WRITES:
            assert "Idempotency-Key" in body


def test_the_docs_page_shows_body_fields_answers_and_examples(client):
    page = html.unescape(client.get("/api/docs").get_data(as_text=True))
    hands = page.split('id="post--api-v1-tournaments-tournament_id-sessions-number-tables-table-hands"')[1]
    hands = hands.split("</section>")[0]
    for text in ("<code>winner_id</code>", "<code>result</code> *", "one of win, draw", "1 to 16",
                 "<strong>201</strong>", "<strong>409</strong>", "<strong>422</strong>", '"result": "win"',
                 "-X POST", "Content-Type: application/json"):
        assert text in hands, text


def test_the_docs_page_needs_nothing_from_elsewhere(client):
    page = client.get("/api/docs").get_data(as_text=True)
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)


def test_every_operation_declares_its_error_answers(spec):
    for method, path, op in operations(spec):
        statuses = set(op["responses"])
        assert {"400", "401"} <= statuses, (method, path)
        if "{" in path:
            assert "404" in statuses, (method, path)
        if "{tournament_id}" in path or method in WRITES:
            assert "403" in statuses, (method, path)
        names = [p.get("$ref", "").rsplit("/", 1)[-1] for p in op.get("parameters", ())]
        if method in WRITES:
            assert {"409", "413", "422"} <= statuses, (method, path)
            assert names.count("IdempotencyKey") == 1, (method, path)
        else:
            assert "IdempotencyKey" not in names, (method, path)
    error = spec["components"]["responses"]["Unauthorized"]["content"]["application/json"]
    assert error["schema"] == {"$ref": "#/components/schemas/Error"}
    header = spec["components"]["parameters"]["IdempotencyKey"]
    assert header["in"] == "header" and header["name"] == "Idempotency-Key"


def test_the_main_operations_carry_examples(spec):
    paths = spec["paths"]
    main = [("post", "/api/v1/tournaments"), ("post", "/api/v1/tournaments/{tournament_id}/players"),
            ("post", "/api/v1/tournaments/{tournament_id}/sessions/{number}/tables/{table}/hands"),
            ("post", "/api/v1/tournaments/{tournament_id}/penalties")]
    for method, path in main:
        op = paths[path][method]
        assert "example" in op["requestBody"]["content"]["application/json"], path
        success = next(r for s, r in op["responses"].items() if s.startswith("2"))
        assert "example" in success["content"]["application/json"], path
    standings = paths["/api/v1/tournaments/{tournament_id}/standings"]["get"]["responses"]["200"]
    assert "example" in standings["content"]["application/json"]


def test_the_account_page_links_to_the_docs(organiser_client):
    assert 'href="/api/docs"' in organiser_client.get("/account").get_data(as_text=True)


def test_the_examples_are_accepted_as_documented(client, organiser, spec):
    """The request examples a reader copies work, and answer with the documented example's shape."""
    api = Api(client, token_for(organiser))
    paths = spec["paths"]

    def example(path, part="request"):
        op = paths[path]["post"]
        if part == "request":
            return op["requestBody"]["content"]["application/json"]["example"]
        return next(r for s, r in op["responses"].items() if s.startswith("2"))["content"]["application/json"]["example"]

    created = api.post("/tournaments", example("/api/v1/tournaments"), expect=201).get_json()
    assert set(created) == set(example("/api/v1/tournaments", "answer"))
    players = "/api/v1/tournaments/{tournament_id}/players"
    player = api.post(f"/tournaments/{created['id']}/players", example(players), expect=201).get_json()
    assert player == {**example(players, "answer"), "id": player["id"]}
