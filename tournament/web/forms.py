"""Form helpers shared by the blueprints."""

from __future__ import annotations

from collections.abc import Mapping

from wtforms.fields.choices import SelectChoice


def choices(options: Mapping[str, str] | list[tuple[str, str]]) -> list[SelectChoice]:
    """Select options from a value -> label mapping (WTForms 3.3 wants SelectChoice objects)."""
    items = options.items() if isinstance(options, Mapping) else options
    return [SelectChoice(value, label) for value, label in items]


def form_version(form) -> int | None:
    """The record version a form was loaded with (hidden field `version`), for optimistic locking."""
    value = form.version.data
    try:
        return int(value) if value else None
    except (TypeError, ValueError):
        return None
