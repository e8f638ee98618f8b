"""The one CSV writer of the app: every CSV file it writes (the players' export, the EMA results) goes
through `csv_text`, so no cell of a name or a note reaches a spreadsheet as a formula.

Spreadsheets run a text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula
(`=HYPERLINK(...)`, `+cmd|' /C calc'!A0`): such a cell is written with a leading `'`, which they show as
text. Numbers (int and float values) are written as numbers: a score of -12 stays -12, not '-12.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")

Cell = str | int | float | None


def cell(value: Cell) -> str | int | float:
    """A cell as written: numbers as they are, text neutralised when a spreadsheet would run it."""
    if value is None:
        return ""
    if isinstance(value, bool):  # a bool is an int to Python, but no number to a spreadsheet
        return str(value)
    if isinstance(value, int | float):
        return value
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Cell]]) -> str:
    """The file's text: the header, then one line per row, every cell through `cell`; CRLF line ends as
    CSV (RFC 4180) has them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([cell(name) for name in header])
    writer.writerows([cell(value) for value in row] for row in rows)
    return out.getvalue()
