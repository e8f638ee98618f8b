from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, EmailField, PasswordField, SubmitField
from wtforms.validators import DataRequired, Length


class LoginForm(FlaskForm):
    email = EmailField(_l("Email"), validators=[DataRequired(_l("Enter your email address.")), Length(max=254)])
    password = PasswordField(_l("Password"), validators=[DataRequired(_l("Enter your password."))])
    remember = BooleanField(_l("Keep me logged in on this device"))
    submit = SubmitField(_l("Log in"))
