"""The referees' staff pages in each language (issue 24, third slice): score entry (the sessions, a session's
tables and check, a table page with its calls and substitution, the hand form new and correcting, a totals
table), the score history, the penalties, the clock and the referee board render in every language with
<html lang> right and no text of their templates or their Python sources left in English. The same check
as tests/web/test_i18n_public.py (tests/helpers.check_page_languages)."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from tests.helpers import TEMPLATES, check_page_languages, players_of, shown, unwrapped_words, visible_text
from tournament.extensions import db
from tournament.i18n import LANGUAGES
from tournament.models import Penalty, RefereeCall, User
from tournament.services.play import referee_calls, scoring
from tournament.services.play import session as play

# The staff templates translated in this slice (the unwrapped-text check reads them all).
STAFF_TEMPLATES = (*sorted((TEMPLATES / "hands").glob("*.html")), TEMPLATES / "clock/staff.html",
                   TEMPLATES / "clock/board.html", TEMPLATES / "clock/_bits.html",
                   TEMPLATES / "tournaments/_nav.html", TEMPLATES / "exports/_session_links.html")
# The Python files whose texts these pages show: form labels and choices, the labels of statuses and actions
# (every module of the hands blueprint: the catalogue names the one a text is in).
HANDS = TEMPLATES.parent / "tournament/web/hands"
PAGE_SOURCES = ("tournament/i18n/labels.py",
                *sorted(path.relative_to(TEMPLATES.parent).as_posix() for path in HANDS.glob("*.py")),
                "tournament/web/clock/forms.py", "tournament/web/clock/routes.py")


def without_data(text: str, t) -> str:
    """The page's text without what people typed: names, the tournament's, the accounts', penalty reasons,
    what a referee call says ("Slow play" typed as a reason is data, the foul "Slow play" is not)."""
    typed = {t.name, t.venue or ""}
    for p in players_of(t):
        typed |= {p.first_name, p.last_name, p.full_name, p.club or "", p.team or ""}
    for user in db.session.scalars(select(User)):
        typed |= {user.name or "", user.email}
    for penalty in db.session.scalars(select(Penalty).where(Penalty.tournament_id == t.id)):
        typed |= {penalty.reason or "", penalty.cancel_reason or ""}
    for call in db.session.scalars(select(RefereeCall).where(RefereeCall.tournament_id == t.id)):
        typed |= {call.situation or "", call.ruling or ""}
    for value in sorted(filter(None, typed), key=len, reverse=True):
        text = text.replace(value, " ")
    return text


def staff_pages(t) -> dict[str, int]:
    """The referees' pages of the demo tournament (session 1 finished, 2 in play with a substitute and a referee
    call, 3 in play with table 1 by totals), with the status each answers."""
    session2 = play.get_session(t, 2)
    table1 = play.table_players(session2, 1)
    playing = scoring.table_sheet(t, 2, 1).missing[0]  # the hand being played: a dead hand there is a call's
    referee_calls.record_call(t, 2, 1, referee_calls.CallData(
        situation="Tiles knocked over", hand=playing, called_by=table1[0].player_id, ruling="Play on",
        dead_hand_player_id=table1[1].player_id,
        penalty=referee_calls.PenaltyData(player_id=table1[1].player_id, amount=0, foul="Exposed or dropped tiles")),
        None)
    db.session.commit()
    entered = scoring.table_hands(t, 2, 1)
    assert entered, "the demo's session 2 has hands at table 1"
    base = f"/manage/tournaments/{t.id}/play"
    return {
        f"{base}?all=1": 200, f"{base}/1": 200, f"{base}/2": 200, f"{base}/3": 200,
        f"{base}/1/history": 200, f"{base}/2/history?table=2": 200,
        f"{base}/2/tables/1": 200, f"{base}/2/tables/2": 200, f"{base}/3/tables/1": 200,
        f"{base}/2/tables/1/hands/new": 200, f"{base}/2/tables/1/hands/{entered[0].number}/edit": 200,
        f"{base}/3/tables/1/totals": 200, f"{base}/penalties": 200,
        f"{base}/2/clock": 200, f"{base}/2/board": 200,
    }


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_referee_page_in_each_language(app, organiser_client, demo_tournament, lang, template_messages,
                                             translations):
    checked_texts = check_page_languages(app, organiser_client, staff_pages(demo_tournament), lang, PAGE_SOURCES,
                                         lambda text: without_data(text, demo_tournament), template_messages,
                                         translations)
    assert checked_texts > 1000


def test_the_english_pages_show_the_texts_the_check_looks_for(organiser_client, demo_tournament):
    # the check above finds English where it is left: the same texts are found on the English pages
    pages = list(staff_pages(demo_tournament))
    table = visible_text(organiser_client.get(pages[6] + "?lang=en").get_data(as_text=True))
    for piece in ("Referee calls", "Log a call", "Substitution", "Penalty or warning:", "Hand 1"):
        assert shown(piece, table), piece
    clock = visible_text(organiser_client.get(pages[13] + "?lang=en").get_data(as_text=True))
    for piece in ("Give extra time", "Hands entered", "Extra time", "History"):
        assert shown(piece, clock), piece


def test_a_finnish_referee_reads_finnish_words(organiser_client, demo_tournament):
    pages = list(staff_pages(demo_tournament))
    table = visible_text(organiser_client.get(pages[6] + "?lang=fi").get_data(as_text=True))
    for words in ("Tuomarin kutsut", "Kirjaa kutsu", "Vaihto", "Käsi 1", "varoitus pelaajalle",
                  "Paljastuneet tai pudonneet tiilet"):
        assert words in table, words
    penalties = visible_text(organiser_client.get(pages[12] + "?lang=fi").get_data(as_text=True))
    assert "Anna rangaistus" in penalties and "Rikkeet pelaajittain" in penalties
    board = visible_text(organiser_client.get(pages[14] + "?lang=zh").get_data(as_text=True))
    assert "裁判看板" in board and "Referee board" not in board


def test_the_staff_templates_hold_no_unwrapped_text():
    """A text written in a template outside the translation calls would stay English in every language."""
    problems = {path.name: words for path in STAFF_TEMPLATES if (words := unwrapped_words(path))}
    assert len(STAFF_TEMPLATES) >= 13
    assert not problems, problems
