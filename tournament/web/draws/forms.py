from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, SelectField, SubmitField
from wtforms.validators import InputRequired, NumberRange, Optional

from tournament.models import DRAW_SEPARATIONS
from tournament.services.draws import MAX_SEED
from tournament.web.forms import VersionedForm, choices
from tournament.web.idempotency import IdempotentForm

SEED_HINT = "Leave empty for a random seed. The same seed and history always give the same draw."


def _seed_field() -> IntegerField:
    return IntegerField("Seed", validators=[Optional(), NumberRange(0, MAX_SEED, f"From 0 to {MAX_SEED}.")],
                        description=SEED_HINT)


class PlanForm(IdempotentForm):
    seed = _seed_field()
    submit = SubmitField("Plan all sessions")


class DrawForm(IdempotentForm):
    # The session the page offered to draw: if another request drew it meanwhile, this one is refused
    # instead of drawing the session after it.
    number = HiddenField()
    seed = _seed_field()
    submit = SubmitField("Draw next session")


class RedrawForm(VersionedForm, IdempotentForm):
    seed = _seed_field()
    submit = SubmitField("Redraw this session")


class ReplanForm(IdempotentForm):
    submit = SubmitField("Re-plan them")


class SeparationForm(FlaskForm):
    separation = SelectField("Keep apart at a table", choices=choices(DRAW_SEPARATIONS))
    submit = SubmitField("Save")


class StatusForm(VersionedForm):
    status = HiddenField()
    submit = SubmitField("Change")


class SwapForm(VersionedForm):
    player_a = SelectField("Player", coerce=int, validators=[InputRequired("Choose a player.")])
    player_b = SelectField("Swap with", coerce=int, validators=[InputRequired("Choose a player.")],
                           description="Both change table and seat. A player not seated in this session takes the other's seat.")
    submit = SubmitField("Swap and recheck quality")
