"""Every PDF builder with the longest names the forms accept (80 + 80 characters) in every script, and
right-to-left names shaped and in order: read back with pypdf, each printed character checked against
the font it was set in (no empty boxes)."""

import io
import re
from collections.abc import Callable
from datetime import datetime

import arabic_reshaper
import pypdf
import pytest

from tests.helpers import NAME_LIMIT, SCRIPTS, fill, longest_name
from tournament.pdf.cards import CardEntry, ScheduleCard, build_cards_pdf
from tournament.pdf.penalties import PenaltyRow, build_penalties_pdf
from tournament.pdf.score_sheets import SheetPlayer, SheetTable, build_score_sheets_pdf
from tournament.pdf.seating import SeatRow, build_seating_pdf
from tournament.pdf.standings import build_standings_pdf
from tournament.pdf.style import break_lines, font_for, has_glyph, shaped
from tournament.services.results.ranking import Entrant, TableResult, rank_players

GENERATED = datetime(2026, 5, 2, 9, 15)
TOURNAMENT_LIMIT = 120     # tournament name (models.tournaments)
REASON_LIMIT = 500         # penalty reason and cancel reason (models.scoring)


def standings(title: str, name: str) -> bytes:
    entrants = [Entrant(i, name, name, "FI") for i in range(8)]
    tables = [TableResult(1, t + 1, {p: s for p, s in zip(range(4 * t, 4 * t + 4), (30, 10, -15, -25), strict=True)})
              for t in range(2)]
    rows = rank_players(entrants, tables, tie_breaks=["firsts"])
    return build_standings_pdf(title, "Standings", rows, [1], GENERATED)


def score_sheets(title: str, name: str) -> bytes:
    tables = [SheetTable(k, [SheetPlayer(w, name) for w in "ESWN"]) for k in (1, 2)]
    return build_score_sheets_pdf(title, "Session 1", 1, tables, GENERATED)


def seating(title: str, name: str) -> bytes:
    rows = [SeatRow(1 + i // 4, "ESWN"[i % 4], name, name, "FI", is_substitute=i == 3) for i in range(8)]
    return build_seating_pdf(title, "Session 1", rows, GENERATED)


def cards(title: str, name: str) -> bytes:
    return build_cards_pdf(title, "Your seats", [ScheduleCard(i, name, name, "FI", [CardEntry(1, 1, "E")])
                                                 for i in range(4)], [1, 2], GENERATED)


def penalties(title: str, name: str) -> bytes:
    reason = fill(name.split(" ")[0], REASON_LIMIT)
    rows = [PenaltyRow(1, 1, 3, name, 10, reason, GENERATED, name[:120], True, reason),
            PenaltyRow(1, 2, None, name, 30, reason, GENERATED)]
    return build_penalties_pdf(title, "2 penalties", rows, GENERATED)


BUILDERS: dict[str, Callable[[str, str], bytes]] = {
    "standings": standings, "score_sheets": score_sheets, "seating": seating, "cards": cards,
    "penalties": penalties,
}


def printed_runs(pdf: bytes) -> tuple[list[str], list[tuple[str, str]]]:
    """Each page's text, and every (font, text) piece drawn, the font as it was registered."""
    pages, pieces = [], []

    def visit(text, _cm, _tm, font_dict, _size):
        if text.strip() and font_dict is not None:
            base = str(font_dict["/BaseFont"]).lstrip("/").split("+", 1)[-1]
            pieces.append((re.sub(r"-0$", "", base), text))

    for page in pypdf.PdfReader(io.BytesIO(pdf)).pages:
        pages.append(page.extract_text(visitor_text=visit))
    return pages, pieces


def assert_no_empty_box(pieces: list[tuple[str, str]]) -> None:
    missing = {(font, char) for font, text in pieces for char in text
               if not char.isspace() and not has_glyph(font, char)}
    assert not missing, sorted(missing)[:10]


@pytest.mark.parametrize("script", SCRIPTS)
@pytest.mark.parametrize("builder", BUILDERS)
def test_every_builder_lays_out_the_longest_names_in_every_script(builder, script):
    name = longest_name(script)
    assert len(name) == 2 * NAME_LIMIT + 1
    title = fill(SCRIPTS[script][0], TOURNAMENT_LIMIT)
    pdf = BUILDERS[builder](title, name)    # was a LayoutError for score sheets (Latin, Cyrillic, CJK, Arabic)
    pages, pieces = printed_runs(pdf)
    if builder == "score_sheets":
        assert len(pages) == 2  # still one page per table
    assert_no_empty_box(pieces)
    flat = re.sub(r"\s+", "", "".join(pages))
    if script not in ("arabic", "hebrew"):  # every letter of the name printed, in order (wrapped or not)
        assert re.sub(r"\s+", "", name) in flat
    _, letter = SCRIPTS[script]
    assert sum(flat.count(c) for c in set(shaped(letter * NAME_LIMIT))) >= NAME_LIMIT  # the long word all there


@pytest.mark.parametrize("script", SCRIPTS)
def test_every_letter_has_a_font_that_carries_it(script):
    word, letter = SCRIPTS[script]
    for text in (shaped(word), shaped(letter * 3)):
        for char in text:
            for bold in (False, True):
                font = font_for(char, bold)
                assert has_glyph(font, char), (script, char, font, bold)


RTL_NAMES = {"arabic": "محمد عبد الرحمن", "hebrew": "דוד כהן"}


@pytest.mark.parametrize("script", RTL_NAMES)
@pytest.mark.parametrize("builder", BUILDERS)
def test_right_to_left_names_are_shaped_and_read_in_order(builder, script):
    name = RTL_NAMES[script]
    pages, pieces = printed_runs(BUILDERS[builder](f"{name} Open", name))
    text = "\n".join(pages)
    # pypdf reads right-to-left glyphs back into logical order: a name drawn reversed reads backwards
    assert shaped(name) in text
    assert shaped(name)[::-1] not in text
    if script == "arabic":  # joined letter forms (U+FExx), not the isolated letters
        assert shaped(name) != name and name not in text
        assert arabic_reshaper.reshape("محمد") in text
    assert_no_empty_box(pieces)


def test_a_wrapped_right_to_left_name_starts_on_its_first_line():
    first, second = "محمد", "الرحمن"
    lines = break_lines(shaped(f"{first} {second}"), width=30)
    assert lines == [shaped(first), shaped(second)]
    pages, _ = printed_runs(score_sheets("Cup", fill("عبدالرحمن محمد", NAME_LIMIT) + " " + "ش" * NAME_LIMIT))
    header = pages[0].split("Points", 1)[1]
    assert header.lstrip().startswith(shaped("عبدالرحمن"))
