"""Refuse request text the database cannot store, once for every route, before any view reads it.

PostgreSQL refuses a NUL character in text ("cannot contain NUL (0x00) bytes") and a lone UTF-16
surrogate ("\\ud800", which only JSON can carry: forms and query strings decode bytes with replacement)
cannot even be encoded to UTF-8: both were 500s wherever they reached a query. Here they are a 400 naming
the field, for query strings, form fields, upload names and path segments (uploaded CSV contents are checked
where they are parsed, tournament.services.people.registration.csv_io).

Bodies are read only by whoever has the right to send one:
- a GET or HEAD carries no body: one is refused unread (a 4 MB JSON body sent with a GET used to be parsed);
- a page (not the API) takes forms: a JSON body is refused unread (415);
- an API body is parsed where the API reads it (`parse_json_body`, from the API's argument parser), after the
  token and the tournament permission were checked: an anonymous client cannot make a worker parse anything.
  Parsing applies the limits a view cannot apply after the fact: nesting (Python's parser hits its recursion
  limit near 1,000 levels: a 500) and numbers past Python's 4,300-digit limit;
- the backup import, the one route taking up to 256 MB, also counts the values and the objects as the body
  streams in (`limit_json_values`): a body of more than any real backup holds is refused before it is all read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

from flask import Flask, jsonify, request
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wrappers import Response

from tournament.web.errors import error_response, wants_json

UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
MAX_JSON_DEPTH = 32  # the API's deepest body (a hand's false mahjongs) is 3 levels
# Views whose text input reaches neither the database nor a file: the hand checker explains any junk in a
# hand (a NUL included) in its own words, on its page and in its JSON.
PURE_ENDPOINTS = {"checker.page", "checker.score_json"}
BODILESS_METHODS = {"GET", "HEAD"}


class BadInput(Exception):
    def __init__(self, message: str, field: str | None = None, status: int = 400) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.status = status


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


def _entries(container: dict | list) -> Iterator[tuple[Any, Any]]:
    return iter(container.items()) if isinstance(container, dict) else enumerate(container)


def _at(keys: list[Any]) -> str:
    return ".".join(str(k) for k in keys)


def _check_document(document: Any) -> None:
    """Raise BadInput for the first key or string the database cannot store, or for nesting deeper than
    MAX_JSON_DEPTH. One iterator per open container and the path built only for the answer: walking a
    body of ten million values holds nothing per value (a stack of every value with its path was ~58 bytes
    of memory per byte of body)."""
    if isinstance(document, str):
        if problem := _problem(document):
            raise BadInput(f"The JSON value at the top level {problem}.")
        return
    if not isinstance(document, dict | list):
        return
    keys: list[Any] = []  # the key of each open container below the top one
    stack = [_entries(document)]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            if keys:
                keys.pop()
            continue
        key, value = entry
        if len(stack) > MAX_JSON_DEPTH:
            raise BadInput(f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep.",
                           field=_at(keys) or None)
        if isinstance(key, str) and (problem := _problem(key)):
            raise BadInput(f"The JSON value at {_at([*keys, key])!r} {problem}.", field=_at([*keys, key]))
        if isinstance(value, str):
            if problem := _problem(value):
                raise BadInput(f"The JSON value at {_at([*keys, key])!r} {problem}.", field=_at([*keys, key]))
        elif isinstance(value, dict | list):
            keys.append(key)
            stack.append(_entries(value))


class NotJson(ValueError):
    """The body is not JSON at all: each reader answers that in its own words."""


def parse_json_body(data: bytes) -> Any:
    """The JSON document of a request body, checked: NotJson when it is not JSON, BadInput when it is JSON
    that cannot be taken (too deep, a number Python will not read, text the database cannot store)."""
    try:
        document = json.loads(data)
    except RecursionError:
        raise BadInput(f"The JSON body is nested more than {MAX_JSON_DEPTH} levels deep.") from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise NotJson() from None
    except ValueError as exc:  # valid syntax Python will not read: a number of more than 4,300 digits
        raise BadInput(f"The JSON body could not be read: {exc}.") from None
    _check_document(document)
    return document


class TooManyValues(RequestEntityTooLarge):
    pass


class _CountedInput:
    """The WSGI input of a large JSON upload, counting as it is read the bytes that open a list or object or
    separate two values (an upper bound on the values the document holds) and those that open an object (an
    upper bound on its objects), and refusing past either budget.

    A parsed value costs 50-200 bytes of memory whatever its text (`[0],` is 4 bytes), an object 130 or more
    (`{"a":0},` is 8): counting while the bytes arrive refuses a body of millions of tiny values or objects
    before it is all read, let alone parsed."""

    def __init__(self, stream: Any, budget: int, objects: int | None = None) -> None:
        self._stream = stream
        self._budget = budget
        self._objects = objects
        self.values = 0
        self.objects = 0

    def _count(self, chunk: bytes) -> bytes:
        opened = chunk.count(b"{")
        self.objects += opened
        self.values += chunk.count(b"[") + opened + chunk.count(b",")
        if self.values > self._budget:
            raise TooManyValues(f"The document holds more than {self._budget:,} values: more than any "
                                "backup of this server. Nothing was saved.")
        if self._objects is not None and self.objects > self._objects:
            raise TooManyValues(f"The document holds more than {self._objects:,} objects: more than any "
                                "backup of this server. Nothing was saved.")
        return chunk

    def read(self, size: int = -1) -> bytes:
        return self._count(self._stream.read(size))

    def readline(self, size: int = -1) -> bytes:
        return self._count(self._stream.readline(size))


def limit_json_values(budget: int, objects: int | None = None) -> None:
    """Count the values (and the objects) of this request's body as it is read (call before anything reads
    it)."""
    request.environ["wsgi.input"] = _CountedInput(request.environ["wsgi.input"], budget, objects)


def _has_body() -> bool:
    return bool(request.content_length) or "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def check_request(pure: bool = False) -> None:
    """Raise BadInput for a body where none belongs, or for the first unstorable text of the request (not
    looked for on `pure` views, which store nothing)."""
    if request.method in BODILESS_METHODS and _has_body():
        raise BadInput(f"A {request.method} request carries no body: send its parameters in the address.")
    if pure:
        return
    _check(request.args.items(multi=True), "query parameter")
    _check((request.view_args or {}).items(), "address part")
    if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
        _check(request.form.items(multi=True), "field")
        _check(((key, upload.filename or "") for key, upload in request.files.items(multi=True)), "file name of field")
    elif request.is_json and not request.path.startswith("/api/") and _has_body():
        raise BadInput("This page takes a form, not JSON: the JSON API is under /api/v1/.", status=415)


# The backup import's contract: whatever is wrong with the document (too deep, a NUL, a lone surrogate) is a
# 422 naming the problem, like every other way a backup can be broken.
DOCUMENT_ENDPOINTS = frozenset({"api_backup.import_tournament"})


def _refuse(error: BadInput) -> Response | tuple[Any, int]:
    status = 422 if request.endpoint in DOCUMENT_ENDPOINTS and error.status == 400 else error.status
    if request.path.startswith("/api/") or request.path.endswith(".json") or wants_json():
        # The API's error format, {"error", "field"}, for anything a script reads.
        body = {"error": error.message, **({"field": error.field} if error.field else {})}
        return jsonify(body), status
    return error_response(status, "Input refused", error.message)


def init_app(app: Flask) -> None:
    @app.before_request
    def refuse_unstorable_input():
        if request.routing_exception is not None:  # no such page: its 404 or 405, and nothing read
            return None
        try:
            check_request(pure=request.endpoint in PURE_ENDPOINTS)
        except BadInput as error:
            return _refuse(error)
        return None
