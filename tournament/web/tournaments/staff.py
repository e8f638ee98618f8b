"""The staff section of a tournament's overview: its forms, what it shows, and the links it hands out.

An invitation's or a reset's link is shown once, on the page that answers the organiser's post (never
flashed: the session cookie is signed, not secret), and mailed as well when this installation sends mail.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template, url_for
from flask_babel import force_locale
from flask_babel import lazy_gettext as _l
from flask_login import current_user
from flask_wtf import FlaskForm
from wtforms import EmailField, SelectField, SubmitField
from wtforms.validators import DataRequired, Length

from tournament.models import Role, Tournament, User
from tournament.services.people import invitations as invitation_service
from tournament.services.people import password_resets
from tournament.services.people import tournaments as tournament_service
from tournament.services.people.invitations import INVITATION_LIFETIME
from tournament.services.people.password_resets import RESET_LIFETIME
from tournament.services.people.staff_activity import staff_activity
from tournament.web import mailer
from tournament.web.forms import choices
from tournament.web.tournaments.forms import ROLE_LABELS, ConfirmForm


class InviteForm(FlaskForm):
    # Not an IdempotentForm: a replayed answer would be the page with the link, kept in the database.
    email = EmailField(_l("Email address to invite"),
                       validators=[DataRequired(_l("Enter the email address to invite.")), Length(max=254)],
                       description=_l("With or without an account here: they choose a name and a password, or log "
                                      "in to the account they have, through the link."))
    role = SelectField(_l("Invite as"), choices=choices(ROLE_LABELS), default=Role.REFEREE.value)
    submit = SubmitField(_l("Create invitation"))

    def __init__(self, *args, **kwargs):
        # Its fields sit on the page beside the staff form's (email, role): distinct names and ids.
        kwargs.setdefault("prefix", "invite")
        super().__init__(*args, **kwargs)


class LinkButtonForm(FlaskForm):
    """A CSRF-protected button that makes a link (a new invitation link, a password-reset link)."""

    submit = SubmitField(_l("New link"))


@dataclass(frozen=True)
class NewLink:
    """A link just made, shown once to the organiser."""

    what: str  # "invitation" or "reset"
    url: str
    email: str
    mailed: bool
    hours: int


def invitation_link(token: str, email: str, t: Tournament, role: str, inviter: User) -> NewLink:
    url = url_for("invitations.accept", token=token, _external=True)
    # in the tournament's language: the person invited may have no account (and no language) yet
    with force_locale(t.language):
        role_word = str(ROLE_LABELS.get(role, role)).lower()
    mailer.queue(email, _l("Join the staff of %(name)s", name=t.name), "account/invitation_email.txt",
                 language=t.language, url=url, tournament=t, role=role_word, inviter=inviter,
                 days=INVITATION_LIFETIME.days)
    return NewLink("invitation", url, email, mailer.configured(), int(INVITATION_LIFETIME.total_seconds() // 3600))


def reset_link(token: str, user: User, t: Tournament) -> NewLink:
    url = url_for("password_reset.reset", token=token, _external=True)
    mailer.queue(user.email, _l("Choose a new password"), "auth/reset_email.txt", language=user.language or t.language,
                 url=url, user=user, tournament=t, minutes=int(RESET_LIFETIME.total_seconds() // 60))
    # When the mail goes to the account's own address, the organiser is not shown the link: only its owner
    # may use it. Without mail the organiser hands it over (in person, by message).
    return NewLink("reset", "" if mailer.configured() else url, user.email, mailer.configured(),
                   int(RESET_LIFETIME.total_seconds() // 3600))


def overview_page(t: Tournament, status: int = 200, **context):
    """The tournament's overview, with the staff section's forms, invitations and activity."""
    manages = tournament_service.can_manage(current_user, t)
    page = {
        "tournament": t,
        "confirm_form": ConfirmForm(),
        "invite_form": InviteForm(formdata=None),
        "link_form": LinkButtonForm(),
        # Only its organisers see who was invited and when the staff were last active.
        "invitations": invitation_service.open_invitations(t) if manages else [],
        "activity": staff_activity(t) if manages else {},
        # Without mail a password link is shown to the organiser: offered only where that may be done.
        "password_link_for": {m.id for m in t.staff if m.user_id != current_user.id and (
            mailer.configured() or password_resets.link_may_be_shown(t, m) is None)} if manages else set(),
        "new_link": None,
        "mail_configured": mailer.configured(),
    }
    page.update(context)
    return render_template("tournaments/overview.html", **page), status
