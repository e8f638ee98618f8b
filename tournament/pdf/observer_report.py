"""The EMA observer's draft report: the tournament, its dates and rules, the MERS weight and how it was
reached, the sessions, and the players by country, with room for the observer's remarks and signature.
Built from plain texts in the document's language (`services.documents.ema_pack` reads the values and words them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from tournament.pdf.style import (
    ENGLISH,
    PdfWords,
    build_story_pdf,
    cell,
    content_width,
    format_time,
    heading,
    lines_markup,
    paragraph_style,
    styled_table,
)

TITLE = "EMA observer report (draft)"


@dataclass(frozen=True)
class SessionLine:
    number: int
    status: str     # in the document's language
    players: int
    tables: int
    finished_at: datetime | None = None


@dataclass(frozen=True)
class CountryLine:
    code: str       # EMA's 3-letter code
    name: str
    players: int    # ranked, in the EMA file
    others: int = 0  # who played a hand too: substitutes, a player left out of the EMA result


@dataclass(frozen=True)
class ObserverReport:
    """The report's values as they are printed: the texts already in the document's language."""

    tournament: str
    place: str
    country: str
    dates: str
    days: int
    ruleset: str
    end_rule: str
    sessions_played: str    # "8 sessions of 90 minutes"
    table_points: str
    tie_breaks: str
    penalties_affect_table_points: str   # yes or no
    weight: str             # the MERS weight, a number in the document's format
    duration: str           # each part of the weight: its figures and "+" what it adds
    players: str
    countries: str
    qualification: str
    sessions: Sequence[SessionLine] = field(default_factory=tuple)
    by_country: Sequence[CountryLine] = field(default_factory=tuple)


@dataclass(frozen=True)
class ObserverWords:
    """The report's words in the document's language (services/documents/ema_pack.py translates them); python-format
    texts where a value is filled in."""

    title: str = TITLE
    header: tuple[str, str] = ("Item", "Value")
    tournament: str = "Tournament"
    name: str = "Name"
    place: str = "Place"
    country: str = "Country"
    dates: str = "Dates"
    days: str = "Days"
    rules: str = "Rules"
    ruleset: str = "Ruleset"
    sessions: str = "Sessions"
    end_rule: str = "End of session"
    table_points: str = "Table points"
    tie_breaks: str = "Tie-breaks"
    penalties: str = "Penalties move table points"
    weight: str = "MERS weight: %(weight)s"
    duration: str = "Duration"
    players: str = "Players"
    countries: str = "Countries"
    qualification: str = "Qualification"
    formula: str = ("EMA, Basics for ranking system: TOTAL_MERS = Weight_duration + Weight_players + "
                    "Weight_countries + Weight_qualif.")
    session_header: tuple[str, ...] = ("Session", "Status", "Tables", "Players", "Closed at")
    by_country: str = "Ranked players by country"   # and, beside them, the others who played a hand
    country_header: tuple[str, ...] = ("Code", "Country", "Players", "Others who played (substitutes ...)")
    remarks: str = "Observer's remarks"
    signature: str = ("Observer: ______________________________   Signature: ____________________   "
                      "Date: ____________")
    page: PdfWords = ENGLISH


HEADING_GAP = 1 * mm  # below a heading: its descenders stay off the table under it


def _heading(text: str, width: float) -> list[Flowable]:
    return [heading(text, width=width), Spacer(1, HEADING_GAP)]


def _pairs(rows: Sequence[tuple[str, str]], width: float, words: ObserverWords) -> Flowable:
    widths = [width * 0.32, width * 0.68]
    body = [[cell(k, widths[0], bold=True), cell(v, widths[1])] for k, v in rows]
    return styled_table(words.header, body, widths)


def build_observer_report_pdf(report: ObserverReport, generated_at: datetime,
                              words: ObserverWords = ObserverWords()) -> bytes:  # noqa: B008 - frozen, never changed
    width = content_width(False)
    story: list[Flowable] = [
        *_heading(words.tournament, width),
        _pairs([
            (words.name, report.tournament), (words.place, report.place), (words.country, report.country),
            (words.dates, report.dates), (words.days, str(report.days)),
        ], width, words),
        Spacer(1, 4 * mm),
        *_heading(words.rules, width),
        _pairs([
            (words.ruleset, report.ruleset), (words.sessions, report.sessions_played),
            (words.end_rule, report.end_rule), (words.table_points, report.table_points),
            (words.tie_breaks, report.tie_breaks), (words.penalties, report.penalties_affect_table_points),
        ], width, words),
        Spacer(1, 4 * mm),
        *_heading(words.weight % {"weight": report.weight}, width),
        _pairs([
            (words.duration, report.duration), (words.players, report.players),
            (words.countries, report.countries), (words.qualification, report.qualification),
        ], width, words),
        Paragraph(lines_markup(words.formula, width), paragraph_style()),  # a CJK run in its own font
        Spacer(1, 4 * mm),
        *_heading(words.sessions, width),
    ]
    session_widths = [width * s for s in (0.15, 0.25, 0.15, 0.15, 0.30)]
    story.append(styled_table(
        words.session_header,
        [[cell(str(s.number), session_widths[0]), cell(s.status, session_widths[1]),
          cell(str(s.tables), session_widths[2]), cell(str(s.players), session_widths[3]),
          cell(format_time(s.finished_at) if s.finished_at else "", session_widths[4])]
         for s in report.sessions],
        session_widths, right_aligned=[0, 2, 3]))
    story += [Spacer(1, 4 * mm), *_heading(words.by_country, width)]
    country_widths = [width * s for s in (0.12, 0.48, 0.16, 0.24)]
    story.append(styled_table(
        words.country_header,
        [[cell(c.code, country_widths[0]), cell(c.name, country_widths[1]), cell(str(c.players), country_widths[2]),
          cell(str(c.others), country_widths[3])]
         for c in report.by_country],
        country_widths, right_aligned=[2, 3]))
    story += [
        Spacer(1, 6 * mm), heading(words.remarks, width=width), Spacer(1, 30 * mm),
        Paragraph(lines_markup(words.signature, width), paragraph_style()),
    ]
    return build_story_pdf(words.title, report.tournament, generated_at, story, words=words.page)
