"""The installation: one row (id 1) that names this database's copy of the app for good, wherever its
processes run (every gunicorn worker, the live pages' gunicorn, another container, a restart): the calendars'
UIDs end with it when PUBLIC_URL is unset, so that two clubs' tournament 1 never share an event UID in one
person's calendar. Written by its migration, or at first need when missing (services/core/installation.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import String
from sqlalchemy.orm import Mapped, mapped_column

from tournament.extensions import db
from tournament.models._common import utcnow


class Installation(db.Model):
    __tablename__ = "installation"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)  # always 1: one row
    uid: Mapped[str] = mapped_column(String(36))  # a random UUID (uuid4), lower-case with hyphens
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
