"""One word reader for the page scripts (issue 36): static/js/words.js reads every script's words in the page's
language (an attribute of <html> or of the element the script works on) and fills in their {name} marks. Each
page that runs a script reading words loads it first; no script keeps a reader of its own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers import play_url
from tournament.extensions import db
from tournament.models import EntryMode
from tournament.services.people import player_links

JS = Path(__file__).resolve().parents[2] / "static" / "js"
READERS = sorted(path.name for path in JS.glob("*.js") if "pageWords." in path.read_text())
WORDS = "/static/js/words.js"


def scripts_in_order(html: str) -> list[str]:
    """The page's scripts in the order they run: the deferred ones as they come, then after-load.js's."""
    tags = re.findall(r'<script src="([^"?]+)[^"]*"([^>]*)>', html)
    order = [src for src, _ in tags]
    for _, rest in tags:
        if later := re.search(r'data-scripts="([^"]*)"', rest):
            order += [url.split("?")[0] for url in later.group(1).split()]
    return order


def test_the_scripts_read_their_words_through_the_one_reader():
    assert {"confirm.js", "hand-entry.js", "live.js", "checkin.js", "clock.js", "projector.js", "hand-score.js",
            "offline-queue.js", "tile-picker.js"} <= set(READERS)
    for path in JS.glob("*.js"):
        if path.name == "words.js":
            continue
        source = path.read_text()
        assert "function word(key, english" not in source, path.name  # the block once pasted in three scripts
        # no script parses a page's words itself: words.js does (the data-*-texts attributes, <html>'s too)
        assert not re.search(r"JSON\.parse\([^;]*(Texts|-texts)", source), path.name


def _pages(client, organiser_client, seated) -> dict[str, tuple]:
    t, ids = seated
    t.entry_mode = EntryMode.PLAYERS
    token = player_links.token_of(player_links.link_of(t, ids[0]))
    db.session.commit()
    staff = play_url(t)
    return {
        "referee's hand form": (organiser_client, staff + "/tables/1/hands/new"),
        "table page": (organiser_client, staff + "/tables/1"),
        "session page (a form asks for a confirmation)": (organiser_client, staff),
        "clock": (organiser_client, staff + "/clock"),
        "referee board": (organiser_client, staff + "/board"),
        "check-in desk": (organiser_client, f"/manage/tournaments/{t.id}/checkin"),
        "logout page": (organiser_client, "/logout"),
        "player's page": (client, f"/p/{token}"),
        "player's hand form": (client, f"/p/{token}/hands/new"),
        "hand checker": (client, "/check"),
        "live standings": (client, f"/t/{t.id}/standings"),
        "projector": (client, f"/t/{t.id}/projector"),
        "hall clock": (client, f"/t/{t.id}/sessions/1/clock"),
    }


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_every_page_loads_the_reader_before_the_scripts_that_read_words(client, organiser_client, seated, lang):
    for name, (who, url) in _pages(client, organiser_client, seated).items():
        answer = who.get(url + ("&" if "?" in url else "?") + f"lang={lang}")
        assert answer.status_code == 200, name
        order = scripts_in_order(answer.get_data(as_text=True))
        readers = [src for src in order if src.rsplit("/", 1)[-1] in READERS]
        assert readers, (name, order)
        assert WORDS in order and order.index(WORDS) < order.index(readers[0]), (name, order)
        assert order.count(WORDS) == 1, (name, order)


def test_a_page_without_such_a_script_does_without_the_reader(client, organiser_client, seated):
    t, _ = seated
    for url in ("/", f"/t/{t.id}"):
        answer = client.get(url)
        assert answer.status_code == 200, url
        assert WORDS not in answer.get_data(as_text=True), url
    # The penalties page before any penalty: its own script reads no words, and no form asks for a confirmation.
    page = organiser_client.get(f"/manage/tournaments/{t.id}/play/penalties").get_data(as_text=True)
    assert "js/penalties.js" in page and WORDS not in page
