"""The score-entry blueprint and what every one of its modules shares.

Its views live in one module per kind of work (`routes.py` lists them); each adds its routes to `bp`, so the
endpoint names stay `hands.<view>` whatever module a view is in.
"""

from __future__ import annotations

from flask import Blueprint, url_for

from tournament.models import Tournament

bp = Blueprint("hands", __name__, url_prefix="/manage/tournaments/<int:tournament_id>/play")


def table_url(t: Tournament, number: int, table: int) -> str:
    """The table page: where a form posted about that table goes back to."""
    return url_for("hands.table", tournament_id=t.id, number=number, table=table)


def posted_int(value) -> int | None:
    """A form's hidden version or chosen player as a number; None for anything else (the service refuses it)."""
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
