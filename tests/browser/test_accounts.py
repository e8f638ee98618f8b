"""Accounts in the browser: an organiser invites a referee by email from the staff section, the referee opens
the link in their own browser, chooses a name and a password, and reaches the tournament's table page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def serious_axe_violations(page) -> list[str]:
    page.evaluate(AXE)
    result = page.evaluate("async () => await axe.run(document)")
    return [f"{v['impact']} {v['id']}: {v['help']}" for v in result["violations"]
            if v["impact"] in ("critical", "serious")]


def test_an_invited_referee_sets_a_password_and_reaches_the_table_page(browser, live_server, in_play, organiser):
    commit_setup()
    organiser_context = browser.new_context(base_url=live_server, bypass_csp=True)
    page = organiser_context.new_page()
    page.set_default_timeout(10_000)
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{in_play.id}")
    page.get_by_label("Email address to invite").fill("rita@example.org")
    page.get_by_label("Invite as").select_option("referee")
    page.get_by_role("button", name="Create invitation").click()
    expect(page.locator("#new-link")).to_contain_text("Invitation for rita@example.org created")
    link = page.get_by_label("Invitation link").input_value()
    assert "/invitations/" in link
    assert serious_axe_violations(page) == []
    organiser_context.close()

    # The referee's own browser, never logged in here.
    referee_context = browser.new_context(base_url=live_server, bypass_csp=True,
                                          viewport={"width": 390, "height": 800}, is_mobile=True)
    phone = referee_context.new_page()
    phone.set_default_timeout(10_000)
    phone.goto(link)
    expect(phone.get_by_role("heading", level=1)).to_have_text("Join the staff of Helsinki Open")
    assert serious_axe_violations(phone) == []
    phone.get_by_label("Your name").fill("Rita Referee")
    phone.get_by_label("Choose a password").fill("mahjong2025")
    phone.get_by_label("Password again").fill("mahjong2025")
    phone.get_by_role("button", name="Create my account and join").click()
    # A refused password: the error next to the field, the link still good.
    expect(phone.locator("#password-error")).to_contain_text("Mahjong and tournament words")
    expect(phone.get_by_label("Choose a password")).to_have_attribute("aria-invalid", "true")
    phone.get_by_label("Choose a password").fill("violet-lantern-harbour")
    phone.get_by_label("Password again").fill("violet-lantern-harbour")
    phone.get_by_role("button", name="Create my account and join").click()

    expect(phone.locator(".flashes")).to_contain_text("you are on the staff of Helsinki Open as referee")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Helsinki Open")
    phone.goto(f"/manage/tournaments/{in_play.id}/play/1/tables/1")
    expect(phone.get_by_role("heading", level=1)).to_contain_text("Table 1")
    # The link has been spent.
    phone.goto(link)
    expect(phone.get_by_role("heading", level=1)).to_have_text("This link has been used")
    referee_context.close()
