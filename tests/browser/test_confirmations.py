"""Destructive or final actions ask first (issue 21 item 4): deleting a hand, ending the clock (time called for
everyone), cancelling a penalty and finishing a session. "Go back" keeps everything; confirming does it."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD
from tournament.extensions import db
from tournament.models import ClockEvent, Penalty
from tournament.services.core.errors import NotFound
from tournament.services.play import clock, penalties, scoring
from tournament.services.play import session as play

pytestmark = pytest.mark.browser


def dialog(page):
    return page.get_by_role("dialog")


def test_deleting_a_hand_asks_first(page, organiser, with_a_hand):
    t = with_a_hand
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1/tables/1/hands/1/edit")
    page.get_by_role("button", name="Delete hand 1").click()
    expect(dialog(page)).to_be_visible()
    expect(dialog(page)).to_contain_text("Delete hand 1 of table 1?")
    dialog(page).get_by_role("button", name="Go back").click()
    expect(dialog(page)).to_be_hidden()
    db.session.expire_all()
    assert scoring.get_hand(t, 1, 1, 1)  # still there
    # Escape is "go back" too.
    page.get_by_role("button", name="Delete hand 1").click()
    page.keyboard.press("Escape")
    expect(dialog(page)).to_be_hidden()
    db.session.expire_all()
    assert scoring.get_hand(t, 1, 1, 1)
    # Confirmed, it is deleted.
    page.get_by_role("button", name="Delete hand 1").click()
    dialog(page).get_by_role("button", name="Delete hand 1").click()
    expect(page.locator(".flashes")).to_be_visible()
    db.session.expire_all()
    with pytest.raises(NotFound):
        scoring.get_hand(t, 1, 1, 1)


def test_ending_the_clock_asks_first(page, organiser, in_play):
    t = in_play
    clock.start(t, 1, organiser)
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1/clock")
    page.get_by_role("button", name="End: call time for everyone").click()
    expect(dialog(page)).to_contain_text("call time for every table")
    dialog(page).get_by_role("button", name="Go back").click()
    db.session.expire_all()
    assert not db.session.scalar(db.select(ClockEvent).where(ClockEvent.kind == "end"))
    expect(page.locator("[data-clock-state]")).to_have_text(re.compile("Running|Last"))
    page.get_by_role("button", name="End: call time for everyone").click()
    dialog(page).get_by_role("button", name="End: call time for everyone").click()
    expect(page.get_by_text("Time was called for everyone.")).to_be_visible()
    db.session.expire_all()
    assert db.session.scalar(db.select(ClockEvent).where(ClockEvent.kind == "end"))


def test_cancelling_a_penalty_asks_first(page, organiser, in_play):
    t = in_play
    player_id = play.table_players(play.get_session(t, 1), 1)[0].player_id
    given = penalties.give_penalty(t, player_id=player_id, session_number=1, amount=10, reason="Slow play",
                                   user=organiser)
    commit_setup()
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/penalties")
    row = page.locator(f"#penalty-{given.id}")
    row.get_by_text("Cancel", exact=True).click()
    row.get_by_label("Why cancel it").fill("Wrong player")
    row.get_by_role("button", name="Cancel penalty").click()
    expect(dialog(page)).to_contain_text("Cancel the 10-point penalty")
    dialog(page).get_by_role("button", name="Go back").click()
    db.session.expire_all()
    assert not db.session.get(Penalty, given.id).is_cancelled
    expect(row.get_by_label("Why cancel it")).to_have_value("Wrong player")  # what was typed is kept
    row.get_by_role("button", name="Cancel penalty").click()
    dialog(page).get_by_role("button", name="Yes, cancel the penalty").click()
    expect(page.locator(f"#penalty-{given.id}")).to_have_class(re.compile("cancelled"))
    db.session.expire_all()
    assert db.session.get(Penalty, given.id).is_cancelled


def test_finishing_a_session_asks_first(page, organiser, in_play):
    t = in_play
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1")
    finish = page.locator("form.status-action [type=submit]")
    page.locator("form.status-action input[type=checkbox]").check()
    finish.click()
    expect(dialog(page)).to_contain_text("Finish session 1?")
    dialog(page).get_by_role("button", name="Go back").click()
    db.session.expire_all()
    assert play.get_session(t, 1).status == "in_play"
