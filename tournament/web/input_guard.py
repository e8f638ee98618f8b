"""Refuse request input the database cannot store, before any view sees it (filled in below)."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    pass
