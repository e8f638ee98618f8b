import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD
from tournament.services.people import registration as reg
from tournament.services.people.tournaments import add_staff

pytestmark = pytest.mark.browser


def desk_url(tournament):
    return f"/manage/tournaments/{tournament.id}/checkin"


def row(page, name):
    return page.locator(".desk-row", has_text=name)


def test_type_filter_click_mark_present_and_persist(page, organiser, registered):
    log_in(page, organiser.email, PASSWORD)
    page.goto(desk_url(registered))
    search = page.get_by_label("Find a player")
    expect(search).to_be_focused()
    expect(page.locator('[data-count="present"]')).to_have_text("0")
    expect(page.locator('[data-count="registered"]')).to_have_text("3")

    search.type("virt")
    expect(row(page, "Virtanen, Aino")).to_be_visible()
    expect(row(page, "Korhonen, Mikko")).to_be_hidden()
    expect(row(page, "Aalto, Sanna")).to_be_hidden()
    expect(page.locator(".desk-row:visible")).to_have_count(1)

    # Mark the player present: the row and the counts change without a page load.
    page.evaluate("window.__noReload = true")
    aino = row(page, "Virtanen, Aino")
    aino.get_by_role("button", name="Mark present").click()
    expect(aino.locator(".badge")).to_have_text("Present")
    expect(aino.get_by_role("button", name="Undo")).to_be_visible()
    expect(aino.get_by_role("button", name="Mark present")).to_be_hidden()
    expect(page.locator('[data-count="present"]')).to_have_text("1")
    expect(page.locator('[data-count="registered"]')).to_have_text("2")
    expect(page.locator("#desk-status")).to_have_text("Aino Virtanen is checked in.")
    assert page.evaluate("window.__noReload") is True  # same document: no reload happened

    # Persisted: a reload shows the same state.
    page.reload()
    expect(row(page, "Virtanen, Aino").locator(".badge")).to_have_text("Present")
    expect(page.locator('[data-count="present"]')).to_have_text("1")


def test_enter_checks_in_the_only_match(page, organiser, registered):
    log_in(page, organiser.email, PASSWORD)
    page.goto(desk_url(registered))
    search = page.get_by_label("Find a player")
    search.type("i")  # several matches: Enter only explains
    search.press("Enter")
    expect(page.locator("#desk-status")).to_contain_text("players match")
    expect(page.locator('[data-count="present"]')).to_have_text("0")
    search.fill("")
    search.type("lindq")
    search.press("Enter")
    expect(row(page, "Lindqvist, Jonas").locator(".badge")).to_have_text("Present")
    expect(page.locator('[data-count="present"]')).to_have_text("1")
    # The search text is selected for the next player: typing replaces it.
    search.type("aalto")
    expect(search).to_have_value("aalto")
    search.press("Enter")
    expect(row(page, "Aalto, Sanna").locator(".badge")).to_have_text("Present")
    expect(page.locator('[data-count="substitutes_present"]')).to_have_text("1")
    expect(page.locator('[data-count="present"]')).to_have_text("1")  # substitutes are counted apart


def test_referee_uses_the_desk_and_undo(page, referee, registered):
    add_staff(registered, referee.email, "referee")
    log_in(page, referee.email, PASSWORD)
    page.goto(desk_url(registered))
    mikko = row(page, "Korhonen, Mikko")
    mikko.get_by_role("button", name="Mark present").click()
    expect(mikko.locator(".badge")).to_have_text("Present")
    mikko.get_by_role("button", name="Undo").click()
    expect(mikko.locator(".badge")).to_have_text("Registered")
    expect(page.locator('[data-count="present"]')).to_have_text("0")
    page.reload()
    expect(row(page, "Korhonen, Mikko").locator(".badge")).to_have_text("Registered")


def test_desk_works_without_javascript(browser, live_server, organiser, registered):
    context = browser.new_context(base_url=live_server, java_script_enabled=False)
    page = context.new_page()
    log_in(page, organiser.email, PASSWORD)
    page.goto(desk_url(registered))
    page.get_by_label("Find a player").fill("korh")
    page.get_by_role("button", name="Search").click()
    expect(page.locator(".desk-row")).to_have_count(1)
    page.get_by_role("button", name="Mark present").click()
    expect(page.get_by_text("Mikko Korhonen is checked in.")).to_be_visible()
    expect(row(page, "Korhonen, Mikko").locator(".badge")).to_have_text("Present")
    context.close()


def test_desk_on_a_phone_has_big_buttons_and_no_sideways_scroll(browser, live_server, organiser, registered):
    context = browser.new_context(base_url=live_server, viewport={"width": 375, "height": 740}, is_mobile=True)
    page = context.new_page()
    log_in(page, organiser.email, PASSWORD)
    page.goto(desk_url(registered))
    button = row(page, "Virtanen, Aino").get_by_role("button", name="Mark present")
    box = button.bounding_box()
    assert box["height"] >= 44
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    context.close()


def test_csv_import_preview_shows_the_bad_row(page, organiser, tournament, tmp_path):
    csv_file = tmp_path / "players.csv"
    csv_file.write_text(
        "first_name;last_name;country;ema_number\nAino;Virtanen;FI;04000123\nMikko;Korhonen;Atlantis;\n",
        encoding="utf-8",
    )
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{tournament.id}/players")
    page.get_by_role("link", name="Import CSV").click()
    page.get_by_label("CSV file").set_input_files(str(csv_file))
    page.get_by_role("button", name="Preview").click()
    bad = page.locator("tr#row-3")
    expect(bad).to_have_class("row-error")
    expect(bad).to_contain_text("Unknown country 'Atlantis'")
    expect(page.locator("tr#row-2")).to_have_class("row-ok")
    expect(page.get_by_role("alert")).to_contain_text("Nothing was imported")
    # Only the choice to skip the bad row (issue 21 item 10), never an import of the file as it is.
    expect(page.get_by_role("button", name="Import 2 players")).to_have_count(0)
    expect(page.get_by_role("button", name="Import the 1 good row")).to_have_count(1)
    assert reg.list_players(tournament) == []

    # Fix the row in the text box and preview again: now the import button appears.
    fixed = "first_name,last_name,country\nAino,Virtanen,FI\nMikko,Korhonen,Finland\n"
    page.get_by_label("Or paste the rows").fill(fixed)
    page.get_by_role("button", name="Preview").click()
    page.get_by_role("button", name="Import 2 players").click()
    expect(page.get_by_text("Imported 2 players.")).to_be_visible()
    expect(page.get_by_role("link", name="Korhonen, Mikko")).to_be_visible()


def test_the_finnish_desk_writes_finnish(page, organiser, registered):
    """checkin.js's own words (the badge, the tables' hint, its messages) come from the page in its language."""
    log_in(page, organiser.email, PASSWORD)
    page.goto(desk_url(registered) + "?lang=fi")
    search = page.get_by_label("Etsi pelaaja")
    search.type("i")
    search.press("Enter")
    expect(page.locator("#desk-status")).to_have_text(
        "3 pelaajaa vastaa hakua: jatka kirjoittamista tai valitse pelaaja Tab- ja Enter-näppäimillä.")
    search.fill("zzz")
    expect(page.locator("[data-empty]").first).to_have_text("Ei osumia.")
    search.fill("virt")
    aino = row(page, "Virtanen, Aino")
    aino.get_by_role("button", name="Merkitse paikalle").click()
    expect(aino.locator(".badge")).to_have_text("Paikalla")
    expect(page.locator("[data-table-hint]")).to_have_text(
        "0 täyttä pöytää; 1 pelaaja ylimääräisenä: tarvitaan 3 varapelaajaa, 0 paikalla.")
    search.press("Enter")  # the only match is present already: the desk says so
    expect(page.locator("#desk-status")).to_have_text("Virtanen, Aino: paikalla.")
