"""Refuse request text the database cannot store, once for every route, before any view reads it.

PostgreSQL refuses a NUL character in text ("cannot contain NUL (0x00) bytes") and a lone UTF-16
surrogate ("\\ud800", which only JSON can carry: forms and query strings decode bytes with replacement)
cannot even be encoded to UTF-8: both were 500s wherever they reached a query. Here they are a 400 naming
the field, for query strings, form fields, upload names, path segments and JSON bodies alike (uploaded
CSV contents are checked where they are parsed, tournament.services.registration.csv_io).

JSON bodies are parsed once here with the limits a view cannot apply after the fact: nesting (Python's
parser hits its recursion limit near 1,000 levels: a 500) and numbers past Python's 4,300-digit limit.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.wrappers import Response

from tournament.web.errors import error_response, wants_json

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MAX_JSON_DEPTH = 32  # the API's deepest body (a hand's false mahjongs) is 3 levels
# Views whose text input reaches neither the database nor a file: the hand checker explains any junk in a
# hand (a NUL included) in its own words, on its page and in its JSON.
PURE_ENDPOINTS = {"checker.page", "checker.score_json"}
JSON_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


class BadInput(Exception):
    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


def _problem(text: str) -> str | None:
    found = UNSTORABLE.search(text)
    if found is None:
        return None
    if found.group() == "\x00":
        return "contains a NUL character (\\u0000), which cannot be stored"
    return f"contains a lone surrogate (\\u{ord(found.group()):04x}), which is not valid Unicode text"


def _check(pairs: Iterable[tuple[str, Any]], where: str) -> None:
    for name, value in pairs:
        if problem := _problem(name):
            raise BadInput(f"The name of a {where} {problem}.")
        if isinstance(value, str) and (problem := _problem(value)):
            raise BadInput(f"The {where} {name!r} {problem}. Remove it and send again.", field=name)


def _json_strings(document: Any) -> Iterator[tuple[str, str]]:
    """(path, text) of every key and string of a parsed JSON document, depth-checked, without recursion."""
    stack: list[tuple[Any, str, int]] = [(document, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise BadInput(f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep.", field=path or None)
        if isinstance(value, str):
            yield path, value
        elif isinstance(value, dict):
            for key, item in value.items():
                key_path = f"{path}.{key}" if path else str(key)
                yield key_path, key
                stack.append((item, key_path, depth + 1))
        elif isinstance(value, list):
            stack.extend((item, f"{path}.{i}" if path else str(i), depth + 1) for i, item in enumerate(value))


def _check_json() -> None:
    api_write = request.path.startswith("/api/") and request.method in JSON_METHODS
    if not (request.is_json or api_write):
        return
    data = request.get_data(cache=True)
    if not data.strip():
        return
    try:
        document = json.loads(data)
    except RecursionError:
        raise BadInput(f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep.") from None
    except json.JSONDecodeError:
        return  # not JSON at all: each view answers that in its own words (the API: a 400)
    except ValueError as exc:  # valid syntax Python will not read: a number of more than 4,300 digits
        raise BadInput(f"The JSON body could not be read: {exc}.") from None
    for path, text in _json_strings(document):
        if problem := _problem(text):
            raise BadInput(f"The JSON value at {path or 'the top level'!r} {problem}.", field=path or None)


def check_request() -> None:
    """Raise BadInput for the first unstorable text of the request."""
    _check(request.args.items(multi=True), "query parameter")
    _check((request.view_args or {}).items(), "address part")
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        _check(request.form.items(multi=True), "field")
        _check(((key, upload.filename or "") for key, upload in request.files.items(multi=True)), "file name of field")
    _check_json()


# The backup import's contract: whatever is wrong with the document (too deep, a NUL, a lone surrogate) is a
# 422 naming the problem, like every other way a backup can be broken.
DOCUMENT_ENDPOINTS = frozenset({"api_backup.import_tournament"})


def _refuse(error: BadInput) -> Response | tuple[Any, int]:
    status = 422 if request.endpoint in DOCUMENT_ENDPOINTS else 400
    if request.path.startswith("/api/") or request.path.endswith(".json") or wants_json():
        # The API's error format, {"error", "field"}, for anything a script reads.
        body = {"error": error.message, **({"field": error.field} if error.field else {})}
        return jsonify(body), status
    return error_response(status, "Input refused", error.message)


def init_app(app: Flask) -> None:
    @app.before_request
    def refuse_unstorable_input():
        if request.endpoint in PURE_ENDPOINTS:
            return None
        try:
            check_request()
        except BadInput as error:
            return _refuse(error)
        return None
