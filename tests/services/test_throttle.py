"""The per-address throttle only slows wrong guesses down (issue 31): the players' links have a count of their
own, a valid link opens whatever was guessed from its address, and an address over the logins' limit still has
its passwords checked (the account's delay first)."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models._common import utcnow
from tournament.models.users import LoginAttempt
from tournament.services.core import throttle
from tournament.services.core.errors import NotFound
from tournament.services.people import player_links

VENUE = "198.51.100.9"


def _guessed(key: str, count: int, address: str = VENUE) -> None:
    """`count` failures under `key` from `address` just now."""
    now = utcnow()
    db.session.execute(LoginAttempt.__table__.insert(),
                       [{"email": key if key == throttle.LINK_KEY else f"{key}{i}@example.org", "address": address,
                         "created_at": now} for i in range(count)])
    db.session.commit()


def _counted() -> int:
    return db.session.scalar(select(func.count()).select_from(LoginAttempt))


def test_a_valid_link_opens_from_an_address_that_guessed_300_links(seated):
    t, ids = seated
    token = player_links.token_of(player_links.link_of(t, ids[0]))
    db.session.commit()
    _guessed(throttle.LINK_KEY, 300)
    with pytest.raises(player_links.LinkThrottled) as refused:
        player_links.open_link("0" * 43, VENUE)
    assert refused.value.status_code == 429 and refused.value.retry_after > 0
    assert player_links.open_link(token, VENUE).id == ids[0]
    db.session.commit()  # the edge's commit (the link's last use)
    assert _counted() == 300  # neither the refused guess nor the valid link is counted
    with pytest.raises(NotFound):  # another address has its own count
        player_links.open_link("0" * 43, "192.0.2.44")


def test_guessed_links_and_logins_are_counted_apart(app_ctx):
    _guessed(throttle.LINK_KEY, 300)
    assert throttle.begin_login("staff@example.org", VENUE) == throttle.Attempt()
    assert throttle.begin_attempt("staff@example.org", VENUE) is None
    _guessed("sprayed", 300, address="192.0.2.44")
    assert throttle.link_throttled("192.0.2.44") is None


def test_over_the_address_limit_the_password_is_checked_and_the_failure_counted(app_ctx):
    _guessed("sprayed", 300)
    attempt = throttle.begin_login("staff@example.org", VENUE)
    assert attempt.refused is None and attempt.over_address_limit is not None
    assert attempt.over_address_limit.retry_after > 0
    assert db.session.scalar(select(func.count()).select_from(LoginAttempt)
                             .where(LoginAttempt.email == "staff@example.org")) == 1
    # The strict form (an invitation's password) still refuses without counting.
    refused = throttle.begin_attempt("staff@example.org", VENUE)
    assert refused is not None and refused.reason == "from your network address"
    assert _counted() == 301


def test_over_the_address_limit_the_accounts_delay_still_comes_first(app_ctx):
    _guessed("sprayed", 300)
    for _ in range(5):
        assert throttle.begin_login("staff@example.org", VENUE).over_address_limit is not None
    attempt = throttle.begin_login("staff@example.org", VENUE)
    assert attempt.refused is not None and attempt.refused.reason == "for this account"
    assert _counted() == 305
