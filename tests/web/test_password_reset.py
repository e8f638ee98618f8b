"""Password reset by a link: "Forgot your password?" on the login page (mailed when a mail server is set, the
same answer for any address, limited per network address and per account) and an organiser's link for their
staff. A link works once, expires, and ends every other login of the account."""

from __future__ import annotations

import re
from datetime import timedelta
from urllib.parse import urlsplit

from tests.helpers import PASSWORD, OtherBrowser, make_tournament, make_user, post_form
from tournament.extensions import db
from tournament.models._common import utcnow
from tournament.services.people import password_resets
from tournament.services.people import users as user_service
from tournament.services.people.tournaments import add_staff

NEW = "violet-lantern-harbour"
LINK_RE = re.compile(r'id="new-link-url"[^>]*value="([^"]+)"')
URL_RE = re.compile(r"https?://\S+/reset-password/\S+")


def forgot(client, email: str):
    return post_form(client, "/forgot-password", {"email": email}, form_url="/login", buffered=True)


def answer(response) -> str:
    return re.search(r'id="reset-sent">(.*?)</div>', response.get_data(as_text=True), re.S).group(1)


def test_the_login_page_links_to_forgot_your_password(client):
    html = client.get("/login").get_data(as_text=True)
    assert 'href="/forgot-password"' in html and "Forgot your password?" in html


def test_without_mail_the_page_says_whom_to_ask(client, referee):
    page = client.get("/forgot-password")
    assert page.status_code == 200 and "Ask an organiser of your tournament" in page.get_data(as_text=True)
    assert 'name="email"' not in page.get_data(as_text=True)
    assert forgot(client, referee.email).status_code == 400


def test_the_same_answer_whether_or_not_the_address_has_an_account(client, referee, mail_server):
    known = forgot(client, referee.email)
    unknown = forgot(client, "nobody@example.org")
    assert known.status_code == unknown.status_code == 200
    assert answer(known).replace(referee.email, "X") == answer(unknown).replace("nobody@example.org", "X")
    assert len(mail_server) == 1
    message = mail_server[0]
    assert message.recipients == [referee.email] and "60 minutes" in message.body
    assert URL_RE.search(message.body)


def test_a_bad_address_is_a_400_next_to_the_field(client, mail_server):
    response = forgot(client, "")
    assert response.status_code == 400 and 'id="email-error">Enter your email address.' in response.get_data(
        as_text=True)
    assert mail_server == []


def test_requests_are_limited_per_network_address_and_per_account(app, client, referee, mail_server):
    for _ in range(password_resets.MAX_REQUESTS_PER_HOUR + 1):
        assert forgot(client, referee.email).status_code == 200
    assert len(mail_server) == password_resets.MAX_REQUESTS_PER_HOUR  # the fourth asked, none sent
    app.config["LOGIN_FAILURES_PER_ADDRESS"] = password_resets.MAX_REQUESTS_PER_HOUR + 2
    forgot(client, "someone@example.org")
    throttled = forgot(client, "someone@example.org")
    assert throttled.status_code == 429 and int(throttled.headers["Retry-After"]) > 0
    assert "Too many requests from your network address" in throttled.get_data(as_text=True)


def test_the_mailed_link_sets_a_new_password_once_and_ends_every_other_login(app, client, referee, mail_server):
    phone = OtherBrowser(app)
    assert phone.post_form("/login", {"email": referee.email, "password": PASSWORD}).status_code == 302
    assert phone.get("/account").status_code == 200
    _, token = user_service.create_api_token(referee, "tablet")
    db.session.commit()
    forgot(client, referee.email)
    path = urlsplit(URL_RE.search(mail_server[0].body).group(0)).path

    page = client.get(path)
    assert page.status_code == 200 and page.headers["Referrer-Policy"] == "no-referrer"
    html = page.get_data(as_text=True)
    assert ">New password</label>" in html and ">Password again</label>" in html and referee.email in html
    weak = post_form(client, path, {"password": "mahjong2025", "confirm": "mahjong2025"})
    assert weak.status_code == 400 and 'id="password-error"' in weak.get_data(as_text=True)

    done = post_form(client, path, {"password": NEW, "confirm": NEW})
    assert done.status_code == 302 and done.headers["Location"].endswith("/manage")
    assert client.get("/account").status_code == 200  # this browser is logged in with the new password
    assert phone.get("/account").status_code == 302  # the phone's login has ended
    assert client.get("/api/v1/tournaments", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    for password, status in ((PASSWORD, 401), (NEW, 302)):
        assert OtherBrowser(app).post_form("/login", {"email": referee.email, "password": password}).status_code \
            == status

    again = OtherBrowser(app).get(path)
    assert again.status_code == 410 and "This link has been used" in again.get_data(as_text=True)


def test_expired_and_unknown_links_get_a_clear_page(client, referee):
    _, token = password_resets.requested(referee.email)
    password_resets.reset_for_token(token).expires_at = utcnow() - timedelta(seconds=1)
    db.session.commit()
    expired = client.get(f"/reset-password/{token}")
    assert expired.status_code == 410 and "This link has expired" in expired.get_data(as_text=True)
    assert "Forgot your password?" in expired.get_data(as_text=True)
    posted = post_form(client, f"/reset-password/{token}", {"password": NEW, "confirm": NEW}, form_url="/login")
    assert posted.status_code == 410
    unknown = client.get("/reset-password/not-a-token")
    assert unknown.status_code == 404 and "This link does not work" in unknown.get_data(as_text=True)
    assert user_service.authenticate(referee.email, PASSWORD) is referee


def test_an_organiser_makes_a_link_for_a_staff_member(app, organiser_client, tournament, referee):
    member = add_staff(tournament, referee.email, "referee")
    db.session.commit()
    url = f"/manage/tournaments/{tournament.id}/staff/{member.id}/reset-link"
    response = post_form(organiser_client, url, {}, form_url=f"/manage/tournaments/{tournament.id}")
    assert response.status_code == 200
    assert "Password link for rafael@example.org created" in response.get_data(as_text=True)
    path = urlsplit(LINK_RE.search(response.get_data(as_text=True)).group(1)).path
    referee_browser = OtherBrowser(app)
    assert referee_browser.post_form(path, {"password": NEW, "confirm": NEW}).status_code == 302
    assert user_service.authenticate(referee.email, NEW) is referee


def test_with_mail_the_organisers_link_goes_to_the_member_only(app, organiser_client, tournament, referee,
                                                              mail_server):
    member = add_staff(tournament, referee.email, "referee")
    db.session.commit()
    url = f"/manage/tournaments/{tournament.id}/staff/{member.id}/reset-link"
    response = post_form(organiser_client, url, {}, form_url=f"/manage/tournaments/{tournament.id}", buffered=True)
    assert response.status_code == 200 and "sent to that address only" in response.get_data(as_text=True)
    assert LINK_RE.search(response.get_data(as_text=True)) is None
    assert [m.recipients for m in mail_server] == [[referee.email]]
    assert "An organiser of Helsinki Open" in mail_server[0].body


def test_an_organisers_link_only_for_their_staff_and_not_themselves(app, client, auth, tournament, organiser,
                                                                   referee):
    member = add_staff(tournament, referee.email, "referee")
    own = next(m for m in tournament.staff if m.user_id == organiser.id)
    other = make_tournament(make_user("otto@example.org", "organiser"), name="Other Open")
    db.session.commit()
    base = f"/manage/tournaments/{tournament.id}"
    auth.login(organiser)
    itself = post_form(client, f"{base}/staff/{own.id}/reset-link", {}, form_url=base)
    assert itself.status_code == 400 and "your account page" in itself.get_data(as_text=True)
    assert post_form(client, f"/manage/tournaments/{other.id}/staff/{member.id}/reset-link", {},
                     form_url=base).status_code == 403
    assert post_form(client, f"{base}/staff/999999/reset-link", {}, form_url=base).status_code == 404
    auth.logout()
    auth.login(referee)
    assert post_form(client, f"{base}/staff/{own.id}/reset-link", {}, form_url=base).status_code == 403


def test_without_mail_no_organiser_gets_a_link_to_another_organisers_account(organiser_client, tournament):
    """A shown link would let one organiser take over another's account (which may run other tournaments):
    without mail, only referees' links are shown; an organiser's goes to their own mailbox or nowhere."""
    other = make_user("olga@example.org", "organiser")
    member = add_staff(tournament, other.email, "referee")  # an organiser's account, on this staff as referee
    db.session.commit()
    url = f"/manage/tournaments/{tournament.id}/staff/{member.id}/reset-link"
    response = post_form(organiser_client, url, {}, form_url=f"/manage/tournaments/{tournament.id}")
    assert response.status_code == 403 and "goes only to their own mailbox" in response.get_data(as_text=True)
    assert LINK_RE.search(response.get_data(as_text=True)) is None


def test_the_mail_speaks_the_accounts_language(client, referee, mail_server):
    # the account reads the pages in Swedish: its reset mail is Swedish, whatever the page asking for it was
    referee.language = "sv"
    db.session.commit()
    assert forgot(client, referee.email).status_code == 200
    [message] = mail_server
    assert message.subject == "Välj ett nytt lösenord"
    assert "Länken fungerar en gång, i 60 minuter." in message.body and "minutes" not in message.body
    assert URL_RE.search(message.body)
