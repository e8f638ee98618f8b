"""The projector in the reader's language (issue 24): its script's words and the table points' decimal separator
come from the page (data-projector-texts), so the Chinese and Finnish loops show no English."""

from __future__ import annotations

import re
from datetime import timedelta

from playwright.sync_api import expect

from tests.browser.conftest import commit_setup
from tests.helpers import add_players
from tournament.models._common import utcnow
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.seating import draws, lifecycle


def _event(t) -> None:
    """Session 1 by totals, table 1 four-way tied (1.75 table points each), then session 2 published."""
    add_players(t, 8)
    draws.draw_next(t, seed=3)
    lifecycle.start_session(t, 1)
    session = play.get_session(t, 1)
    for table, scores in ((1, [0, 0, 0, 0]), (2, [40, -5, -5, -30])):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(t, 1, table, dict(zip(ids, scores, strict=True)), None)
    lifecycle.finish_session(t, 1)
    draws.draw_next(t, seed=4)
    lifecycle.set_status(play.get_session(t, 2), "published")
    commit_setup()


def _loop(page, t, lang: str):
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"/t/{t.id}/projector?lang={lang}&rows=8&seconds=2")
    slide = page.locator("#projector-slide")
    expect(slide).to_have_attribute("data-kind", "standings")
    return slide


def test_the_chinese_projector(page, tournament):
    _event(tournament)
    slide = _loop(page, tournament, "zh")
    expect(page.locator("html")).to_have_attribute("lang", "zh")
    expect(page.locator("#projector-title")).to_have_text("第 1 轮后排名")
    expect(slide.locator("thead")).to_contain_text("标准分")
    expect(slide.locator("thead")).to_contain_text("比赛分")
    expect(slide.locator("tbody")).to_contain_text("1.75")
    expect(slide).to_have_attribute("data-kind", "seating", timeout=6000)  # turned by itself
    expect(page.locator("#projector-title")).to_have_text("第 2 轮：您的桌号和门风")
    words = page.locator("#projector").inner_text()
    assert not re.search(r"\b(Standings|Session|Rank|Player|Score|Table points)\b", words), words


def test_the_finnish_projector_writes_a_decimal_comma(page, tournament):
    _event(tournament)
    slide = _loop(page, tournament, "fi")
    expect(page.locator("#projector-title")).to_have_text("Tulostaulukko kierroksen 1 jälkeen")
    expect(slide.locator("thead")).to_contain_text("Pöytäpisteet")
    cells = slide.locator("tbody td.strong").all_inner_texts()
    assert cells.count("1,75") == 4 and "1,5" in cells and "1.75" not in cells, cells


def test_the_chinese_clock_projector(page, half_hour_session):
    """clock.js writes the state and the tables with their own extra time: in the page's words (data-clock-texts)."""
    t, organiser = half_hour_session
    clock.start(t, 1, organiser, now=utcnow() - timedelta(minutes=10))  # 20:00 left: running, no warning yet
    clock.extend(t, 1, 300, organiser, table=2)
    commit_setup()
    page.goto(f"/t/{t.id}/sessions/1/clock?lang=zh&poll=2")
    expect(page.locator("[data-clock-extra] li")).to_have_count(1)
    expect(page.locator("[data-clock-extra] li")).to_contain_text("第 2 桌")
    expect(page.locator("[data-clock-state]")).to_have_text("进行中")
    expect(page.locator("[data-theme-toggle]")).to_have_text("深色屏幕")
    words = page.locator(".clock-root").inner_text()
    assert not re.search(r"\b(Table|Running|Session|Dark screen)\b", words), words
    # a state the server changes: the page re-syncs and names it in Chinese
    clock.pause(t, 1, organiser)
    commit_setup()
    expect(page.locator("[data-clock-state]")).to_have_text("已暂停", timeout=6000)
