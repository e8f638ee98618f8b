"""The API's documentation as a page: /api/docs, rendered on the server from the same OpenAPI document
as /api/v1/openapi.json (no script, nothing fetched from elsewhere), so it cannot drift from the API.

    GET /api/docs    every operation: method, path, summary, parameters, body fields, answers, a curl line
"""

from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, Flask, current_app, render_template
from markupsafe import Markup, escape

from tournament.web.public_url import site_url

bp = Blueprint("api_docs", __name__)

METHODS = ("get", "post", "put", "patch", "delete")
EXTENSION = "tournament.api"


def remember_api(app: Flask, api: Any) -> None:
    app.extensions[EXTENSION] = api


def spec_dict() -> dict[str, Any]:
    return current_app.extensions[EXTENSION].spec.to_dict()


@bp.app_template_filter("inline_code")
def inline_code(text: str) -> Markup:
    """The document's `code` spans as <code>, everything else escaped."""
    return Markup(re.sub(r"`([^`]+)`", r"<code>\1</code>", str(escape(text))))


def _resolve(spec: dict[str, Any], node: Any) -> Any:
    """The object a `$ref` points at (one level; the document's refs are all local)."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = spec
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def _type_of(spec: dict[str, Any], prop: dict[str, Any]) -> str:
    prop = _resolve(spec, prop)
    kind = prop.get("type", "object")
    if kind == "array":
        kind = f"array of {_type_of(spec, prop.get('items', {}))}"
    elif prop.get("format"):
        kind = f"{kind} ({prop['format']})"
    if prop.get("nullable"):
        kind += " or null"
    return kind


def _rules(prop: dict[str, Any]) -> str:
    """The constraints of a property in words: 1-16, at most 120 characters, one of ..."""
    rules = []
    if "minimum" in prop or "maximum" in prop:
        rules.append(f"{prop.get('minimum', '…')} to {prop.get('maximum', '…')}")
    if "maxLength" in prop:
        rules.append(f"at most {prop['maxLength']} characters")
    if prop.get("pattern") == r"\S":
        rules.append("not blank")
    if "enum" in prop:
        values = ", ".join(repr(v) if v == "" else str(v) for v in prop["enum"][:12])
        rules.append(f"one of {values}{', …' if len(prop['enum']) > 12 else ''}")
    if "minItems" in prop and prop.get("minItems") == prop.get("maxItems"):
        rules.append(f"{prop['minItems']} items")
    if prop.get("uniqueItems"):
        rules.append("each once")
    items = prop.get("items")
    if isinstance(items, dict) and "$ref" not in items and _rules(items):
        rules.append(f"items: {_rules(items)}")
    return "; ".join(rules)


def _fields(spec: dict[str, Any], schema: Any) -> list[dict[str, Any]]:
    schema = _resolve(spec, schema)
    required = set(schema.get("required", ()))
    return [{"name": name, "type": _type_of(spec, prop), "required": name in required,
             "rules": _rules(_resolve(spec, prop)), "description": _resolve(spec, prop).get("description", "")}
            for name, prop in schema.get("properties", {}).items()]


def _sample(spec: dict[str, Any], schema: Any) -> Any:
    """A body for the curl line when the operation gives no example: its required fields, each a plausible
    value."""
    schema = _resolve(spec, schema)
    if "example" in schema:
        return schema["example"]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {name: _sample(spec, schema["properties"][name]) for name in schema.get("required", ())
                if name in schema.get("properties", {})}
    if "enum" in schema:
        return next((v for v in schema["enum"] if v != ""), schema["enum"][0])
    if kind == "integer":
        return max(1, schema.get("minimum", 1))
    if kind == "boolean":
        return False
    if kind == "array":
        return []
    return "…"


def _curl(base: str, method: str, path: str, body: Any) -> str:
    parts = ["curl"]
    if method != "get":
        parts.append(f"-X {method.upper()}")
    if "{link_token}" in path:  # a player's own route: the link's token in the path is the credential
        path = path.replace("{link_token}", "$LINK_TOKEN")
    else:
        parts.append('-H "Authorization: Bearer $TOKEN"')
    if body is not None:
        parts.append("-H 'Content-Type: application/json'")
        parts.append(f"-H \"Idempotency-Key: $(uuidgen)\" -d '{json.dumps(body, ensure_ascii=False)}'")
    concrete = path
    for name in ("tournament_id", "number", "table", "hand_number", "player_id", "penalty_id", "appeal_id"):
        concrete = concrete.replace("{" + name + "}", "1")
    parts.append(base + concrete)
    return " ".join(parts)


def operations(spec: dict[str, Any], base: str) -> list[dict[str, Any]]:
    """Every operation of the document, in its order, as the template shows it."""
    tags = {tag["name"]: tag.get("description", "") for tag in spec.get("tags", ())}
    found = []
    for path, item in spec["paths"].items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method not in item:
                continue
            op = item[method]
            parameters = [_resolve(spec, p) for p in (*shared, *op.get("parameters", ()))]
            body = op.get("requestBody")
            content = _resolve(spec, body)["content"]["application/json"] if body else None
            example = None
            if content is not None:
                example = content.get("example", _sample(spec, content["schema"]))
            answers = []
            for status, answer in sorted(op.get("responses", {}).items()):
                answer = _resolve(spec, answer)
                media = next(iter(answer.get("content", {}).items()), (None, {}))
                schema = media[1].get("schema", {})
                answers.append({"status": status, "description": answer.get("description", ""),
                                "media": media[0], "schema": schema.get("$ref", "").rsplit("/", 1)[-1],
                                "example": media[1].get("example")})
            found.append({
                "id": f"{method}-{path}".replace("/", "-").replace("{", "").replace("}", ""),
                "method": method.upper(), "path": path, "group": tags.get(op.get("tags", [""])[0], ""),
                "summary": op.get("summary", ""), "description": op.get("description", ""),
                # [{}]: a token is optional (the published clock); []: none is taken (a player's own routes).
                "public": {} in op.get("security", ()) or op.get("security") == [],
                "parameters": [{"name": p["name"], "in": p["in"], "required": p.get("required", False),
                                "type": _type_of(spec, p.get("schema", {})), "rules": _rules(p.get("schema", {})),
                                "description": p.get("description", "")} for p in parameters],
                "body": _fields(spec, content["schema"]) if content else None,
                "example": example,
                "example_json": json.dumps(example, indent=2, ensure_ascii=False) if example is not None else None,
                "answers": answers,
                "curl": _curl(base, method, path, example),
            })
    return found


@bp.route("/api/docs")
def page():
    spec = spec_dict()
    base = site_url()
    return render_template("api/docs.html", spec=spec, operations=operations(spec, base),
                           description=spec["info"].get("description", ""))
