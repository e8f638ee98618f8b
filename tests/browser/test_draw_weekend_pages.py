"""Issue 25 in the browser: the draws page explains both methods, and warns and mends after a withdrawal."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD, add_players
from tournament.extensions import db
from tournament.services.people import registration
from tournament.services.seating import draws as draw_service

pytestmark = pytest.mark.browser


def test_swiss_explained_and_replan_warning(page, organiser, tournament):
    tournament.session_count = 3
    db.session.commit()
    players = add_players(tournament, 16)
    add_players(tournament, 1, substitute=True, start=100)
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{tournament.id}/draws")
    methods = page.get_by_test_id("draw-methods")
    expect(methods).to_contain_text("ranks 1–4 at table 1, 5–8 at table 2")
    expect(methods).to_contain_text("Players may meet again")

    draw_service.plan_all(tournament, seed=4)
    registration.withdraw(players[0], "ill")
    db.session.commit()
    page.goto(f"/manage/tournaments/{tournament.id}/draws")
    warning = page.get_by_test_id("replan-warning")
    expect(warning).to_contain_text(players[0].full_name)
    page.get_by_role("button", name="Mend sessions 1, 2, 3").click()
    # The mending says who left and who moves (the substitute takes the seats: everyone else keeps their table).
    expect(page.get_by_text(f"Sessions 1–3 mended without {players[0].full_name} and with")).to_be_visible()
    expect(page.get_by_test_id("replan-warning")).to_have_count(0)
