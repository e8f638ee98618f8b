from flask_wtf import FlaskForm
from wtforms import StringField, SubmitField
from wtforms.validators import DataRequired, Length


class TokenForm(FlaskForm):
    name = StringField(
        "Token name",
        validators=[DataRequired("Give the token a name."), Length(max=80)],
        description="For example the tablet or script that will use it.",
    )
    submit = SubmitField("Create token")


class RevokeForm(FlaskForm):
    submit = SubmitField("Revoke")
