from sqlalchemy import select

from tests.helpers import post_form
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.people.users import create_api_token


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_token_created_on_account_page_works_once_shown(organiser_client, organiser):
    response = post_form(organiser_client, "/account/tokens", {"name": "Score tablet"}, form_url="/account")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    token = html.split('id="new-token">')[1].split("<")[0]
    assert token.startswith("mcr_")
    me = organiser_client.get("/api/v1/me", headers=bearer(token))
    assert me.status_code == 200
    assert me.get_json()["email"] == organiser.email
    # Shown once: the account page no longer contains it.
    assert token not in organiser_client.get("/account").get_data(as_text=True)


def test_api_refuses_missing_wrong_and_revoked_tokens(client, organiser, app_ctx):
    assert client.get("/api/v1/me").status_code == 401
    assert client.get("/api/v1/me", headers=bearer("mcr_wrong")).status_code == 401
    token, plain = create_api_token(organiser, "laptop")
    assert client.get("/api/v1/me", headers=bearer(plain)).status_code == 200
    from tournament.services.people.users import revoke_api_token

    revoke_api_token(organiser, token.id)
    response = client.get("/api/v1/me", headers=bearer(plain))
    assert response.status_code == 401
    assert "revoked" in response.get_json()["error"]


def test_api_creates_tournament_and_validates(client, organiser, app_ctx):
    _, plain = create_api_token(organiser, "script")
    response = client.post("/api/v1/tournaments", json={"name": "API Open", "session_count": 5}, headers=bearer(plain))
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["session_count"] == 5
    bad = client.post("/api/v1/tournaments", json={"name": "", "session_count": 0}, headers=bearer(plain))
    assert bad.status_code == 400
    assert bad.get_json() == {"error": "The tournament needs a name.", "field": "name"}
    assert client.post("/api/v1/tournaments", data="not json", headers=bearer(plain)).status_code == 400
    bad_date = client.post("/api/v1/tournaments", json={"name": "X", "start_date": "soon"}, headers=bearer(plain))
    assert bad_date.status_code == 422
    assert bad_date.get_json()["field"] == "start_date"
    assert [t.name for t in db.session.scalars(select(Tournament))] == ["API Open"]


def test_api_referee_cannot_create(client, referee, app_ctx):
    _, plain = create_api_token(referee, "tablet")
    response = client.post("/api/v1/tournaments", json={"name": "X"}, headers=bearer(plain))
    assert response.status_code == 403


def test_api_lists_tournaments(client, tournament, organiser, app_ctx):
    _, plain = create_api_token(organiser, "script")
    data = client.get("/api/v1/tournaments", headers=bearer(plain)).get_json()
    assert [t["name"] for t in data["tournaments"]] == ["Helsinki Open"]
    assert client.get("/api/v1/tournaments/99999", headers=bearer(plain)).status_code == 404


def test_cli_token_prints_a_working_token_alone_on_its_last_line(app, client, runner, organiser):
    result = runner.invoke(args=["users", "token", organiser.email, "--name", "checks"])
    assert result.exit_code == 0, result.output
    token = result.output.splitlines()[-1]
    assert token.startswith("mcr_") and " " not in token
    me = client.get("/api/v1/me", headers=bearer(token))
    assert me.status_code == 200 and me.get_json()["email"] == organiser.email


def test_cli_token_for_unknown_email_fails(runner, app_ctx):
    result = runner.invoke(args=["users", "token", "nobody@example.org"])
    assert result.exit_code != 0
    assert "nobody@example.org" in result.output


def test_a_token_records_its_last_use_at_most_once_a_minute(app_ctx, organiser):
    from datetime import timedelta

    from tournament.services.people import users as user_service

    token, plain = user_service.create_api_token(organiser, "phone")
    user_service.user_for_token(plain)
    first = token.last_used_at
    assert first is not None
    user_service.user_for_token(plain)
    assert token.last_used_at == first  # polling does not write on every request
    token.last_used_at = first - timedelta(minutes=2)
    user_service.user_for_token(plain)
    assert token.last_used_at > first
