"""Confirmations before a redraw, removing a staff member and starting play (issue 32 item 10), in a browser with
JavaScript switched off (the app works without it there) on a 390 px phone: each asks first and says what it
does; the first tap changes nothing."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, commit_setup, log_in
from tests.helpers import PASSWORD, add_players
from tournament.extensions import db
from tournament.models import SessionStatus
from tournament.models.tournaments import TournamentStaff
from tournament.services.people.tournaments import add_staff
from tournament.services.play import clock
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service

pytestmark = pytest.mark.browser


@pytest.fixture
def no_script(browser, live_server):
    context = browser.new_context(base_url=live_server, java_script_enabled=False, **PHONE)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def page_width(page) -> list[int]:
    return page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")


def test_redraw_asks_for_the_box_and_names_the_swaps(no_script, tournament, organiser):
    page, t = no_script, tournament
    add_players(t, 8)
    session = draw_service.draw_next(t, seed=1)
    tables = session.tables()
    draw_service.swap(t, session, tables[0][0], tables[1][0], expected_version=session.version)
    commit_setup()
    before = draw_service.get_session(t, 1).tables()
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/draws/1")
    expect(page.get_by_text("The 1 swap made by hand since the draw is replaced too.")).to_be_visible()
    page.get_by_role("button", name="Redraw this session").click()
    expect(page.get_by_role("alert")).to_contain_text("Nothing was redrawn")
    db.session.expire_all()
    assert draw_service.get_session(t, 1).tables() == before
    page.get_by_label("Replace the current seating").check()
    page.get_by_role("button", name="Redraw this session").click()
    expect(page.locator(".flashes")).to_contain_text("Session 1 redrawn")
    assert page_width(page)[0] <= 390


def test_removing_a_staff_member_asks_first(no_script, tournament, organiser, referee):
    page, t = no_script, tournament
    add_staff(t, referee.email, "referee")
    commit_setup()
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}")
    staff = page.locator("#staff li", has_text=referee.display_name)
    remove = staff.locator("summary", has_text="Remove")
    expect(staff.get_by_role("button", name=f"Remove {referee.display_name}")).to_be_hidden()
    remove.click()
    expect(staff.get_by_text(f"Remove {referee.display_name} from the staff? They can no longer")).to_be_visible()
    db.session.expire_all()
    assert db.session.query(TournamentStaff).filter_by(tournament_id=t.id).count() >= 1
    assert page_width(page)[0] <= 390
    staff.get_by_role("button", name=f"Remove {referee.display_name}").click()
    expect(page.locator(".flashes")).to_contain_text("Removed from the staff.")
    db.session.expire_all()
    assert not db.session.query(TournamentStaff).filter_by(tournament_id=t.id, user_id=referee.id).count()


def test_starting_play_is_a_step_that_offers_the_clock(no_script, tournament, organiser):
    page, t = no_script, tournament
    add_players(t, 8)
    draw_service.draw_next(t, seed=1)
    commit_setup()
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1")
    page.get_by_role("link", name="Start play (fix the seating)").click()
    expect(page.get_by_role("heading", name="Start play of session 1?")).to_be_visible()
    expect(page.get_by_text("The seating is locked")).to_be_visible()
    db.session.expire_all()
    assert play.get_session(t, 1).status == SessionStatus.DRAFT
    assert page_width(page)[0] <= 390
    page.get_by_role("button", name="Start play and the clock").click()
    expect(page.locator(".flashes")).to_contain_text("The clock is running.")
    db.session.expire_all()
    session = play.get_session(t, 1)
    assert session.status == SessionStatus.IN_PLAY and clock.state_of(t, session).state == "running"
