"""The appeal and decision forms (sent once each: IdempotentForm)."""

from __future__ import annotations

from wtforms import IntegerField, SelectField, SubmitField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from tournament.constants import MAX_ID
from tournament.models import HANDS_PER_SESSION, AppealDecision
from tournament.services.appeals import MAX_TEXT
from tournament.web.idempotency import IdempotentForm


class AppealForm(IdempotentForm):
    session = SelectField("Session", choices=[], validate_choice=False)
    table = IntegerField("Table", validators=[InputRequired("Which table?"), NumberRange(1, MAX_ID, "A table number.")],
                         render_kw={"min": 1, "inputmode": "numeric"})
    hand = IntegerField("Hand (optional)", validators=[Optional(), NumberRange(1, HANDS_PER_SESSION,
                                                                               f"1 to {HANDS_PER_SESSION}.")],
                        render_kw={"min": 1, "max": HANDS_PER_SESSION, "inputmode": "numeric"})
    player_id = SelectField("Player who appeals", choices=[], validate_choice=False)
    text = TextAreaField("The appeal", validators=[InputRequired("Write what the player appeals against."),
                                                   Length(max=MAX_TEXT)], render_kw={"rows": 3})
    submit = SubmitField("File appeal")


class DecisionForm(IdempotentForm):
    decision = SelectField("Decision", choices=[("", "Choose"), *[(d.value, d.value.capitalize())
                                                                  for d in AppealDecision]],
                           validators=[InputRequired("Upheld or rejected?")])
    text = TextAreaField("Reasons", validators=[InputRequired("Write the decision's reasons."), Length(max=MAX_TEXT)],
                         render_kw={"rows": 2})
    submit = SubmitField("Record decision")
