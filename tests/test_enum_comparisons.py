"""No enum is compared with a string literal (issue 36): code compares a model's enum field with the enum's
member (`hand.status == HandStatus.CONFIRMED`), so that a renamed or removed value is an AttributeError at once,
never a comparison that is quietly always false."""

from __future__ import annotations

import ast
from pathlib import Path

from tournament.extensions import db
from tournament.models._common import EnumText

PACKAGE = Path(__file__).resolve().parents[1] / "tournament"
# The pure engines name their own codes (an MCRError's code, a false mahjong's kind as the engine takes it):
# they import no model, so they have no enum to compare with.
PURE = ("mcr", "draws")
# Comparisons in files other work is changing now (issue 33's draws service): its own branch takes them.
ELSEWHERE = {("services/seating/draws.py", "draw_separation")}
# Enum column names that name text elsewhere too: an HTTP method (request.method), a reason typed by someone or
# a throttle's words.
ALSO_TEXT = {"method", "reason"}


def enum_fields() -> set[str]:
    """The names of every enum column of the models, and of the enum values the code reads besides them (a
    hand's status, a hand check's verdict)."""
    names = {column.name for table in db.metadata.sorted_tables for column in table.columns
             if isinstance(column.type, EnumText)}
    return (names | {"status", "verdict"}) - ALSO_TEXT


def _literal(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and bool(node.elts) and all(map(_literal, node.elts))


def literal_comparisons(source: str, fields: set[str]) -> list[tuple[int, str]]:
    """(line, field) of every `x.<field> == "..."` (or !=, in, not in a tuple of literals) in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for left, op, right in zip(sides, node.ops, sides[1:], strict=False):
            if not isinstance(op, ast.Eq | ast.NotEq | ast.In | ast.NotIn):
                continue
            for attribute, other in ((left, right), (right, left)):
                if isinstance(attribute, ast.Attribute) and attribute.attr in fields and _literal(other):
                    found.append((node.lineno, attribute.attr))
    return found


def test_the_check_finds_a_comparison_with_a_literal():
    fields = {"status", "result"}
    assert literal_comparisons('if hand.status == "confirmed": pass', fields) == [(1, "status")]
    assert literal_comparisons('x = "win" != h.result', fields) == [(1, "result")]
    assert literal_comparisons('x = s.status in ("draft", "published")', fields) == [(1, "status")]
    assert literal_comparisons("x = s.status == SessionStatus.IN_PLAY", fields) == []
    assert literal_comparisons('x = s.name == "draft"', fields) == []


def test_no_enum_field_is_compared_with_a_string_literal(app):
    fields = enum_fields()
    assert {"action", "status", "result", "role", "decision", "mode"} <= fields
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        if where.split("/")[0] in PURE:
            continue
        found += [f"{where}:{line} ({field})" for line, field in literal_comparisons(path.read_text(), fields)
                  if (where, field) not in ELSEWHERE]
    assert found == []
