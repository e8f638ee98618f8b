"""Accounts: password rules, the same hashing work for unknown emails, login sessions."""

from __future__ import annotations

import pytest

from tests.helpers import PASSWORD, make_user
from tournament.extensions import db
from tournament.services import ServiceError
from tournament.services.people import users as user_service


@pytest.mark.parametrize(
    ("email", "password", "message"),
    [
        ("ann@example.org", "short", "at least 8 characters"),
        ("ann@example.org", "password", "most common passwords"),
        ("ann@example.org", "Password1", "most common passwords"),  # compared without case
        ("ann@example.org", "qwertyuiop", "most common passwords"),
        ("ann@example.org", "iloveyou", "most common passwords"),
        ("ann.lee@example.org", "ann.lee@example.org", "cannot be your email address"),
        ("ann.lee@example.org", "ANN.LEE@EXAMPLE.ORG", "cannot be your email address"),
        ("annie.lee@example.org", "Annie.Lee", "cannot be your email address"),
        ("annalee99@example.org", "AnnaLee99", "cannot be your email address"),
        ("ann@example.org", "x" * 201, "at most 200 characters"),
    ],
)
def test_weak_passwords_are_refused_when_an_account_is_created(app_ctx, email, password, message):
    with pytest.raises(ServiceError) as refused:
        user_service.create_user(email, password, "referee")
    assert message in refused.value.message
    assert refused.value.field == "password"
    assert user_service.find_user_by_email(email) is None


def test_a_decent_password_is_accepted(app_ctx):
    user = user_service.create_user("ann@example.org", "mahjong-east-round-9", "referee")
    assert user.check_password("mahjong-east-round-9")


def test_the_common_password_list_ships_with_the_package():
    common = user_service.common_passwords()
    assert 8000 < len(common) < 10001
    assert {"password", "12345678", "iloveyou", "sunshine"} <= common
    assert all(len(p) >= user_service.MIN_PASSWORD_LENGTH and p == p.lower() for p in common)
    assert not any(p.startswith("#") for p in common)


def test_change_password_checks_the_current_one_and_the_rules(app_ctx):
    user = make_user("ann@example.org", "referee")
    with pytest.raises(ServiceError) as wrong:
        user_service.change_password(user, "not-it", "mahjong-east-round-9")
    assert wrong.value.field == "current_password"
    with pytest.raises(ServiceError) as common:
        user_service.change_password(user, PASSWORD, "baseball")
    assert common.value.field == "new_password"
    assert user.check_password(PASSWORD)
    user_service.change_password(user, PASSWORD, "mahjong-east-round-9")
    assert user.check_password("mahjong-east-round-9")


def test_an_unknown_email_costs_the_same_hashing_as_a_wrong_password(app_ctx, hash_calls):
    make_user("ann@example.org", "referee")
    user_service.authenticate("warm-up@example.org", "x")  # the dummy hash is made once per process
    hash_calls.clear()

    assert user_service.authenticate("nobody@example.org", "guess-1234") is None
    unknown = list(hash_calls)
    hash_calls.clear()
    assert user_service.authenticate("ann@example.org", "guess-1234") is None
    wrong = list(hash_calls)
    hash_calls.clear()
    assert user_service.authenticate("ann@example.org", PASSWORD) is not None
    right = list(hash_calls)

    assert len(unknown) == len(wrong) == len(right) == 1
    assert unknown == wrong == right  # same method and iterations, so the same time


def test_a_disabled_account_costs_the_same_hashing_too(app_ctx, hash_calls):
    user = make_user("gone@example.org", "referee")
    user.active = False
    db.session.commit()
    hash_calls.clear()
    assert user_service.authenticate("gone@example.org", PASSWORD) is None
    assert len(hash_calls) == 1


def test_login_sessions_start_load_and_end(app_ctx):
    user = make_user("ann@example.org", "referee")
    first = user_service.start_login(user)
    second = user_service.start_login(user, remember=True)
    assert first != second and len(first) >= 40
    assert user.get_id() == second
    assert user_service.user_for_login(first) is user
    assert user_service.login_remembered(second) and not user_service.login_remembered(first)
    assert user_service.login_count(user) == 2
    user_service.end_login(first)
    assert user_service.user_for_login(first) is None
    assert user_service.user_for_login(second) is user
    assert user_service.end_all_logins(user) == 1
    assert user_service.user_for_login(second) is None
    assert user_service.user_for_login("") is None
    assert user_service.user_for_login(str(user.id)) is None  # a bare account id (old cookies) loads nobody


def test_get_id_needs_a_login_session(app_ctx):
    user = make_user("ann@example.org", "referee")
    with pytest.raises(RuntimeError):
        user.get_id()


def test_the_cli_refuses_a_common_password(runner, app_ctx):
    result = runner.invoke(args=["users", "create", "boss@example.org", "--role", "organiser",
                                 "--password", "sunshine1"])
    assert result.exit_code != 0
    assert "most common passwords" in result.output
    result = runner.invoke(args=["users", "create", "boss@example.org", "--password", "boss@example.org"])
    assert result.exit_code != 0
    assert "cannot be your email address" in result.output
    assert user_service.find_user_by_email("boss@example.org") is None


def test_the_cli_resets_a_forgotten_password_and_ends_every_login(runner, app_ctx):
    user = make_user("ann@example.org", "referee")
    token = user_service.start_login(user, remember=True)
    db.session.commit()
    result = runner.invoke(args=["users", "password", "ann@example.org", "--password", "iloveyou"])
    assert result.exit_code != 0
    assert "most common passwords" in result.output
    assert user_service.user_for_login(token) is user  # a refused reset changes nothing

    new = ["--password", "mahjong-east-round-9"]
    result = runner.invoke(args=["users", "password", "ann@example.org", *new])
    assert result.exit_code == 0, result.output
    assert "1 login ended" in result.output
    db.session.expire_all()
    assert user_service.authenticate("ann@example.org", "mahjong-east-round-9") is not None
    assert user_service.user_for_login(token) is None
    result = runner.invoke(args=["users", "password", "nobody@example.org", *new])
    assert result.exit_code != 0
    assert "No account" in result.output
