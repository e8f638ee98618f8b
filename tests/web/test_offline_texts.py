"""The offline queue's and the service worker's words in the page's language (issue 24): a page in another
language than English gives them to static/js/offline-queue.js on its <html> element; an English page gives
none (the script has them)."""

from __future__ import annotations

import html
import json
import re

import pytest

KEYS = {"hand", "hand_at_table", "banner", "waiting_one", "waiting_other", "waiting_offline_one",
        "waiting_offline_other", "waiting_sending_one", "waiting_sending_other", "sent_one", "sent_other",
        "refused_one", "refused_other", "not_saved", "refused_reason", "answered", "correct", "discard", "log_in",
        "back_in_form", "kept", "not_sent", "false_mahjong", "verdict", "copy_note", "copy_note_at",
        "unsent_one", "unsent_other", "unsent_none",
        # the service worker's page for a hand whose sending failed on the way (issue 32)
        "no_network", "unsent", "back_to_form"}
SW_KEYS = {"copy_note", "copy_note_at", "no_network", "unsent", "back_to_form"}


def _texts(client, lang: str) -> dict | None:
    page = client.get(f"/login?lang={lang}").get_data(as_text=True)
    tag = re.search(r"<html\b[^>]*>", page).group(0)
    found = re.search(r'\sdata-offline-texts="([^"]*)"', tag)
    return None if found is None else json.loads(html.unescape(found.group(1)))


def test_an_english_page_gives_no_words(client):
    assert _texts(client, "en") is None


@pytest.mark.parametrize(("lang", "waiting_one", "waiting_other", "hand_at_table"), [
    ("fi", "{num} käsi odottaa lähettämistä.", "{num} kättä odottaa lähettämistä.", "Käsi {number} pöydässä {table}"),
    ("zh", "{num} 盘等待发送。", "{num} 盘等待发送。", "第 {table} 桌第 {number} 盘"),
])
def test_another_language_gives_every_word_with_its_places(client, lang, waiting_one, waiting_other, hand_at_table):
    texts = _texts(client, lang)
    assert set(texts) == KEYS  # every word the script has in English (static/js/offline-queue.js TEXTS)
    assert texts["waiting_one"] == waiting_one and texts["waiting_other"] == waiting_other
    assert texts["hand_at_table"] == hand_at_table
    assert "{time}" in texts["copy_note_at"] and "{hand}" in texts["kept"]
    assert not any("%(" in text for text in texts.values())


def test_the_script_knows_every_key_the_page_gives():
    from pathlib import Path

    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "offline-queue.js").read_text()
    block = script[script.index("var TEXTS = {"):script.index("};", script.index("var TEXTS = {"))]
    in_script = set(re.findall(r"\b(\w+):\s*\"", block))
    sw = (Path(__file__).resolve().parents[2] / "static" / "sw.js").read_text()
    assert in_script | SW_KEYS == KEYS
    assert all(f"texts.{key}" in sw for key in SW_KEYS)
