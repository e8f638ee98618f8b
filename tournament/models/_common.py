"""Column helpers shared by the models."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    """Naive UTC timestamp: SQLite keeps no zone, so every timestamp is stored as UTC."""
    return datetime.now(UTC).replace(tzinfo=None)
