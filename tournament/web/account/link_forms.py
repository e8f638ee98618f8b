"""Forms of the pages opened by a link: accepting an invitation, choosing a new password, asking for a link."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, StringField, SubmitField
from wtforms.validators import DataRequired, EqualTo, Length

from tournament.services.people.invitations import MAX_NAME_LENGTH
from tournament.services.people.users import MAX_PASSWORD_LENGTH

PASSWORD_RULES = _l("At least 8 characters; not a common password (digits or a year added do not help), no "
                    "mahjong or tournament words, not your email address. A few unrelated words work well.")


def _new_password(label: str) -> PasswordField:
    return PasswordField(label, validators=[DataRequired(_l("Choose a password.")), Length(max=MAX_PASSWORD_LENGTH)],
                         description=PASSWORD_RULES, render_kw={"autocomplete": "new-password"})


def _again() -> PasswordField:
    return PasswordField(_l("Password again"),
                         validators=[DataRequired(_l("Enter the password again.")),
                                     EqualTo("password", _l("The two passwords differ."))],
                         render_kw={"autocomplete": "new-password"})


class NewAccountForm(FlaskForm):
    """An invitation to an address with no account: the name and password of the new account."""

    name = StringField(_l("Your name"), validators=[DataRequired(_l("Enter your name as the other staff will see it.")),
                                                Length(max=MAX_NAME_LENGTH)],
                       description=_l("As the other staff and the score history will show it."),
                       render_kw={"autocomplete": "name"})
    password = _new_password(_l("Choose a password"))
    confirm = _again()
    submit = SubmitField(_l("Create my account and join"))


class ExistingAccountForm(FlaskForm):
    """An invitation to an address that has an account: its password, to log in and join."""

    password = PasswordField(_l("Password"), validators=[DataRequired(_l("Enter your password."))],
                             render_kw={"autocomplete": "current-password"})
    submit = SubmitField(_l("Log in and join"))


class JoinForm(FlaskForm):
    """An invitation opened while logged in to the invited account: one button."""

    submit = SubmitField(_l("Join the staff"))


class ForgotPasswordForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(_l("Enter your email address.")), Length(max=254)],
                       render_kw={"autocomplete": "email"})
    submit = SubmitField(_l("Send me a link"))


class NewPasswordForm(FlaskForm):
    password = _new_password(_l("New password"))
    confirm = _again()
    submit = SubmitField(_l("Set the new password"))
