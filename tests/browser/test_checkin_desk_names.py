"""The check-in desk with Finnish names (issue 32 item 9): Enter on a whole name wins over the names it is part of
("Laine" is not "Hämäläinen", "Niemi" is not "Nieminen"); players already present are not offered again; the
desk's counts, the withdraw button's among them, follow each check-in without a reload."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import commit_setup, log_in
from tests.helpers import PASSWORD
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData

pytestmark = pytest.mark.browser

NAMES = [("Tiina", "Laine"), ("Pekka", "Hämäläinen"), ("Juha", "Niemi"), ("Sanna", "Nieminen"),
         ("Aino", "Virtanen"), ("Ville", "Virtala")]


@pytest.fixture
def desk(page, organiser, tournament):
    for first, last in NAMES:
        reg.add_player(tournament, PlayerData(first_name=first, last_name=last))
    commit_setup()
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{tournament.id}/checkin")
    return page


def badge(page, name):
    return page.locator(".desk-row", has_text=name).locator(".badge")


def enter(page, text: str) -> None:
    search = page.get_by_label("Find a player")
    search.fill(text)
    search.press("Enter")


def test_a_whole_name_wins_over_the_names_it_is_part_of(desk):
    page = desk
    withdraw = page.locator(".desk-absent button")
    expect(withdraw).to_contain_text("(6)")
    enter(page, "Laine")
    expect(badge(page, "Laine, Tiina")).to_have_text("Present")
    expect(badge(page, "Hämäläinen, Pekka")).to_have_text("Registered")
    expect(page.locator("#desk-status")).to_have_text("Tiina Laine is checked in.")
    expect(withdraw).to_contain_text("(5)")  # the button's count followed
    enter(page, "niemi")
    expect(badge(page, "Niemi, Juha")).to_have_text("Present")
    expect(badge(page, "Nieminen, Sanna")).to_have_text("Registered")
    expect(withdraw).to_contain_text("(4)")
    # "Laine" again: she is in, says the desk; Hämäläinen is not checked in for her
    enter(page, "Laine")
    expect(page.locator("#desk-status")).to_have_text("Laine, Tiina is present.")
    expect(badge(page, "Hämäläinen, Pekka")).to_have_text("Registered")
    # the withdraw question follows too
    assert "4 players" in page.locator(".desk-absent").get_attribute("data-confirm")


def test_players_already_present_are_not_offered(desk):
    page = desk
    enter(page, "Virtanen")
    expect(badge(page, "Virtanen, Aino")).to_have_text("Present")
    # "virt" matches Aino (present) and Ville: Enter checks in the one still to come
    enter(page, "virt")
    expect(badge(page, "Virtala, Ville")).to_have_text("Present")
    # both present now: the desk says so, nobody is offered
    enter(page, "virt")
    expect(page.locator("#desk-status")).to_have_text("2 players match, all checked in already.")
    # several still to come: Enter only explains
    enter(page, "nen")  # Hämäläinen, Nieminen (Virtanen is present)
    expect(page.locator("#desk-status")).to_contain_text("2 players match")


def test_the_withdraw_button_goes_when_everyone_is_in(desk):
    page = desk
    for first, last in NAMES:
        enter(page, f"{first} {last}")
        expect(badge(page, f"{last}, {first}")).to_have_text("Present")
    expect(page.locator(".desk-absent")).to_be_hidden()
    expect(page.locator('[data-count="registered"]').first).to_have_text("0")
