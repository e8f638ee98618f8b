"""The EMA submission pack: the results workbook, the MERS weight and the observer's draft report.

The results CSV (`services.documents.ema`) stays as it is; this module adds what the EMA's own results workbook holds.

**The workbook** is laid out as EMA's results template is read by the public importer
`Jesterboxboy/ema_scraper`, file `calculators/get_results.py` (`results_to_db`): we followed that reader's
cell addresses, not its code (it reads, we write). One sheet, "Results"; rows and columns counted from 0 as
xlrd counts them (openpyxl adds 1):

- row 2, the tournament: column 0 the title, 1 the number of players (the importer reads exactly that many
  player rows), 11 the country (3 letters), 12 the place (city), 13 the MERS weight, 15 the ruleset ("MCR";
  the importer takes anything but "riichi" as MCR), 16 the dates as text ("5-7 June 2026"), 17 the days;
  row 1 holds the labels of those columns, row 0 the labels of the player columns;
- rows 1 .. N, one per ranked player in standings order: column 2 the position, 3 first name, 4 last name,
  5 the EMA number, 6 table points, 7 score, 8 the EMA-member flag, 9 the country (3 letters).

Columns 10 and 14 are not read by the importer: 14 carries the number of countries (the observer's
figure), 10 stays empty. Row 2 therefore holds both the tournament and the second player, as the template
does.

Cell types follow what the importer does with them: it reads the EMA number as `str(int(cell))` (so a
non-member's cell must still be a number: we write 0 there, and the member flag 0 tells it to ignore it;
a member's number is written as its 8-digit text, which `int()` reads the same and which keeps the leading
zero for a human reader), the position and score through `int()`, the member flag by truth (1 or 0: a
"No" would read as true), the days as a number of days.

**EMA member** (our rule): a player whose EMA number is a valid 8-digit number (`ema.EMA_NUMBER`) is an EMA
member; anyone else (no number, or a malformed one the check flags) is not, and the importer files them
without an EMA id.

**Country codes**: the importer matches column 9 and 11 against `Country.old3`, the 3-letter code in the
links of EMA's own ranking site (`Country/NED_Information.html` next to the flag `nl.png`): IOC-style codes
(NED, GER, DEN, SUI, POR ...), not ISO alpha-3 (NLD, DEU ...). We keep ISO 3166-1 alpha-2 per player and
write the IOC code where it differs from ISO alpha-3 (`countries.IOC_CODES`), ISO alpha-3 otherwise
(`countries.country3`, from Babel's CLDR data).

**The dates** (column 16) are parsed by the importer with `daterangeparser` then `dateutil`: we write
"5 June 2026", "5-7 June 2026", "31 May - 2 June 2026" or "30 December 2026 - 2 January 2027". The days
(column 17) are the tournament's days counted inclusively, as EMA's weight counts them; the importer
compares start + days with the end date and only logs a warning on the difference (it counts one day less).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any
from xml.etree import ElementTree

from flask_babel import force_locale, gettext, ngettext
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from sqlalchemy import select

from tournament import timezones
from tournament.extensions import db
from tournament.i18n import DEFAULT_LANGUAGE, days, number
from tournament.i18n.labels import status_text, translated
from tournament.messages import msg
from tournament.models import (
    END_RULES,
    TIE_BREAKS,
    Player,
    Seat,
    Tournament,
    TournamentSession,
)
from tournament.models._common import utcnow
from tournament.pdf.observer_report import (
    CountryLine,
    ObserverReport,
    ObserverWords,
    SessionLine,
    build_observer_report_pdf,
)
from tournament.services.core.errors import ServiceError
from tournament.services.documents import ema as ema_service
from tournament.services.documents.exports import Document, page_words
from tournament.services.people.registration.countries import country3, country_name

SHEET = "Results"
XLSX_MIMETYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# Where the importer reads each value (0-based, as xlrd counts).
HEADER_ROW = 2
TITLE_COL, PLAYERS_COL, COUNTRY_COL, PLACE_COL, MERS_COL, COUNTRIES_COL, RULES_COL, DATES_COL, DAYS_COL = (
    0, 1, 11, 12, 13, 14, 15, 16, 17)
POSITION_COL, FIRST_COL, LAST_COL, EMA_COL, POINTS_COL, SCORE_COL, MEMBER_COL, PLAYER_COUNTRY_COL = range(2, 10)
PLAYER_LABELS = ("Position", "First name", "Last name", "EMA number", "Table points", "Score", "EMA member",
                 "Country")
TOURNAMENT_LABELS = {TITLE_COL: "Tournament", PLAYERS_COL: "Players", COUNTRY_COL: "Country", PLACE_COL: "Place",
                     MERS_COL: "MERS", COUNTRIES_COL: "Countries", RULES_COL: "Rules", DATES_COL: "Dates",
                     DAYS_COL: "Days"}

def is_ema_member(ema_number: str | None) -> bool:
    """An EMA member is a player with a valid 8-digit EMA number (see the module's docstring)."""
    return bool(ema_service.EMA_NUMBER.match((ema_number or "").strip()))


# ----------------------------------------------------------------------------- the MERS weight


def mers_weight(days: int, players: int, countries: int, qualification: bool = False) -> float:
    """The weight of a MERS tournament, as EMA's "Basics for ranking system" page defines it
    (mahjong-europe.org/ranking/Basicsranking.html, "Last update = EMA General Assembly May 25th, 2017",
    in force since January 1st, 2018):

        "The weight of the tournament corresponds to TOTAL_MERS = Weight_duration + Weight_players +
        Weight_countries + Weight_qualif."

        Duration: 1 Day +1, 2 Days +2, 3 Days +3.
        Players: X <= 40 +0, 41 <= X <= 80 +0.5, X > 80 +1.
        Countries: X <= 5 +0, 6 <= X <= 9 +0.5, X >= 10 +1.
        Qualification: NO +0, YES +1.
        "Substitute players (maximum 3) are accounted in the calculation of participating players."

    The page's older version (Basicsranking2018.html) put 10 countries in the +0.5 band (6 <= X <= 10, then
    X > 10); we follow the current page. The table stops at 3 days: a longer event counts 3. The page gives
    no worked examples; tests/services/test_ema_pack.py checks every band edge of the table.
    """
    return sum(mers_parts(days, players, countries, qualification))


def mers_parts(days: int, players: int, countries: int, qualification: bool = False
               ) -> tuple[float, float, float, float]:
    """Weight_duration, Weight_players, Weight_countries and Weight_qualif (see `mers_weight`)."""
    if days < 1:
        raise ServiceError(msg("A tournament lasts at least one day."), field="days")
    by_players = 1.0 if players > 80 else 0.5 if players > 40 else 0.0
    by_countries = 1.0 if countries >= 10 else 0.5 if countries > 5 else 0.0
    return float(min(days, 3)), by_players, by_countries, 1.0 if qualification else 0.0


# Which count of countries the weight uses, and why (the /mers answer and the exports page say it).
COUNTRIES_COUNTED = "countries_played"
COUNTRIES_REASON = (
    "The weight counts the countries of everyone who played a hand, substitutes included (countries_played), "
    "not only those of the ranked players in the EMA file (countries_ranked): MERS, EMA's Basics for ranking "
    "system, counts the participants (\"Substitute players (maximum 3) are accounted in the calculation of "
    "participating players\") and its Weight_countries the countries they come from; the observer reports the "
    "\"number of participants and number of countries represented\" (EMA requirements and guidelines for MERS "
    "tournaments, 3.11).")
SOURCE = "EMA, Basics for ranking system (mahjong-europe.org/ranking/Basicsranking.html)"


@dataclass(frozen=True)
class Mers:
    weight: float
    days: int
    players: int            # ranked players plus the substitutes who played, at most 3 of them
    countries: int          # the count the weight uses: countries_played (COUNTRIES_REASON)
    qualification: bool
    ranked: int
    substitutes: int        # substitutes who played a hand, drawn or come in (all of them; at most 3 count)
    start_date: date | None
    end_date: date | None
    countries_played: int = 0   # distinct countries of everyone who played a hand, substitutes included
    countries_ranked: int = 0   # distinct countries of the ranked players in the EMA file

    @property
    def parts(self) -> tuple[float, float, float, float]:
        return mers_parts(self.days, self.players, self.countries, self.qualification)

    def as_json(self) -> dict[str, Any]:
        return {
            "weight": self.weight, "days": self.days, "players": self.players, "countries": self.countries,
            "qualification": self.qualification, "ranked_players": self.ranked,
            "parts": dict(zip(("duration", "players", "countries", "qualification"), self.parts, strict=True)),
            "substitutes_played": self.substitutes,
            "countries_played": self.countries_played,
            "countries_ranked": self.countries_ranked,
            "countries_counted": COUNTRIES_COUNTED,
            "countries_reason": COUNTRIES_REASON,
            "start_date": self.start_date.isoformat() if self.start_date else None,
            "end_date": self.end_date.isoformat() if self.end_date else None,
            "source": SOURCE,
        }


@dataclass(frozen=True)
class Participants:
    """Who played a hand (`ema.who_played`): the substitutes among them and everyone's country."""

    players: dict[int, Player]      # everyone who played a hand, by id
    substitutes: list[Player]       # those of them registered as substitutes

    def countries(self) -> Counter[str]:
        return Counter((p.country or "").strip().upper() for p in self.players.values() if (p.country or "").strip())


def participants(t: Tournament) -> Participants:
    played = ema_service.who_played(t).ids
    people = {p.id: p for p in db.session.scalars(select(Player).where(Player.tournament_id == t.id))}
    players = {pid: people[pid] for pid in sorted(played) if pid in people}
    return Participants(players, [p for p in players.values() if p.is_substitute])


def tournament_days(t: Tournament) -> int:
    """Days from the start to the end date, both counted; one day when the dates are not set."""
    if t.start_date and t.end_date and t.end_date >= t.start_date:
        return (t.end_date - t.start_date).days + 1
    return 1


def mers(t: Tournament, qualification: bool = False, rows: Sequence[ema_service.EmaRow] | None = None,
         who: Participants | None = None) -> Mers:
    """The tournament's weight from what is recorded: days from its dates, the ranked players (no-shows are
    not, the disqualified are) plus the substitutes who played a hand (at most 3), the countries of everyone
    who played a hand (COUNTRIES_REASON). Whether players had to qualify is not recorded: the caller says."""
    rows = ema_service.ema_rows(t) if rows is None else rows
    who = participants(t) if who is None else who
    substitutes = len(who.substitutes)
    players = len(rows) + min(substitutes, 3)
    played = len(who.countries())
    ranked = len({row.country for row in rows if row.country})
    days = tournament_days(t)
    return Mers(weight=mers_weight(days, players, played, qualification), days=days, players=players,
                countries=played, qualification=qualification, ranked=len(rows), substitutes=substitutes,
                start_date=t.start_date, end_date=t.end_date, countries_played=played, countries_ranked=ranked)


# ----------------------------------------------------------------------------- the workbook


def date_text(start: date | None, end: date | None) -> str:
    """The dates as the importer's date parser reads them: "5-7 June 2026", "31 May - 2 June 2026"."""
    if start is None:
        return ""
    end = end if end is not None and end >= start else start
    if start == end:
        return f"{start.day} {start:%B %Y}"
    if (start.year, start.month) == (end.year, end.month):
        return f"{start.day}-{end.day} {end:%B %Y}"
    if start.year == end.year:
        return f"{start.day} {start:%B} - {end.day} {end:%B %Y}"
    return f"{start.day} {start:%B %Y} - {end.day} {end:%B %Y}"


def host_country(t: Tournament, given: str | None = None) -> str:
    """The host country as EMA writes it (3 letters): the one given (a code or a name, as the settings read
    it), else the tournament's setting; '' when neither says (the EMA check then asks for it: no guess)."""
    if given is not None:
        code = country3(given)
        if not code:
            raise ServiceError(msg("%(given)s is not a country: give a code such as NED, NL or NLD, or its name.",
                                   given=repr(given[:60])), field="country")
        return code
    return t.country or ""


def workbook_bytes(title: str, place: str, country: str, weight: Mers, rules: str,
                   rows: Sequence[ema_service.EmaRow]) -> bytes:
    """The results workbook from plain rows (see the module's docstring for the layout)."""
    book = Workbook()
    sheet = book.active
    sheet.title = SHEET

    def put(row: int, col: int, value: Any, text: bool = False) -> None:
        if isinstance(value, str):  # a control character typed into a name: a worksheet cannot hold it
            value = ILLEGAL_CHARACTERS_RE.sub("", value)
        target = sheet.cell(row=row + 1, column=col + 1, value=value)
        if isinstance(value, str):
            # openpyxl takes any text starting with "=" for a formula (a first name "=HYPERLINK(...)" would be a
            # live link, a venue "=cmd|' /C calc'!A0" a command), whatever the number format: text is text.
            target.data_type = "s"
        if text:
            target.number_format = "@"

    for offset, label in enumerate(PLAYER_LABELS):
        put(0, POSITION_COL + offset, label)
    put(0, TITLE_COL, "Tournament")
    for col, label in TOURNAMENT_LABELS.items():
        put(1, col, label)
    header = {TITLE_COL: title, PLAYERS_COL: len(rows), COUNTRY_COL: country, PLACE_COL: place,
              MERS_COL: weight.weight, COUNTRIES_COL: weight.countries, RULES_COL: rules,
              DATES_COL: date_text(weight.start_date, weight.end_date), DAYS_COL: weight.days}
    for col, value in header.items():
        put(HEADER_ROW, col, value)
    for index, row in enumerate(rows, start=1):
        member = is_ema_member(row.ema_number)
        put(index, POSITION_COL, row.place)
        put(index, FIRST_COL, row.first_name, text=True)
        put(index, LAST_COL, row.last_name, text=True)
        put(index, EMA_COL, row.ema_number if member else 0, text=member)
        put(index, POINTS_COL, row.table_points)
        put(index, SCORE_COL, row.score)
        put(index, MEMBER_COL, 1 if member else 0)
        put(index, PLAYER_COUNTRY_COL, country3(row.country))
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def results_workbook(t: Tournament, qualification: bool = False, country: str | None = None,
                     place: str | None = None) -> Document:
    rows = ema_service.ema_rows(t)
    weight = mers(t, qualification, rows)
    data = workbook_bytes(t.name, _place(t, place), host_country(t, country), weight, "MCR", rows)
    return Document(data, f"ema-results-{t.id}.xlsx", XLSX_MIMETYPE)


def _place(t: Tournament, place: str | None) -> str:
    return (place if place is not None else t.venue or "").strip()


# ----------------------------------------------------------------------------- the observer's report


def _session_lines(t: Tournament) -> list[SessionLine]:
    sessions = list(db.session.scalars(select(TournamentSession).where(TournamentSession.tournament_id == t.id)
                                       .order_by(TournamentSession.number)))
    seated: Counter[int] = Counter(db.session.scalars(
        select(Seat.session_id).where(Seat.session_id.in_([s.id for s in sessions])))) if sessions else Counter()
    return [SessionLine(number=s.number, status=status_text(s.status), players=seated[s.id],
                        tables=seated[s.id] // 4, finished_at=timezones.to_local(s.finished_at, t.time_zone))
            for s in sessions]


def _observer_words() -> ObserverWords:
    """The report's words in the language in force (force_locale)."""
    return ObserverWords(
        title=gettext("EMA observer report (draft)"), header=(gettext("Item"), gettext("Value")),
        tournament=gettext("Tournament"), name=gettext("Name"), place=gettext("Place"), country=gettext("Country"),
        dates=gettext("Dates"), days=gettext("Days"), rules=gettext("Rules"), ruleset=gettext("Ruleset"),
        sessions=gettext("Sessions"), end_rule=gettext("End of session"), table_points=gettext("Table points"),
        tie_breaks=gettext("Tie-breaks"), penalties=gettext("Penalties move table points"),
        weight=gettext("MERS weight: %(weight)s"), duration=gettext("Duration"), players=gettext("Players"),
        countries=gettext("Countries"), qualification=gettext("Qualification"),
        formula=gettext("EMA, Basics for ranking system: TOTAL_MERS = Weight_duration + Weight_players + "
                        "Weight_countries + Weight_qualif."),
        session_header=(gettext("Session"), gettext("Status"), gettext("Tables"), gettext("Players"),
                        gettext("Closed at")),
        by_country=gettext("Ranked players by country"),
        country_header=(gettext("Code"), gettext("Country"), gettext("Players"),
                        gettext("Others who played (substitutes ...)")),
        remarks=gettext("Observer's remarks"),
        signature=gettext("Observer: ______________________________   Signature: ____________________   "
                          "Date: ____________"),
        page=page_words())


def country_lines(who: Participants, rows: Sequence[ema_service.EmaRow], language: str) -> list[CountryLine]:
    """Everyone who played a hand by country: the ranked players (in the EMA file) and the others (substitutes,
    and a player left out of the EMA result), most players first; no country last."""
    in_file: Counter[str] = Counter(row.country for row in rows)
    listed = {row.player_id for row in rows}
    others = Counter((p.country or "").strip().upper() for pid, p in who.players.items() if pid not in listed)
    codes = set(in_file) | set(others)
    return [CountryLine(code=country3(code) or "—", name=country_name(code, language) if code else "",
                        players=in_file[code], others=others[code])
            for code in sorted(codes, key=lambda c: (c == "", -(in_file[c] + others[c]), country3(c) or c))]


def observer_report(t: Tournament, qualification: bool = False, country: str | None = None,
                    place: str | None = None) -> Document:
    """The observer's draft report, in the tournament's language: a printed document has no reader to ask."""
    rows = ema_service.ema_rows(t)
    who = participants(t)
    weight = mers(t, qualification, rows, who)
    host = host_country(t, country)
    duration, by_players, by_countries, by_qualification = weight.parts
    with force_locale(t.language):
        not_given = gettext("not given")
        yes, no = gettext("yes"), gettext("no")
        # English keeps the EMA's own date style, the results workbook's; the other languages their own
        dates = (date_text(t.start_date, t.end_date) if t.language == DEFAULT_LANGUAGE
                 else days(t.start_date, t.end_date)) or gettext("not set")
        lines = country_lines(who, rows, t.language)
        report = ObserverReport(
            tournament=t.name, place=_place(t, place) or not_given,
            country=f"{country_name(host, t.language)} ({host})" if host else not_given,
            dates=dates, days=weight.days, ruleset=translated(t.ruleset_label),
            end_rule=translated(END_RULES.get(t.end_rule, str(t.end_rule))),
            sessions_played=ngettext("%(num)d session of %(minutes)d minutes",
                                     "%(num)d sessions of %(minutes)d minutes", t.session_count,
                                     minutes=t.session_minutes),
            table_points="-".join(str(p) for p in t.table_points_list),
            tie_breaks=", ".join(translated(TIE_BREAKS.get(k, k)) for k in t.tie_break_list) or gettext("none"),
            penalties_affect_table_points=yes if t.penalties_affect_table_points else no,
            weight=number(weight.weight),
            duration=ngettext("%(num)d day: +%(points)s", "%(num)d days: +%(points)s", weight.days,
                              points=number(duration)),
            players=ngettext("%(players)d (%(ranked)d ranked, %(num)d substitute played, at most 3 count): "
                             "+%(points)s",
                             "%(players)d (%(ranked)d ranked, %(num)d substitutes played, at most 3 count): "
                             "+%(points)s", weight.substitutes, players=weight.players, ranked=weight.ranked,
                             points=number(by_players)),
            countries=gettext("%(played)d of everyone who played a hand, substitutes included (%(ranked)d of the "
                              "ranked players): +%(points)s", played=weight.countries_played,
                              ranked=weight.countries_ranked, points=number(by_countries)),
            qualification=f"{yes if qualification else no}: +{number(by_qualification)}",
            sessions=_session_lines(t),
            by_country=[line if line.name else CountryLine(line.code, not_given, line.players, line.others)
                        for line in lines],
        )
        data = build_observer_report_pdf(report, timezones.to_local(utcnow(), t.time_zone), _observer_words())
    return Document(data, f"ema-observer-report-{t.id}.pdf")


# ----------------------------------------------------------------------------- the workbook read back

_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_PACKAGE_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_CELL_REF = re.compile(r"^([A-Z]+)([0-9]+)$")


class SheetCells:
    """The cells of one worksheet as xlrd's `cell_value(rowx, colx)` gives them to EMA's reader: 0-based, a number
    as a float, a boolean as 1 or 0, text as text, an empty cell as ''. Read from the file's XML (zip, workbook,
    relationships, shared strings, sheet) with the standard library, not with openpyxl, which writes the file:
    a reading that does not share the writer's code (tests/services/test_ema_pack.py holds it to openpyxl's)."""

    def __init__(self, data: bytes, sheet: str = SHEET) -> None:
        with zipfile.ZipFile(io.BytesIO(data)) as book:
            workbook = ElementTree.fromstring(book.read("xl/workbook.xml"))
            rid = next((node.get(f"{_REL}id") for node in workbook.iter(f"{_MAIN}sheet") if node.get("name") == sheet),
                       None)
            if rid is None:
                raise ValueError(f"no sheet {sheet!r}")
            rels = ElementTree.fromstring(book.read("xl/_rels/workbook.xml.rels"))
            target = next(node.get("Target") for node in rels.iter(f"{_PACKAGE_REL}Relationship") if node.get("Id") == rid)
            path = target.lstrip("/") if target.startswith("/") else f"xl/{target}"
            shared: list[str] = []
            if "xl/sharedStrings.xml" in book.namelist():
                strings = ElementTree.fromstring(book.read("xl/sharedStrings.xml"))
                shared = ["".join(t.text or "" for t in item.iter(f"{_MAIN}t")) for item in strings.iter(f"{_MAIN}si")]
            root = ElementTree.fromstring(book.read(path))
        self.cells: dict[tuple[int, int], str | float | int] = {}
        for rowx, row in enumerate(root.iter(f"{_MAIN}row")):
            rowx = int(row.get("r", rowx + 1)) - 1
            for colx, c in enumerate(row.iter(f"{_MAIN}c")):
                ref = _CELL_REF.match(c.get("r", ""))
                if ref:
                    colx = sum((ord(ch) - 64) * 26 ** i for i, ch in enumerate(reversed(ref.group(1)))) - 1
                self.cells[(rowx, colx)] = self._value(c, shared)

    @staticmethod
    def _value(c: ElementTree.Element, shared: list[str]) -> str | float | int:
        kind, value = c.get("t", "n"), c.findtext(f"{_MAIN}v")
        if kind == "inlineStr":
            inline = c.find(f"{_MAIN}is")
            return "" if inline is None else "".join(t.text or "" for t in inline.iter(f"{_MAIN}t"))
        if value is None:
            return ""
        if kind == "s":
            return shared[int(value)]
        if kind in ("str", "e"):
            return value
        if kind == "b":
            return int(value)
        return float(value)

    def cell_value(self, rowx: int, colx: int) -> str | float | int:
        return self.cells.get((rowx, colx), "")


@dataclass(frozen=True)
class EmaReading:
    """What EMA's reader (ema_scraper's results_to_db, see the module's docstring) takes from the workbook, with
    its conversions: int() of the player count, the positions, the EMA numbers and the scores; an EMA number
    read back as 7 digits given its leading zero again; the member flag by truth; the rest as the cells hold it."""

    header: dict[str, Any]
    players: list[dict[str, Any]]
    error: str = ""     # where the reader would stop: a cell int() cannot read


def read_as_ema(data: bytes) -> EmaReading:
    sheet = SheetCells(data)
    value = sheet.cell_value
    header = {"title": value(2, TITLE_COL), "country3": value(2, COUNTRY_COL), "place": value(2, PLACE_COL),
              "mers": value(2, MERS_COL), "rules": value(2, RULES_COL), "dates": value(2, DATES_COL),
              "days": value(2, DAYS_COL)}
    players: list[dict[str, Any]] = []
    try:
        header["players"] = int(value(2, PLAYERS_COL))  # type: ignore[arg-type]
        for rowx in range(1, header["players"] + 1):
            ema_id = str(int(value(rowx, EMA_COL)))  # type: ignore[arg-type]
            players.append({
                "row": rowx, "position": int(value(rowx, POSITION_COL)),  # type: ignore[arg-type]
                "first_name": value(rowx, FIRST_COL), "last_name": value(rowx, LAST_COL),
                "ema_number": f"0{ema_id}" if len(ema_id) == 7 else ema_id,
                "member": bool(value(rowx, MEMBER_COL)), "table_points": value(rowx, POINTS_COL),
                "score": int(value(rowx, SCORE_COL)),  # type: ignore[arg-type]
                "country3": value(rowx, PLAYER_COUNTRY_COL),
            })
    except (TypeError, ValueError) as exc:
        return EmaReading(header, players, f"row {len(players) + 1}: {exc}")
    return EmaReading(header, players)


def _shown(value: Any) -> str:
    return repr(value) if isinstance(value, str) else f"{value:g}" if isinstance(value, float) else str(value)


def workbook_differences(reading: EmaReading, expected_header: dict[str, Any],
                         rows: Sequence[ema_service.EmaRow]) -> list[ema_service.Problem]:
    """Every value EMA's reader would take otherwise than the results say: the header's, then each row's."""
    problems = []
    header_words = {"title": msg("the tournament's name"), "players": msg("the number of players"),
                    "country3": msg("the host country"), "place": msg("the place"), "mers": msg("the MERS weight"),
                    "rules": msg("the rules"), "dates": msg("the dates"), "days": msg("the number of days")}
    for key, what in header_words.items():
        read, expected = reading.header.get(key), expected_header[key]
        if read != expected:
            problems.append(ema_service.Problem(msg("EMA's reader takes %(what)s in the workbook as %(read)s, not "
                                                    "%(expected)s.", what=what, read=_shown(read),
                                                    expected=_shown(expected))))
    if reading.error:
        problems.append(ema_service.Problem(msg("EMA's reader stops at the workbook's %(where)s.",
                                                where=reading.error)))
    row_words = {"position": msg("place"), "first_name": msg("first name"), "last_name": msg("last name"),
                 "ema_number": msg("EMA number"), "member": msg("EMA member flag"),
                 "table_points": msg("table points"), "score": msg("score"), "country3": msg("country")}
    for read, row in zip(reading.players, rows, strict=False):
        member = is_ema_member(row.ema_number)
        expected = {"position": row.place, "first_name": _text(row.first_name), "last_name": _text(row.last_name),
                    "ema_number": row.ema_number if member else read["ema_number"], "member": member,
                    "table_points": float(row.table_points), "score": row.score, "country3": country3(row.country)}
        for key, what in row_words.items():
            if read[key] != expected[key]:
                problems.append(ema_service.Problem(
                    msg("EMA's reader takes the %(what)s of %(name)s (row %(row)s) as %(read)s, not %(expected)s.",
                        what=what, name=f"{row.first_name} {row.last_name}", row=read["row"] + 1,
                        read=_shown(read[key]), expected=_shown(expected[key])), player_id=row.player_id or None))
    return problems


def _text(value: str) -> str:
    return ILLEGAL_CHARACTERS_RE.sub("", value)


# ----------------------------------------------------------------------------- the check before sending


@dataclass(frozen=True)
class PackCheck:
    """The EMA check (`ema.check`) with what the pack adds: the problems to fix, and warnings to know about."""

    problems: list[ema_service.Problem]
    warnings: list[ema_service.Problem]

    def as_json(self) -> dict[str, Any]:
        return {"ok": not self.problems, "problems": [p.as_json() for p in self.problems],
                "warnings": [w.as_json() for w in self.warnings]}


def band_warnings(weight: Mers) -> list[ema_service.Problem]:
    """The weight within one player or one country of a band edge of EMA's table (`mers_parts`): one more or
    one fewer would change it."""
    warnings = []
    for other in (weight.players - 1, weight.players + 1):
        changed = mers_weight(weight.days, other, weight.countries, weight.qualification)
        if changed != weight.weight:
            warnings.append(ema_service.Problem(msg(
                "The weight is one player from a band edge: %(players)s players count (the ranked, and the "
                "substitutes who played up to 3); with %(other)s it would be %(changed)s, not %(weight)s.",
                players=weight.players, other=other, changed=f"{changed:g}", weight=f"{weight.weight:g}")))
    for other in (weight.countries - 1, weight.countries + 1):
        changed = mers_weight(weight.days, weight.players, other, weight.qualification)
        if changed != weight.weight:
            warnings.append(ema_service.Problem(msg(
                "The weight is one country from a band edge: %(countries)s countries count; with %(other)s it "
                "would be %(changed)s, not %(weight)s.", countries=weight.countries, other=other,
                changed=f"{changed:g}", weight=f"{weight.weight:g}")))
    if weight.countries_played != weight.countries_ranked:
        warnings.append(ema_service.Problem(msg(
            "%(played)s countries played a hand and %(ranked)s are those of the ranked players: the weight counts "
            "%(played)s, every country that took part, substitutes included (MERS: EMA's Basics for ranking "
            "system counts the participants).", played=weight.countries_played, ranked=weight.countries_ranked)))
    return warnings


def check(t: Tournament, qualification: bool = False) -> PackCheck:
    """`ema.check`, then the workbook read back as EMA's reader reads it and compared with the results (any
    difference is a problem), and the warnings of `band_warnings`."""
    problems = ema_service.check(t)
    rows = ema_service.ema_rows(t)
    weight = mers(t, qualification, rows)
    host = host_country(t)
    place = _place(t, None)
    data = workbook_bytes(t.name, place, host, weight, "MCR", rows)
    expected = {"title": _text(t.name), "players": len(rows), "country3": host, "place": _text(place),
                "mers": weight.weight, "rules": "MCR", "dates": date_text(weight.start_date, weight.end_date),
                "days": weight.days}
    problems += workbook_differences(read_as_ema(data), expected, rows)
    return PackCheck(problems, band_warnings(weight))


def parse_flag(value: str | None, field: str) -> bool:
    """A yes/no query parameter: absent, "0", "false", "no" are no; "1", "true", "yes" are yes."""
    if value is None or value.strip().lower() in ("0", "false", "no"):
        return False
    if value.strip().lower() in ("1", "true", "yes"):
        return True
    raise ServiceError(msg("%(field)s is 1 or 0 (true or false), not %(value)s.", field=field, value=repr(value)),
                       field=field)

