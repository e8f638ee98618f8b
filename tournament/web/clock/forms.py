"""Forms of the clock page: extra time and a time call (the buttons need nothing but the CSRF token)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, IntegerField, SelectField
from wtforms.validators import InputRequired, NumberRange

from tournament.models import HANDS_PER_SESSION
from tournament.services.play.clock import MAX_EXTRA_SECONDS
from tournament.web.forms import choices

NO_HAND = "none"


class ButtonForm(FlaskForm):
    """Start, pause, resume, end, undo: a CSRF-protected button."""


class StartPlayForm(FlaskForm):
    """Start play, and with `with_clock` (the first of the step's two buttons) the clock in the same tap."""

    with_clock = BooleanField()


class ExtendForm(FlaskForm):
    minutes = IntegerField(_l("Extra minutes"), default=5, validators=[
        InputRequired(_l("Enter the extra minutes.")),
        NumberRange(1, MAX_EXTRA_SECONDS // 60, _l("From 1 to %(num)d minutes.", num=MAX_EXTRA_SECONDS // 60))])
    table = SelectField(_l("For"), choices=choices([("", _l("Every table"))]), default="", validate_choice=False)

    def set_tables(self, tables: list[int]) -> None:
        self.table.choices = choices([("", _l("Every table")), *[(str(n), _l("Table %(num)d", num=n)) for n in tables]])

    def table_number(self) -> int | None:
        value = (self.table.data or "").strip()
        return int(value) if value.isdigit() else None


class TimeCallForm(FlaskForm):
    hand_in_progress = SelectField(
        _l("Hand in progress"),
        choices=choices([(NO_HAND, _l("None (between hands)")),
                         *[(str(n), _l("Hand %(num)d", num=n)) for n in range(1, HANDS_PER_SESSION + 1)]]),
        default=NO_HAND,
    )

    # Between hands: the last hand finished before the gong, typed in yet or not (MERS/EMA-2019: a hand finished
    # before time counts; the paper sheet may reach the desk later).
    last_hand_played = SelectField(
        _l("Last hand finished"),
        choices=choices([("", _l("Last hand finished: as entered")),
                         *[(str(n), _l("Last finished: hand %(num)d", num=n)) for n in range(0, HANDS_PER_SESSION + 1)]]),
        default="",
    )

    def hand(self) -> int | None:
        value = self.hand_in_progress.data
        return int(value) if value and value.isdigit() else None

    def last_hand(self) -> int | None:
        value = self.last_hand_played.data
        return int(value) if value and value.isdigit() and self.hand() is None else None
