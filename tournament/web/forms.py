"""Form helpers shared by the blueprints."""

from __future__ import annotations

from collections.abc import Mapping

from flask import flash
from flask_wtf import FlaskForm
from wtforms import HiddenField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import DataRequired

from tournament.services.core.records import MISSING_VERSION


def choices(options: Mapping[str, str] | list[tuple[str, str]]) -> list[SelectChoice]:
    """Select options from a value -> label mapping (WTForms 3.3 wants SelectChoice objects)."""
    items = options.items() if isinstance(options, Mapping) else options
    return [SelectChoice(value, label) for value, label in items]


class VersionedForm(FlaskForm):
    """A form that edits a versioned record: it carries the version it was loaded with, and is refused
    without one (the service refuses it too). The field is hidden, so its error is flashed."""

    version = HiddenField(validators=[DataRequired(MISSING_VERSION)])

    def validate(self, extra_validators=None) -> bool:
        valid = super().validate(extra_validators)
        for message in self.version.errors:
            flash(message, "error")
        return valid


def form_version(form) -> int | None:
    """The record version a form was loaded with (hidden field `version`), for optimistic locking."""
    value = form.version.data
    try:
        return int(value) if value else None
    except (TypeError, ValueError):
        return None
