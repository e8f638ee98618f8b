"""Ids past PostgreSQL's `integer` (and SQLite's 64-bit) range in any URL are a 404, never a 500.

The sweep walks the app's url_map, so a route added later is covered without touching this file.
"""

from __future__ import annotations

import pytest
from werkzeug.routing import IntegerConverter

from tests.helpers import csrf_token, login
from tournament.services.people.users import create_api_token

pytestmark = pytest.mark.postgres

# 2^31 overflows PostgreSQL's integer; 2^63 overflows SQLite's; 10^30 overflows both and int64.
TOO_BIG = [2**31, 2**63, 10**30]


def _int_arguments(rule) -> list[str]:
    return [name for name, conv in rule._converters.items() if isinstance(conv, IntegerConverter)]


def _too_big_urls(app):
    """(rule, url) for every rule with an integer in its path: each integer alone too big, then all."""
    for rule in app.url_map.iter_rules():
        names = _int_arguments(rule)
        if not names:
            continue
        base: dict[str, object] = {name: 1 for name in names}
        for name in rule.arguments - set(names):  # e.g. <any(start, pause):action>: a value it accepts
            base[name] = sorted(getattr(rule._converters[name], "items", ["x"]))[0]
        variants = [{**base, name: big} for name in names for big in TOO_BIG[:1]]
        variants.append({**base, **{name: TOO_BIG[1] for name in names}})
        variants.append({**base, **{name: TOO_BIG[2] for name in names}})
        for values in variants:
            # to_url does not check the range: the URL a client could type.
            yield rule, rule.build(values, append_unknown=False)[1]


def test_every_route_with_an_integer_in_its_path_is_covered(app):
    rules = [r for r in app.url_map.iter_rules() if _int_arguments(r)]
    assert len(rules) > 60  # web pages and the API
    assert any(r.rule.startswith("/api/v1/") for r in rules)
    assert any(r.rule.startswith("/manage/") for r in rules)


@pytest.mark.parametrize("as_organiser", [True, False])
def test_an_id_too_big_for_the_database_is_a_404_everywhere(app, client, organiser, tournament, as_organiser):
    _, plain = create_api_token(organiser, "sweep")
    headers = {"Authorization": f"Bearer {plain}"}
    if as_organiser:
        login(client, organiser.email)
    token = csrf_token(client, "/account" if as_organiser else "/login")
    answers: dict[tuple[str, str], int] = {}
    for rule, url in _too_big_urls(app):
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            if url.startswith("/api/"):
                response = client.open(url, method=method, json={"version": 1, "reason": "x"}, headers=headers)
            elif method == "GET":
                response = client.get(url)
            else:
                response = client.open(url, method=method, data={"csrf_token": token, "version": "1"})
            answers[(method, url)] = response.status_code
    assert len(answers) > 200
    not_404 = {key: status for key, status in answers.items() if status != 404}
    assert not_404 == {}


def test_the_largest_database_id_still_reaches_the_view(client, organiser, app_ctx):
    # 2^31-1 is a valid id (just not one that exists): the view runs and says so in its own words.
    response = client.get(f"/t/{2**31 - 1}")
    assert response.status_code == 404
    _, plain = create_api_token(organiser, "edge")
    api = client.get(f"/api/v1/tournaments/{2**31 - 1}", headers={"Authorization": f"Bearer {plain}"})
    assert api.status_code == 404
    assert api.get_json()["error"]


def test_zero_and_leading_zeros(client, tournament):
    assert client.get("/t/0").status_code == 404
    assert client.get(f"/t/{tournament.id:05d}").status_code in (200, 308, 404)
    assert client.get("/t/" + "9" * 5000).status_code == 404
    assert client.get("/t/" + "0" * 5000 + "1").status_code == 404  # past Python's int-from-string digit limit


def test_openapi_documents_the_id_range(client):
    spec = client.get("/api/v1/openapi.json").get_json()
    params = [p for path in spec["paths"].values() for op in path.values() if isinstance(op, dict)
              for p in op.get("parameters", []) if p.get("in") == "path"]
    params += [p for path in spec["paths"].values() for p in path.get("parameters", []) if p.get("in") == "path"]
    ids = [p for p in params if p["name"] == "tournament_id"]
    assert ids
    for p in ids:
        assert p["schema"] == {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}


def test_the_converter_keeps_signed_min_and_max():
    from flask import Flask

    from tournament.web.converters import init_app

    app = Flask(__name__)
    init_app(app)
    app.add_url_rule("/id/<int:n>", "id", lambda n: str(n))
    app.add_url_rule("/offset/<int(signed=True):n>", "offset", lambda n: str(n))
    app.add_url_rule("/hand/<int(min=1, max=16):n>", "hand", lambda n: str(n))
    app.add_url_rule("/wide/<int(max=99999999999):n>", "wide", lambda n: str(n))
    client = app.test_client()

    def status(url: str) -> int:
        return client.get(url).status_code

    assert [status(f"/id/{n}") for n in (1, 2**31 - 1, 0, 2**31)] == [200, 200, 404, 404]
    assert [status(f"/offset/{n}") for n in (-(2**31), 0, 2**31 - 1, -(2**31) - 1, 2**31)] == [200] * 3 + [404] * 2
    assert [status(f"/hand/{n}") for n in (1, 16, 0, 17)] == [200, 200, 404, 404]
    assert status(f"/wide/{2**31}") == 404  # an explicit max cannot widen past the database's
    assert client.get("/id/0042").get_data(as_text=True) == "42"
