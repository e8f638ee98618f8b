"""Invitations from a tournament's staff section: the organiser invites an address, the link is shown (and
mailed when a mail server is set), the invited person chooses a name and password, or logs in to the account
they have, and lands logged in on the tournament. Used, expired and unknown links get a clear page."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from sqlalchemy import select

from tests.helpers import PASSWORD, OtherBrowser, csrf_token, make_tournament, make_user, post_form
from tournament.extensions import db, mail
from tournament.models import Role, User
from tournament.models._common import utcnow
from tournament.models.account_links import Invitation
from tournament.services.people import invitations
from tournament.services.people.tournaments import add_staff, staff_role
from tournament.services.people.users import start_login
from tournament.web.log_privacy import mask_link_tokens

LINK_RE = re.compile(r'id="new-link-url"[^>]*value="([^"]+)"')
NEW_PASSWORD = "violet-lantern-harbour"


def overview(t) -> str:
    return f"/manage/tournaments/{t.id}"


def invite(client, t, email: str, role: str = "referee", **kwargs):
    return post_form(client, f"{overview(t)}/invitations", {"invite-email": email, "invite-role": role},
                     form_url=overview(t), **kwargs)


def link_path(response) -> str:
    match = LINK_RE.search(response.get_data(as_text=True))
    assert match, "no link on the page"
    return urlsplit(match.group(1)).path


def test_an_invited_referee_sets_a_password_and_lands_on_the_tournament(app, organiser_client, tournament):
    response = invite(organiser_client, tournament, "Rita@Example.org")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert "Invitation for rita@example.org created" in page and "this site sends no email" in page
    assert 'for="new-link-url"' in page  # the link's field has its label
    path = link_path(response)
    assert path.startswith("/invitations/") and len(path.rsplit("/", 1)[1]) >= 43
    assert "rita@example.org" in organiser_client.get(overview(tournament)).get_data(as_text=True)  # open list

    guest = OtherBrowser(app)
    form = guest.get(path)
    assert form.status_code == 200
    assert form.headers["Cache-Control"] == "no-store" and form.headers["Referrer-Policy"] == "no-referrer"
    text = form.get_data(as_text=True)
    assert "Join the staff of Helsinki Open" in text and "referee" in text
    for label in ("Your name", "Choose a password", "Password again"):
        assert f">{label}</label>" in text
    joined = guest.post_form(path, {"name": "Rita Referee", "password": NEW_PASSWORD, "confirm": NEW_PASSWORD})
    assert joined.status_code == 302, re.sub(r"\s+", " ", joined.get_data(as_text=True))[-1500:]
    assert joined.headers["Location"].endswith(f"{overview(tournament)}#staff")
    landed = guest.get(overview(tournament))  # logged in, on the staff
    assert landed.status_code == 200 and "Rita Referee" in landed.get_data(as_text=True)
    rita = db.session.scalar(select(User).where(User.email == "rita@example.org"))
    assert rita.role == Role.REFEREE and staff_role(rita, tournament) == Role.REFEREE
    assert rita.last_login_at is not None

    again = OtherBrowser(app).get(path)
    assert again.status_code == 410 and "This link has been used" in again.get_data(as_text=True)


@pytest.mark.parametrize(("data", "field", "message"), [
    ({"name": "Rita", "password": "mahjong2025", "confirm": "mahjong2025"}, "password", "Mahjong"),
    ({"name": "Rita", "password": NEW_PASSWORD, "confirm": NEW_PASSWORD + "x"}, "confirm", "differ"),
    ({"name": "", "password": NEW_PASSWORD, "confirm": NEW_PASSWORD}, "name", "Enter your name"),
    ({"name": "Rita", "password": "short1", "confirm": "short1"}, "password", "at least 8"),
])
def test_a_refused_form_shows_the_error_next_to_the_field_and_keeps_the_link(app, tournament, organiser, data,
                                                                               field, message):
    _, token = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    db.session.commit()
    guest = OtherBrowser(app)
    response = guest.post_form(f"/invitations/{token}", data)
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    error = re.search(rf'id="{field}-error">([^<]*)<', html)
    assert error and message in error.group(1)
    assert f'aria-describedby="{field}-error"' in html or f'{field}-error"' in html
    assert db.session.scalar(select(User).where(User.email == "rita@example.org")) is None
    assert guest.get(f"/invitations/{token}").status_code == 200


def test_used_expired_and_unknown_links_get_a_clear_page(app, client, tournament, organiser):
    invitation, token = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    db.session.commit()
    unknown = client.get("/invitations/" + "A" * 43)
    assert unknown.status_code == 404 and "This link does not work" in unknown.get_data(as_text=True)
    assert "Ask the organiser who invited you" in unknown.get_data(as_text=True)
    assert client.get("/invitations/" + "x" * 3000).status_code in (404, 414)
    invitation.expires_at = utcnow() - timedelta(minutes=1)
    db.session.commit()
    for response in (client.get(f"/invitations/{token}"),
                     post_form(client, f"/invitations/{token}", {"name": "Rita", "password": NEW_PASSWORD,
                                                                 "confirm": NEW_PASSWORD}, form_url="/login")):
        assert response.status_code == 410
        assert "This link has expired" in response.get_data(as_text=True)
    assert db.session.scalar(select(User).where(User.email == "rita@example.org")) is None


def test_an_existing_account_logs_in_through_the_link_and_joins(app, organiser_client, tournament, referee):
    path = link_path(invite(organiser_client, tournament, referee.email))
    guest = OtherBrowser(app)
    page = guest.get(path).get_data(as_text=True)
    assert "You already have an account" in page and "Your name" not in page
    wrong = guest.post_form(path, {"password": "not-the-password"})
    assert wrong.status_code == 401 and 'id="password-error">Wrong password.' in wrong.get_data(as_text=True)
    assert staff_role(referee, tournament) is None
    joined = guest.post_form(path, {"password": PASSWORD})
    assert joined.status_code == 302, re.sub(r"\s+", " ", joined.get_data(as_text=True))[-1500:]
    db.session.refresh(tournament)
    assert staff_role(referee, tournament) == Role.REFEREE
    assert guest.get(overview(tournament)).status_code == 200  # logged in as the referee


def test_logged_in_as_the_invited_account_one_button_joins(app, client, auth, tournament, organiser, referee):
    _, token = invitations.invite(tournament, referee.email, "referee", organiser)
    db.session.commit()
    auth.login(referee)
    page = client.get(f"/invitations/{token}")
    assert page.status_code == 200 and "Join the staff" in page.get_data(as_text=True)
    assert post_form(client, f"/invitations/{token}", {}).status_code == 302
    db.session.refresh(tournament)
    assert staff_role(referee, tournament) == Role.REFEREE


def test_logged_in_as_someone_else_nobody_joins(client, auth, tournament, organiser, referee):
    _, token = invitations.invite(tournament, "rita@example.org", "referee", organiser)
    db.session.commit()
    auth.login(referee)
    page = client.get(f"/invitations/{token}")
    assert page.status_code == 409 and "this invitation is for rita@example.org" in page.get_data(as_text=True)
    assert post_form(client, f"/invitations/{token}", {}, form_url="/account").status_code == 409
    db.session.refresh(tournament)
    assert staff_role(referee, tournament) is None


def test_with_a_mail_server_the_invitation_is_also_mailed(app, organiser_client, tournament):
    app.config["MAIL_SERVER"] = "mail.example.org"
    with mail.record_messages() as outbox:
        response = invite(organiser_client, tournament, "rita@example.org", "organiser", buffered=True)
    assert response.status_code == 200 and "on its way by email" in response.get_data(as_text=True)
    assert len(outbox) == 1
    message = outbox[0]
    assert message.recipients == ["rita@example.org"] and "Helsinki Open" in message.subject
    assert link_path(response) in message.body and "as organiser" in message.body


def test_a_refused_invitation_sends_no_mail(app, organiser_client, tournament, organiser):
    app.config["MAIL_SERVER"] = "mail.example.org"
    with mail.record_messages() as outbox:
        response = invite(organiser_client, tournament, organiser.email, buffered=True)
    assert response.status_code == 400 and outbox == []
    assert 'id="invite-email-error">olivia@example.org is already on the staff.' in response.get_data(as_text=True)


@pytest.mark.parametrize(("data", "field"), [
    ({"invite-email": "", "invite-role": "referee"}, "invite-email"),
    ({"invite-email": "not an address", "invite-role": "referee"}, "invite-email"),
    ({"invite-email": "rita@example.org", "invite-role": "admin"}, "invite-role"),
])
def test_bad_invitations_are_a_400_with_the_error_next_to_the_field(organiser_client, tournament, data, field):
    response = post_form(organiser_client, f"{overview(tournament)}/invitations", data, form_url=overview(tournament))
    assert response.status_code == 400
    assert f'id="{field}-error"' in response.get_data(as_text=True)
    assert invitations.open_invitations(tournament) == []


def test_only_the_tournaments_organisers_invite(app, client, auth, tournament, organiser, referee):
    add_staff(tournament, referee.email, "referee")
    db.session.commit()
    auth.login(referee)
    token = csrf_token(client, overview(tournament))
    response = client.post(f"{overview(tournament)}/invitations",
                           data={"csrf_token": token, "invite-email": "x@example.org", "invite-role": "referee"})
    assert response.status_code == 403
    other_organiser = make_user("otto@example.org", "organiser")
    elsewhere = make_tournament(other_organiser, name="Other Open")
    auth.logout()
    auth.login(organiser)
    response = client.post(f"{overview(elsewhere)}/invitations",
                           data={"csrf_token": token, "invite-email": "x@example.org", "invite-role": "referee"})
    assert response.status_code == 403
    no_csrf = client.post(f"{overview(tournament)}/invitations",
                          data={"invite-email": "x@example.org", "invite-role": "referee"})
    assert no_csrf.status_code == 400
    assert db.session.scalar(select(Invitation)) is None


def test_renew_and_withdraw_from_the_staff_section(app, organiser_client, tournament):
    first = link_path(invite(organiser_client, tournament, "rita@example.org"))
    invitation = db.session.scalar(select(Invitation))
    renewed = post_form(organiser_client, f"{overview(tournament)}/invitations/{invitation.id}/renew", {},
                        form_url=overview(tournament))
    assert renewed.status_code == 200
    second = link_path(renewed)
    assert second != first
    assert OtherBrowser(app).get(first).status_code == 404
    withdrawn = post_form(organiser_client, f"{overview(tournament)}/invitations/{invitation.id}/withdraw", {},
                          form_url=overview(tournament), follow_redirects=True)
    assert "is withdrawn" in withdrawn.get_data(as_text=True)
    assert OtherBrowser(app).get(second).status_code == 404
    missing = post_form(organiser_client, f"{overview(tournament)}/invitations/{invitation.id}/renew", {},
                        form_url=overview(tournament))
    assert missing.status_code == 404


def test_adding_an_unknown_address_invites_it_and_a_bad_one_is_shown_next_to_its_field(organiser_client,
                                                                                       tournament):
    added = post_form(organiser_client, f"{overview(tournament)}/staff",
                      {"email": "ghost@example.org", "role": "organiser"}, form_url=overview(tournament))
    assert added.status_code == 200 and "Invitation for ghost@example.org created" in added.get_data(as_text=True)
    response = post_form(organiser_client, f"{overview(tournament)}/staff",
                         {"email": "not-an-address", "role": "organiser"}, form_url=overview(tournament))
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert 'id="email-error"' in html and "Not a valid email address" in html
    assert re.search(r'id="email"[^>]*value="not-an-address"', html)
    # sent again from that page, it goes back to the same address with the same field names
    assert f'action="{overview(tournament)}/staff"' in html
    assert re.search(r'<option selected value="organiser">|<option value="organiser" selected', html)


def test_the_staff_section_shows_last_activity_to_organisers_only(app, client, auth, tournament, organiser, referee):
    add_staff(tournament, referee.email, "referee")
    db.session.commit()
    auth.login(organiser)
    html = client.get(overview(tournament)).get_data(as_text=True)
    assert "rafael@example.org · Last active: never" in html
    start_login(referee)
    tournament.time_zone = "Asia/Shanghai"  # shown in the tournament's zone (UTC+8, no summer time)
    db.session.commit()
    html = client.get(overview(tournament)).get_data(as_text=True)
    shown = (referee.last_login_at + timedelta(hours=8)).strftime("%Y-%m-%d %H:%M")
    assert f"rafael@example.org · Last active: {shown}" in html and f"Login {shown}" in html
    auth.logout()
    auth.login(referee)
    html = client.get(overview(tournament)).get_data(as_text=True)
    assert "Last active" not in html and "Invite by email" not in html


def test_a_mail_server_that_refuses_is_logged_and_the_link_still_shown(app, organiser_client, tournament,
                                                                       monkeypatch, caplog):
    app.config["MAIL_SERVER"] = "mail.example.org"

    def refuse_connection(message):
        raise ConnectionRefusedError("mail server away")

    monkeypatch.setattr(mail, "send", refuse_connection)
    response = invite(organiser_client, tournament, "rita@example.org", buffered=True)
    assert response.status_code == 200 and link_path(response).startswith("/invitations/")
    assert "could not send" in caplog.text and "rita@example.org" in caplog.text
    assert len(invitations.open_invitations(tournament)) == 1


def test_invitation_and_password_links_are_masked_in_the_logs():
    token = "hherGZhYhyg0snXKHnAbCdEfGhIjKlMnOpQrStUvWxY"
    assert mask_link_tokens(f'"GET /invitations/{token} HTTP/1.1" 200') == '"GET /invitations/… HTTP/1.1" 200'
    assert mask_link_tokens(f"POST /reset-password/{token}") == "POST /reset-password/…"
    assert mask_link_tokens(f"/manage/tournaments/1/invitations/{3}/renew") == "/manage/tournaments/1/invitations/3/renew"


def test_the_invitation_mail_speaks_the_tournaments_language(app, organiser_client, tournament):
    # the person invited may have no account yet: the mail is in the tournament's language (Finnish here)
    app.config["MAIL_SERVER"] = "mail.example.org"
    tournament.language = "fi"
    db.session.commit()
    with mail.record_messages() as outbox:
        response = invite(organiser_client, tournament, "rita@example.org", "organiser", buffered=True)
    assert response.status_code == 200
    [message] = outbox
    assert "Helsinki Open" in message.subject and "Join the staff" not in message.subject
    assert "Hei," in message.body and "Linkki toimii kerran, 7 päivän ajan." in message.body
    assert "invites you" not in message.body and link_path(response) in message.body


def test_an_invited_account_joins_with_its_password_from_an_address_over_the_login_limit(app, tournament, referee):
    """A venue behind one NAT whose address someone used up with guesses: the invited referee's own password
    still opens the invitation (a wrong one is a 429 with Retry-After, as on the login page)."""
    from tournament.models.users import LoginAttempt

    nat = "198.51.100.9"
    limit = app.config["LOGIN_FAILURES_PER_ADDRESS"]
    db.session.execute(LoginAttempt.__table__.insert(), [
        {"email": f"player{i}@example.org", "address": nat, "created_at": utcnow()} for i in range(limit)])
    _, token = invitations.invite(tournament, referee.email, "referee", None)
    db.session.commit()
    guest = OtherBrowser(app)
    path = f"/invitations/{token}"
    wrong = guest.post_form(path, {"password": "not-it"}, environ_base={"REMOTE_ADDR": nat})
    assert wrong.status_code == 429 and int(wrong.headers["Retry-After"]) > 0
    joined = guest.post_form(path, {"password": PASSWORD}, environ_base={"REMOTE_ADDR": nat})
    assert joined.status_code == 302, re.sub(r"\s+", " ", joined.get_data(as_text=True))[-1500:]
    assert staff_role(referee, tournament) == "referee"
