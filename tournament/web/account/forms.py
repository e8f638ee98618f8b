from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length

from tournament.i18n import LANGUAGES


class TokenForm(FlaskForm):
    name = StringField(
        "Token name",
        validators=[DataRequired("Give the token a name."), Length(max=80)],
        description="For example the tablet or script that will use it.",
    )
    submit = SubmitField("Create token")


class RevokeForm(FlaskForm):
    submit = SubmitField("Revoke")


class PasswordForm(FlaskForm):
    current_password = PasswordField(
        "Current password", validators=[DataRequired("Enter your current password.")],
        render_kw={"autocomplete": "current-password"},
    )
    new_password = PasswordField(
        "New password",
        validators=[DataRequired("Enter a new password."), Length(max=200)],
        description="At least 8 characters; not a common password (digits or a year added do not help), no "
                    "mahjong or tournament words, not your email address.",
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        "New password again",
        validators=[DataRequired("Enter the new password again."),
                    EqualTo("new_password", "The two new passwords differ.")],
        render_kw={"autocomplete": "new-password"},
    )
    submit = SubmitField("Change password")


class LanguageForm(FlaskForm):
    # Each language named in itself, as in the footer's switcher; "": the browser's, as before a choice.
    language = SelectField("Language of the pages", default="",
                           choices=[("", "The browser's language"), *LANGUAGES.items()])
    submit = SubmitField("Save language")


class LogoutEverywhereForm(FlaskForm):
    submit = SubmitField("Log out everywhere")
