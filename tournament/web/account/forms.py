from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import PasswordField, SelectField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length

from tournament.constants import LANGUAGES


class TokenForm(FlaskForm):
    name = StringField(
        _l("Token name"),
        validators=[DataRequired(_l("Give the token a name.")), Length(max=80)],
        description=_l("For example the tablet or script that will use it."),
    )
    submit = SubmitField(_l("Create token"))


class RevokeForm(FlaskForm):
    submit = SubmitField(_l("Revoke"))


class PasswordForm(FlaskForm):
    current_password = PasswordField(
        _l("Current password"), validators=[DataRequired(_l("Enter your current password."))],
        render_kw={"autocomplete": "current-password"},
    )
    new_password = PasswordField(
        _l("New password"),
        validators=[DataRequired(_l("Enter a new password.")), Length(max=200)],
        description=_l("At least 8 characters; not a common password (digits or a year added do not help), no "
                       "mahjong or tournament words, not your email address."),
        render_kw={"autocomplete": "new-password"},
    )
    confirm = PasswordField(
        _l("New password again"),
        validators=[DataRequired(_l("Enter the new password again.")),
                    EqualTo("new_password", _l("The two new passwords differ."))],
        render_kw={"autocomplete": "new-password"},
    )
    submit = SubmitField(_l("Change password"))


class LanguageForm(FlaskForm):
    # Each language named in itself, as in the footer's switcher; "": the browser's, as before a choice.
    language = SelectField(_l("Language of the pages"), default="",
                           choices=[("", _l("The browser's language")), *LANGUAGES.items()])
    submit = SubmitField(_l("Save language"))


class LogoutEverywhereForm(FlaskForm):
    submit = SubmitField(_l("Log out everywhere"))
