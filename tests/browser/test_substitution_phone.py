"""A substitution from the referee's phone (issue 32 item 9): the page comes back on who is in from which hand, on
the screen (it was 'nobody free to substitute' with the success message off-screen); 'ill' says before saving that
the player leaves later draws, with a box to keep them."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tournament.extensions import db
from tournament.models import PlayerStatus
from tournament.services.people import registration as reg

pytestmark = pytest.mark.browser


def substitute(page, out_id: int, in_id: int, hand: str, keep: bool = False) -> None:
    page.get_by_text("Substitution", exact=True).click()
    page.get_by_label("Goes out").select_option(str(out_id))
    page.get_by_label("Comes in").select_option(str(in_id))
    page.get_by_label("From hand").fill(hand)
    page.get_by_label("Why").select_option("ill")
    # said before saving: the player leaves the later draws unless kept
    expect(page.get_by_text("without this box the outgoing player is withdrawn from every later draw")).to_be_visible()
    if keep:
        page.get_by_label("Keep them in the later draws").check()
    page.get_by_role("button", name="Record the substitution").click()


def on_screen(page, locator) -> bool:
    box = locator.bounding_box()
    height = page.evaluate("window.innerHeight")
    return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= height


def test_after_a_substitution_the_phone_shows_who_is_in(phone_table):
    page, t, players, sub, table_url = phone_table
    out = players[2]
    page.goto(table_url)
    substitute(page, out.player_id, sub.id, "3")
    done = page.get_by_test_id("substitutions-done")
    expect(done).to_contain_text(f"From hand 3: {sub.full_name} in for {out.player.full_name} (ill)")
    expect(done).to_contain_text(f"{out.player.full_name} is out of the later draws.")
    assert on_screen(page, done), done.bounding_box()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    db.session.expire_all()
    assert reg.get_player(t, out.player_id).status == PlayerStatus.WITHDRAWN


def test_an_ill_player_kept_in_the_later_draws(phone_table):
    page, t, players, sub, table_url = phone_table
    out = players[1]
    page.goto(table_url)
    substitute(page, out.player_id, sub.id, "5", keep=True)
    done = page.get_by_test_id("substitutions-done")
    expect(done).to_contain_text(f"From hand 5: {sub.full_name} in for {out.player.full_name} (ill)")
    expect(done).not_to_contain_text("out of the later draws")
    db.session.expire_all()
    assert reg.get_player(t, out.player_id).status == PlayerStatus.PRESENT
