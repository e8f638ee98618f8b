from tests.helpers import PASSWORD, csrf_token, login, make_user, post_form
from tournament.extensions import db


def test_login_page_renders_labelled_fields(client):
    html = client.get("/login").get_data(as_text=True)
    assert '<label for="email">Email</label>' in html
    assert '<label for="password">Password</label>' in html


def test_login_and_logout(client, organiser):
    response = login(client, organiser.email)
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/manage")
    page = client.get("/manage").get_data(as_text=True)
    assert "My events" in page
    token = csrf_token(client, "/manage")
    response = client.post("/logout", data={"csrf_token": token})
    assert response.status_code == 302
    assert client.get("/manage").status_code == 302  # back to the login page


def test_wrong_password_is_refused_with_message_next_to_field(client, organiser):
    response = login(client, organiser.email, "not-the-password")
    assert response.status_code == 401
    html = response.get_data(as_text=True)
    assert 'id="password-error"' in html
    assert "Wrong email or password." in html
    assert client.get("/manage").status_code == 302


def test_unknown_email_gets_the_same_answer(client):
    response = login(client, "nobody@example.org")
    assert response.status_code == 401
    assert "Wrong email or password." in response.get_data(as_text=True)


def test_inactive_account_cannot_log_in(client, app_ctx):
    from tournament.extensions import db

    user = make_user("gone@example.org", "referee")
    user.active = False
    db.session.commit()
    assert login(client, "gone@example.org", PASSWORD).status_code == 401


def test_missing_csrf_token_is_refused(client, organiser):
    response = client.post("/login", data={"email": organiser.email, "password": PASSWORD})
    assert response.status_code == 400
    assert "security token" in response.get_data(as_text=True)
    assert client.get("/manage").status_code == 302


def test_login_does_not_redirect_off_site(client, organiser):
    response = post_form(client, "/login?next=https://evil.example/x", {"email": organiser.email, "password": PASSWORD},
                         form_url="/login")
    assert response.status_code == 302
    assert "evil.example" not in response.headers["Location"]


def test_login_follows_local_next(client, organiser):
    response = post_form(client, "/login?next=/account", {"email": organiser.email, "password": PASSWORD},
                         form_url="/login")
    assert response.headers["Location"] == "/account"


def test_empty_login_form_shows_errors(client):
    response = post_form(client, "/login", {"email": "", "password": ""})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "Enter your email address." in html
    assert "Enter your password." in html


def test_the_default_token_name_is_worded_for_the_reader(organiser_client, organiser, app_ctx):
    """`flask users token` names a token "command line" unless told: the account page says it in the reader's
    language; a name given with --name stays as typed."""
    from tournament.services.people import users as user_service

    user_service.create_api_token(organiser, "command line")
    user_service.create_api_token(organiser, "Tulospalvelu")
    db.session.commit()
    page = organiser_client.get("/account?lang=fi").get_data(as_text=True)
    assert "<td>komentorivi</td>" in page and "<td>Tulospalvelu</td>" in page and "command line" not in page
