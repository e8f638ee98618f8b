from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, HiddenField, IntegerField, SelectField, SubmitField
from wtforms.validators import DataRequired, InputRequired, NumberRange, Optional
from wtforms.widgets import HiddenInput

from tournament.models import DRAW_SEPARATIONS
from tournament.services.seating.draws import MAX_SEED
from tournament.web.forms import VersionedForm, choices
from tournament.web.idempotency import IdempotentForm

SEED_HINT = _l("Leave empty for a random seed. The same seed and history always give the same draw.")


def _seed_field() -> IntegerField:
    return IntegerField(_l("Seed"), validators=[Optional(), NumberRange(0, MAX_SEED, _l("From 0 to %(num)d.", num=MAX_SEED))],
                        description=SEED_HINT)


class PlanForm(IdempotentForm):
    seed = _seed_field()
    submit = SubmitField(_l("Plan all sessions"))


class DrawForm(IdempotentForm):
    # The session the page offered to draw: if another request drew it meanwhile, this one is refused
    # instead of drawing the session after it.
    number = HiddenField()
    seed = _seed_field()
    submit = SubmitField(_l("Draw next session"))


class RedrawForm(VersionedForm, IdempotentForm):
    seed = _seed_field()
    # A redraw replaces the seating, swaps made by hand included: confirmed on the form itself, so that it holds
    # without JavaScript (issue 32).
    replace = BooleanField(_l("Replace the current seating"),
                           validators=[DataRequired(_l("Tick the box to replace the current seating."))])
    submit = SubmitField(_l("Redraw this session"))


class ReplanForm(IdempotentForm):
    submit = SubmitField(_l("Mend them"))


class QualityReplanForm(IdempotentForm):
    # the number of players the page said the re-plan moves: another number when applying is a conflict
    expected_moved = IntegerField(validators=[Optional(), NumberRange(0, 100_000)], widget=HiddenInput())
    submit = SubmitField(_l("Show what a re-plan for quality would change"))
    apply = SubmitField(_l("Re-plan for quality"))


class LeaveOutForm(VersionedForm, IdempotentForm):
    submit = SubmitField(_l("Leave them out of this session"))


class SeparationForm(FlaskForm):
    separation = SelectField(_l("Keep apart at a table"),
                             choices=choices({value: _l(label) for value, label in DRAW_SEPARATIONS.items()}))
    submit = SubmitField(_l("Save"))


class StatusForm(VersionedForm):
    status = HiddenField()
    submit = SubmitField(_l("Change"))


class SwapForm(VersionedForm):
    player_a = SelectField(_l("Player"), coerce=int, validators=[InputRequired(_l("Choose a player."))])
    player_b = SelectField(_l("Swap with"), coerce=int, validators=[InputRequired(_l("Choose a player."))],
                           description=_l("Both change table and seat. A player not seated in this session takes the "
                                          "other's seat."))
    submit = SubmitField(_l("Swap and recheck quality"))
