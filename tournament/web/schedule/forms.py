"""The timetable form: one date-and-time field per session, in the tournament's zone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateTimeLocalField, SubmitField
from wtforms.validators import Optional

# What a browser's datetime-local input sends (seconds when the page asked for them, which it does not).
FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]


def field_name(number: int) -> str:
    return f"session_{number}"  # the service names the same field when it refuses a time


def timetable_form(numbers: Sequence[int], zone: str) -> FlaskForm:
    """A form with a field per session number; an empty field clears that session's planned start."""

    class TimetableForm(FlaskForm):
        submit = SubmitField(_l("Save the timetable"))

        def starts(self) -> dict[int, datetime | None]:
            return {number: self[field_name(number)].data for number in numbers}

    for number in numbers:
        setattr(TimetableForm, field_name(number), DateTimeLocalField(
            _l("Session %(num)s", num=number), format=FORMATS, validators=[Optional()],
            description=_l("Date and time in %(zone)s; empty: no planned start.", zone=zone)))
    return TimetableForm()
