"""The player's page forms: confirming a hand and disputing one."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import TextAreaField
from wtforms.validators import DataRequired, Length


class ConfirmForm(FlaskForm):
    """Confirming twice changes nothing, so no idempotency key is needed."""


class DisputeForm(FlaskForm):
    """Disputing again replaces the player's own open dispute's reason: a double send stores one dispute."""

    reason = TextAreaField(_l("What is wrong with this hand?"),
                           validators=[DataRequired(_l("Say what is wrong: the referee reads it.")), Length(max=500)],
                           render_kw={"rows": 2, "maxlength": 500})
