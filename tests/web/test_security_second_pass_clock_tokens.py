"""Issue 22, items 3, 5, 8 and 11: no start of play through the clock, one clock start under a race, API tokens
that end with the password or "log out everywhere", and a totals form without its version refused."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import partial

import pytest
from sqlalchemy import func, select

from tests.helpers import PASSWORD, login, post_form
from tests.web.race_harness import POSTGRES_ONLY, ROUNDS, Browser, live_server, statuses, together
from tournament.extensions import db
from tournament.models import ApiToken, ClockEvent, TableTotal
from tournament.services import ConflictError
from tournament.services.people import users as user_service
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle

NEW_PASSWORD = "tile-wall-dragon-77"


def at(minutes: int) -> datetime:
    return datetime(2026, 5, 1, 10, 0) + timedelta(minutes=minutes)


def api_token(user, name: str = "tests") -> str:
    _, plain = user_service.create_api_token(user, name)
    db.session.commit()
    return plain


def bearer(plain: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {plain}"}


def clock_events(session_number: int, t) -> list[str]:
    db.session.expire_all()
    session = play.get_session(t, session_number)
    return list(db.session.scalars(select(ClockEvent.kind).where(ClockEvent.session_id == session.id)))


# ----------------------------------------------------------------------------- item 3: the clock of a draft


def test_a_referee_cannot_put_a_draft_session_in_play_through_its_clock_api(client, session_two_draft):
    t, referee = session_two_draft
    headers = bearer(api_token(referee))
    assert client.post(f"/api/v1/tournaments/{t.id}/sessions/2/start", json={}, headers=headers).status_code == 403
    answer = client.post(f"/api/v1/tournaments/{t.id}/sessions/2/clock/start", json={}, headers=headers)
    assert answer.status_code == 409, answer.get_json()
    assert "not in play" in answer.get_json()["error"]
    db.session.expire_all()
    assert play.get_session(t, 2).status == "draft"
    assert clock_events(2, t) == []
    # The session in play keeps its clock.
    assert client.post(f"/api/v1/tournaments/{t.id}/sessions/1/clock/start", json={},
                       headers=headers).status_code == 200


def test_the_clock_page_of_a_draft_session_has_no_start_and_refuses_one(client, session_two_draft):
    t, referee = session_two_draft
    login(client, referee.email)
    url = f"/manage/tournaments/{t.id}/play/2/clock"
    page = client.get(url).get_data(as_text=True)
    assert "Start the clock" not in page and "not in play" in page
    answer = post_form(client, url + "/start", {}, form_url=url, follow_redirects=True)
    assert "not in play" in answer.get_data(as_text=True)
    db.session.expire_all()
    assert play.get_session(t, 2).status == "draft" and clock_events(2, t) == []


def test_a_published_session_and_a_finished_one_keep_their_clock_still(session_two_draft, organiser):
    t, _ = session_two_draft
    lifecycle.set_status(play.get_session(t, 2), "published")
    with pytest.raises(ConflictError, match="Session 2 is published, not in play"):
        clock.start(t, 2, organiser, now=at(0))
    clock.start(t, 1, organiser, now=at(0))
    clock.pause(t, 1, organiser, now=at(5))
    lifecycle.finish_session(t, 1, force=True)
    with pytest.raises(ConflictError, match="Session 1 is finished, not in play"):
        clock.resume(t, 1, organiser, now=at(6))
    # finishing the session stopped its clock (issue 32): the End it recorded, nothing after
    assert clock_events(1, t) == ["start", "pause", "end"]


# ----------------------------------------------------------------------------- item 11: one start stored


def test_a_start_stamped_before_a_stored_one_is_refused(session_two_draft, organiser):
    # The race's mechanism, without threads: a request that read the time before it waited for the lock
    # holds an earlier "now" than the start stored meanwhile. It must still see that start.
    t, _ = session_two_draft
    clock.start(t, 1, organiser, now=at(10))
    with pytest.raises(ConflictError, match="already started"):
        clock.start(t, 1, organiser, now=at(9))
    assert clock_events(1, t) == ["start"]


@pytest.mark.postgres
@POSTGRES_ONLY
def test_six_concurrent_clock_starts_store_one_start(app, session_two_draft, organiser):
    t, referee = session_two_draft
    tokens = [api_token(organiser, "desk"), api_token(referee, "phone")]
    t.session_count = 2 + ROUNDS
    sessions = []
    for number in range(3, 3 + ROUNDS):
        draw_service.draw_next(t, seed=number)
        lifecycle.start_session(t, number)
        sessions.append(number)
    db.session.commit()
    with live_server(app) as url:
        screens = [Browser(url, tokens[i % 2]) for i in range(6)]
        for number in sessions:
            path = f"/tournaments/{t.id}/sessions/{number}/clock/start"
            answers = together(*[partial(screen.api, "POST", path, {}) for screen in screens])
            assert statuses(answers) == [200] + [409] * 5, [(a.status, a.body) for a in answers]
            assert all("already started" in a.json()["error"] for a in answers if a.status == 409)
            assert clock_events(number, t) == ["start"]


# ----------------------------------------------------------------------------- item 5: tokens end too


def _me(client, plain: str) -> int:
    return client.get("/api/v1/me", headers=bearer(plain)).status_code


def _live_tokens(user) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(ApiToken).where(
        ApiToken.user_id == user.id, ApiToken.revoked_at.is_(None)))


def test_a_password_reset_on_the_command_line_ends_the_api_tokens(app, client, runner, organiser):
    plain, other = api_token(organiser, "laptop"), api_token(organiser, "tablet")
    assert _me(client, plain) == 200
    result = runner.invoke(args=["users", "password", organiser.email, "--password", NEW_PASSWORD])
    assert result.exit_code == 0, result.output
    assert "2 API tokens revoked" in result.output
    assert _me(client, plain) == 401 and _me(client, other) == 401
    assert client.post("/api/v1/tournaments", json={"name": "Sneaky Open"}, headers=bearer(plain)).status_code == 401
    assert _live_tokens(organiser) == 0


def test_a_password_change_on_the_account_page_ends_the_api_tokens(app, client, organiser):
    plain = api_token(organiser)
    login(client, organiser.email)
    page = client.get("/account").get_data(as_text=True)
    assert "revokes every API token" in page
    change = {"current_password": PASSWORD, "new_password": NEW_PASSWORD, "confirm": NEW_PASSWORD}
    answer = post_form(client, "/account/password", change, form_url="/account", follow_redirects=True)
    assert "1 API token revoked" in answer.get_data(as_text=True)
    assert _me(client, plain) == 401
    # A new token made afterwards works.
    assert _me(client, api_token(organiser, "new")) == 200


def test_a_refused_password_change_keeps_the_tokens(app, client, organiser):
    plain = api_token(organiser)
    login(client, organiser.email)
    bad = {"current_password": "not-my-password", "new_password": NEW_PASSWORD, "confirm": NEW_PASSWORD}
    assert post_form(client, "/account/password", bad, form_url="/account").status_code == 400
    assert _me(client, plain) == 200


def test_log_out_everywhere_ends_the_api_tokens(app, client, organiser, referee):
    plain, others = api_token(organiser), api_token(referee)
    login(client, organiser.email)
    assert "every API token is revoked" in client.get("/account").get_data(as_text=True)
    answer = post_form(client, "/account/logout-everywhere", {}, form_url="/account", follow_redirects=True)
    assert re.search(r"1 login ended, 1 API token revoked", answer.get_data(as_text=True))
    assert _me(client, plain) == 401
    assert _me(client, others) == 200  # another account's token is not touched


def test_the_services_say_how_many_tokens_ended(app_ctx, organiser):
    api_token(organiser, "one")
    revoked, plain = user_service.create_api_token(organiser, "two")
    user_service.revoke_api_token(organiser, revoked.id)  # already revoked: not counted again
    api_token(organiser, "three")
    login_token = user_service.start_login(organiser)
    assert user_service.log_out_everywhere(organiser) == (1, 2)
    assert user_service.user_for_login(login_token) is None and user_service.user_for_token(plain) is None
    assert user_service.change_password(organiser, PASSWORD, NEW_PASSWORD) == 0


# ----------------------------------------------------------------------------- item 8: the totals' version


def test_the_totals_form_without_its_version_is_refused(client, session_two_draft, organiser):
    t, _ = session_two_draft
    login(client, organiser.email)
    url = f"/manage/tournaments/{t.id}/play/1/tables/2/totals"
    form_page = client.get(url).get_data(as_text=True)
    version = re.search(r'name="version"[^>]*value="(\d+)"', form_page) or re.search(
        r'value="(\d+)"[^>]*name="version"', form_page)
    assert version, "the totals form carries the table's version"
    scores = {f"scores-{i}": v for i, v in enumerate([90, -30, -30, -30])}
    for sent in ({}, {"version": ""}, {"version": "x"}):
        answer = post_form(client, url, {**scores, **sent})
        assert answer.status_code == 409, (sent, answer.status_code)
        assert "no record version" in answer.get_data(as_text=True)
        assert db.session.scalar(select(func.count()).select_from(TableTotal)) == 0
    assert post_form(client, url, {**scores, "version": version.group(1)}).status_code == 302
    # The same form sent again (its version is now stale) is a conflict, not an overwrite.
    stale = {f"scores-{i}": v for i, v in enumerate([-30, 90, -30, -30])}
    assert post_form(client, url, {**stale, "version": version.group(1)}).status_code == 409
    db.session.expire_all()
    ids = [sp.player_id for sp in play.table_players(play.get_session(t, 1), 2)]
    assert [scoring.table_sheet(t, 1, 2).totals[pid] for pid in ids] == [90, -30, -30, -30]
