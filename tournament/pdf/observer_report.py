"""The EMA observer's draft report: the tournament, its dates and rules, the MERS weight and how it was
reached, the sessions, and the players by country, with room for the observer's remarks and signature.
Built from plain values (`services.ema_pack` reads them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from tournament.pdf.style import (
    build_story_pdf,
    cell,
    content_width,
    format_time,
    heading,
    paragraph_style,
    styled_table,
)

TITLE = "EMA observer report (draft)"


@dataclass(frozen=True)
class SessionLine:
    number: int
    status: str
    players: int
    tables: int
    finished_at: datetime | None = None


@dataclass(frozen=True)
class CountryLine:
    code: str       # EMA's 3-letter code
    name: str
    players: int


@dataclass(frozen=True)
class ObserverReport:
    tournament: str
    place: str
    country: str
    dates: str
    days: int
    ruleset: str
    end_rule: str
    session_count: int
    session_minutes: int
    table_points: str
    tie_breaks: str
    penalties_affect_table_points: bool
    weight: float
    weight_parts: tuple[float, float, float, float]   # duration, players, countries, qualification
    players: int
    ranked: int
    substitutes: int
    countries: int
    qualification: bool
    sessions: Sequence[SessionLine] = field(default_factory=tuple)
    by_country: Sequence[CountryLine] = field(default_factory=tuple)


def _number(value: float) -> str:
    return f"{value:g}"


def _pairs(rows: Sequence[tuple[str, str]], width: float) -> Flowable:
    widths = [width * 0.32, width * 0.68]
    body = [[cell(k, widths[0], bold=True), cell(v, widths[1])] for k, v in rows]
    return styled_table(("Item", "Value"), body, widths)


def build_observer_report_pdf(report: ObserverReport, generated_at: datetime) -> bytes:
    width = content_width(False)
    duration, by_players, by_countries, by_qualification = report.weight_parts
    story: list[Flowable] = [
        heading("Tournament", width=width),
        _pairs([
            ("Name", report.tournament), ("Place", report.place or "not given"),
            ("Country", report.country or "not given"), ("Dates", report.dates), ("Days", str(report.days)),
        ], width),
        Spacer(1, 4 * mm),
        heading("Rules", width=width),
        _pairs([
            ("Ruleset", report.ruleset), ("Sessions", f"{report.session_count} sessions of {report.session_minutes} minutes"),
            ("End of session", report.end_rule), ("Table points", report.table_points),
            ("Tie-breaks", report.tie_breaks or "none"),
            ("Penalties move table points", "yes" if report.penalties_affect_table_points else "no"),
        ], width),
        Spacer(1, 4 * mm),
        heading(f"MERS weight: {_number(report.weight)}", width=width),
        _pairs([
            ("Duration", f"{report.days} day{'s' if report.days != 1 else ''}: +{_number(duration)}"),
            ("Players", f"{report.players} ({report.ranked} ranked, {report.substitutes} substitute"
                        f"{'s' if report.substitutes != 1 else ''} played, at most 3 count): +{_number(by_players)}"),
            ("Countries", f"{report.countries}: +{_number(by_countries)}"),
            ("Qualification", f"{'yes' if report.qualification else 'no'}: +{_number(by_qualification)}"),
        ], width),
        Paragraph("EMA, Basics for ranking system: TOTAL_MERS = Weight_duration + Weight_players + "
                  "Weight_countries + Weight_qualif.", paragraph_style()),
        Spacer(1, 4 * mm),
        heading("Sessions", width=width),
    ]
    session_widths = [width * s for s in (0.15, 0.25, 0.15, 0.15, 0.30)]
    story.append(styled_table(
        ("Session", "Status", "Tables", "Players", "Closed at"),
        [[cell(str(s.number), session_widths[0]), cell(s.status, session_widths[1]),
          cell(str(s.tables), session_widths[2]), cell(str(s.players), session_widths[3]),
          cell(format_time(s.finished_at) if s.finished_at else "", session_widths[4])]
         for s in report.sessions],
        session_widths, right_aligned=[0, 2, 3]))
    story += [Spacer(1, 4 * mm), heading("Ranked players by country", width=width)]
    country_widths = [width * s for s in (0.15, 0.65, 0.20)]
    story.append(styled_table(
        ("Code", "Country", "Players"),
        [[cell(c.code, country_widths[0]), cell(c.name, country_widths[1]), cell(str(c.players), country_widths[2])]
         for c in report.by_country],
        country_widths, right_aligned=[2]))
    story += [
        Spacer(1, 6 * mm), heading("Observer's remarks", width=width), Spacer(1, 30 * mm),
        Paragraph("Observer: ______________________________   Signature: ____________________   "
                  "Date: ____________", paragraph_style()),
    ]
    return build_story_pdf(TITLE, report.tournament, generated_at, story)
