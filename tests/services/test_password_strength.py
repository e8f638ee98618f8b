"""Issue 22 item 16: passwords built on a common one or on the tournament's own words, with the simple
variations people use (digits or a year added, repeated halves, leetspeak), are refused; passphrases pass."""

from __future__ import annotations

import pytest

from tests.helpers import PASSWORD, login, make_user, post_form
from tournament.services import ServiceError
from tournament.services.people import users as user_service

EMAIL = "olivia@example.org"


@pytest.mark.parametrize(("password", "message"), [
    ("mahjong123", "Mahjong and tournament words"),
    ("Mahjong2026!", "Mahjong and tournament words"),
    ("M4hj0ng2025", "Mahjong and tournament words"),
    ("tournament", "Mahjong and tournament words"),
    ("riichi-mahjong", "Mahjong and tournament words"),
    ("mcr_2025!!", "Mahjong and tournament words"),
    ("Referee!2026", "Mahjong and tournament words"),
    ("organiser1", "Mahjong and tournament words"),
    ("pungkong99", "Mahjong and tournament words"),
    ("chow12345", "Mahjong and tournament words"),
    ("org3org3", "few characters repeated"),
    ("abcabcabc", "few characters repeated"),
    ("zzzzyyyy", "few characters repeated"),
    ("sunshine1990", "common password"),
    ("monkey2024", "common password"),
    ("p@ssw0rd123", "common password"),
    ("dragon!!dragon!!", "common password"),
    ("olivia2024", "common password"),
    ("0livia-1987", "common password"),
])
def test_guessable_passwords_are_refused(password, message):
    with pytest.raises(ServiceError, match=message) as refused:
        user_service.check_new_password(password, EMAIL, field="new_password")
    assert refused.value.field == "new_password"


@pytest.mark.parametrize("password", [
    PASSWORD, "tile-wall-dragon-77", "mahjong-east-round-9", "longenough1", "bench-password-4242",
    "k8#Lq2!zVm", "xkcd staple battery", "kong-river-lantern-5", "Tr0mb0ne-Quietly",
])
def test_passphrases_and_random_passwords_pass(password):
    user_service.check_new_password(password, EMAIL)


def test_the_word_list_ships_with_the_package():
    words = user_service.common_password_words()
    assert 9000 < len(words) < 11000
    assert {"monkey", "dragon", "shadow"} <= words
    assert all(4 <= len(w) < user_service.MIN_PASSWORD_LENGTH and w == w.lower() for w in words)


def test_the_account_page_shows_why_next_to_the_field(client, app_ctx):
    make_user(EMAIL, "organiser")
    login(client, EMAIL)
    answer = post_form(client, "/account/password", {"current_password": PASSWORD, "new_password": "mahjong123",
                                                     "confirm": "mahjong123"}, form_url="/account")
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    assert 'id="new_password-error">Mahjong and tournament words' in html
    assert user_service.authenticate(EMAIL, PASSWORD) is not None  # unchanged


def test_the_cli_refuses_a_tournament_word_password(runner, app_ctx):
    result = runner.invoke(args=["users", "create", "boss@example.org", "--role", "organiser",
                                 "--password", "mahjong123"])
    assert result.exit_code != 0 and "Mahjong and tournament words" in result.output
    assert user_service.find_user_by_email("boss@example.org") is None
