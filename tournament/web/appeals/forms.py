"""The appeal and decision forms (sent once each: IdempotentForm)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import IntegerField, SelectField, SubmitField, TextAreaField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from tournament.constants import MAX_ID
from tournament.models import HANDS_PER_SESSION, AppealDecision
from tournament.services.play.appeals import MAX_TEXT
from tournament.web.idempotency import IdempotentForm


class AppealForm(IdempotentForm):
    session = SelectField(_l("Session"), choices=[], validate_choice=False)
    table = IntegerField(_l("Table"), validators=[InputRequired(_l("Which table?")),
                                            NumberRange(1, MAX_ID, _l("A table number."))],
                         render_kw={"min": 1, "inputmode": "numeric"})
    hand = IntegerField(_l("Hand (optional)"), validators=[Optional(), NumberRange(
        1, HANDS_PER_SESSION, _l("1 to %(num)d.", num=HANDS_PER_SESSION))],
                        render_kw={"min": 1, "max": HANDS_PER_SESSION, "inputmode": "numeric"})
    player_id = SelectField(_l("Player who appeals"), choices=[], validate_choice=False)
    text = TextAreaField(_l("The appeal"), validators=[InputRequired(_l("Write what the player appeals against.")),
                                                   Length(max=MAX_TEXT)], render_kw={"rows": 3})
    submit = SubmitField(_l("File appeal"))


class DecisionForm(IdempotentForm):
    decision = SelectField(_l("Decision"), choices=[("", _l("Choose")), (AppealDecision.UPHELD.value, _l("Upheld")),
                                                   (AppealDecision.REJECTED.value, _l("Rejected"))],
                           validators=[InputRequired(_l("Upheld or rejected?"))])
    text = TextAreaField(_l("Reasons"), validators=[InputRequired(_l("Write the decision's reasons.")),
                                                 Length(max=MAX_TEXT)],
                         render_kw={"rows": 2})
    submit = SubmitField(_l("Record decision"))
