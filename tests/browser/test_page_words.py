"""The page scripts' words in the reader's language through the one word reader (static/js/words.js, issue 36):
the hand form's note on the winds and its seats' spoken winds (hand-entry.js), the confirmation dialog
(confirm.js), in Finnish from the page's <html data-script-texts>, in English without it."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.helpers import PASSWORD
from tournament.services.play import session as play

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "note", "east", "back"), [
    ("fi", "Käsi 1: vallitseva tuuli Itä, jakaja {dealer}.", "Itä: ", "Palaa"),
    ("en", "Hand 1: East round, dealer {dealer}.", "East: ", "Go back"),
])
def test_the_hand_forms_scripts_speak_the_pages_language(page, organiser, with_a_hand, lang, note, east, back):
    t = with_a_hand
    east_player = play.table_players(play.get_session(t, 1), 1)[0]
    log_in(page, organiser.email, PASSWORD)
    page.goto(f"/manage/tournaments/{t.id}/play/1/tables/1/hands/1/edit?lang={lang}")
    expect(page.locator("[data-entry=winds-note]")).to_have_text(note.format(dealer=east_player.player.full_name))
    spoken = page.locator(f'[data-seat-wind-name="{east_player.player_id}"]').first
    expect(spoken).to_have_text(east)
    page.locator("form[data-confirm] button[type=submit]").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("button[value=cancel]")).to_have_text(back)
    dialog.locator("button[value=cancel]").click()
    expect(dialog).to_be_hidden()
