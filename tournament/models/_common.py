"""Column helpers shared by the models."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import String
from sqlalchemy.types import TypeDecorator

E = TypeVar("E", bound=StrEnum)


def utcnow() -> datetime:
    """Naive UTC timestamp: SQLite keeps no zone, so every timestamp is stored as UTC."""
    return datetime.now(UTC).replace(tzinfo=None)


class EnumText(TypeDecorator[E]):
    """A StrEnum stored as its plain value in a VARCHAR (no database enum type to migrate).

    Reads give enum members, so code compares with the enum, never with string literals; writing a
    value that is not a member fails before it reaches the database."""

    impl = String
    cache_ok = True

    def __init__(self, enum: type[E], length: int) -> None:
        super().__init__(length)
        self.enum = enum

    def process_bind_param(self, value: Any, dialect: Any) -> str | None:
        return None if value is None else self.enum(value).value

    def process_result_value(self, value: Any, dialect: Any) -> E | None:
        return None if value is None else self.enum(value)
