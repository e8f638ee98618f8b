import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD

pytestmark = pytest.mark.browser


def test_wrong_password_shows_error_next_to_field(page, organiser):
    page.goto("/login")
    page.get_by_label("Email").fill(organiser.email)
    page.get_by_label("Password", exact=True).fill("nope-nope-nope")
    page.get_by_role("button", name="Log in").click()
    error = page.locator("#password-error")
    expect(error).to_have_text("Wrong email or password.")
    expect(page.get_by_label("Password", exact=True)).to_have_attribute("aria-invalid", "true")


def test_organiser_logs_in_and_creates_a_tournament(page, organiser):
    log_in(page, organiser.email, PASSWORD)
    page.get_by_role("link", name="New tournament").click()
    # Submitting without a name keeps the user on the form with the error beside the field.
    page.get_by_label("Name").fill("")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#name-error")).to_contain_text("needs a name")
    page.get_by_label("Name").fill("Browser Open")
    page.get_by_label("Venue").fill("Tampere")
    page.get_by_label("Sessions").fill("5")
    page.get_by_label("Ruleset").select_option("chinese")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Browser Open")
    expect(page.get_by_text("5 × 120 minutes")).to_be_visible()
    expect(page.get_by_text("Chinese practice")).to_be_visible()
    page.get_by_role("link", name="Tournaments").first.click()
    expect(page.get_by_role("link", name="Browser Open")).to_be_visible()


def test_keyboard_only_login(page, organiser):
    page.goto("/login")
    page.get_by_label("Email").focus()
    page.keyboard.type(organiser.email)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url("**/manage")
    expect(page.get_by_role("heading", name="My events")).to_be_visible()


def test_phone_layout_has_no_horizontal_scroll(browser, live_server, tournament):
    context = browser.new_context(base_url=live_server, viewport={"width": 375, "height": 740}, is_mobile=True)
    page = context.new_page()
    page.goto("/")
    expect(page.get_by_role("link", name="Helsinki Open")).to_be_visible()
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    context.close()
