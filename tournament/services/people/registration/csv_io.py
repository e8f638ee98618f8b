"""Players in and out of spreadsheets: a CSV import previewed row by row (nothing is saved until the
whole file is clean, or until the organiser chooses to import the good rows and skip the bad ones) and an
export the import reads back unchanged."""

from __future__ import annotations

import csv
import hashlib
import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from sqlalchemy import delete, select, update

from tournament.extensions import db
from tournament.messages import Message, msg, msg_n
from tournament.models import Player, PlayerImport, Tournament
from tournament.models._common import utcnow
from tournament.services.core.csvfile import FORMULA_START, csv_text
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, NotFound, ServiceError
from tournament.services.people.registration.lists import list_players
from tournament.services.people.registration.players import (
    SEATED_STATUSES,
    PlayerData,
    duplicate_problems,
    fixed_table_problems,
    name_key,
    new_player,
    players_of,
    table_count,
    validate,
)

IN_THIS_TOURNAMENT = msg(" in this tournament")
CSV_COLUMNS = ["first_name", "last_name", "country", "club", "team", "ema_number", "substitute", "notes"]
# Read when present; exported only when a player has one (a list without fixed tables keeps the columns above).
OPTIONAL_COLUMNS = ["fixed_table"]
IMPORT_COLUMNS = [*CSV_COLUMNS, *OPTIONAL_COLUMNS]
REQUIRED_COLUMNS = ["first_name", "last_name"]
MAX_IMPORT_ROWS = 2000
# The import reads 9 columns; a header of 200,000 (a 1.5 MB file) kept a worker busy for minutes.
MAX_IMPORT_COLUMNS = 64
# A previewed file is deleted when another file is previewed this long after it.
IMPORT_KEPT_FOR = timedelta(days=1)
TRUE_WORDS = {"yes", "y", "1", "true"}
FALSE_WORDS = {"no", "n", "0", "false", ""}

@dataclass
class CsvRow:
    """One data row of an uploaded file, as the spreadsheet numbers it (header = row 1)."""

    number: int
    values: dict[str, str]
    data: PlayerData | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass
class CsvPreview:
    rows: list[CsvRow] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # problems with the file itself (header, encoding)
    columns: list[str] = field(default_factory=list)

    @property
    def bad_rows(self) -> list[CsvRow]:
        return [r for r in self.rows if r.errors]

    @property
    def good_rows(self) -> list[CsvRow]:
        return [r for r in self.rows if r.data is not None and not r.errors]

    @property
    def ok(self) -> bool:
        return not self.errors and not self.bad_rows and bool(self.rows)

    @property
    def can_skip_bad_rows(self) -> bool:
        """Some rows are fine and others not, and the file itself is readable: the good ones may go in alone."""
        return not self.errors and bool(self.bad_rows) and bool(self.good_rows)

    def error_messages(self) -> dict[str, str]:
        """{'file': ..., 'row 3': ...}: every problem, for a ServiceError."""
        messages = {f"file {i + 1}" if i else "file": m for i, m in enumerate(self.errors)}
        messages.update({f"row {r.number}": " ".join(r.errors) for r in self.bad_rows})
        return messages


class _Registered:
    """Players (or earlier rows of the file) looked up by what makes a duplicate (`duplicate_problems`: the same
    EMA number, or the same name with the same EMA number or none) and by team spelling; the first one in
    order wins, as a search in order would find it."""

    def __init__(self, players: Iterable[Player | PlayerData] = ()) -> None:
        self._by_number: dict[str, tuple[int, Player | PlayerData]] = {}
        self._by_name: dict[tuple[tuple[str, str], str | None], tuple[int, Player | PlayerData]] = {}
        self._teams: dict[str, str] = {}
        for player in players:
            self.add(0, player)

    def add(self, number: int, player: Player | PlayerData) -> None:
        entry = (number, player)
        if player.ema_number:
            self._by_number.setdefault(player.ema_number, entry)
        else:
            self._by_name.setdefault((name_key(player.first_name, player.last_name), player.ema_number), entry)
        if player.team:
            self._teams.setdefault(player.team.casefold(), player.team)

    def duplicated_by(self, data: PlayerData) -> tuple[int, Player | PlayerData] | None:
        """The (row, player) `data` duplicates, if any."""
        if data.ema_number:
            return self._by_number.get(data.ema_number)
        return self._by_name.get((name_key(data.first_name, data.last_name), data.ema_number))

    def team_spelling(self, team: str) -> str | None:
        """An existing team's spelling when only the case differs ('team fi' joins 'Team FI')."""
        return self._teams.get(team.casefold()) if team else None


def decode_csv(raw: bytes) -> str:
    """Text of an uploaded file: UTF-8, with or without a byte order mark."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ServiceError(
            msg("The file is not UTF-8 text. Save it as “CSV UTF-8” (Excel) or “Text CSV” with UTF-8 "
                "(LibreOffice) and upload it again."),
            field="file",
        ) from exc


def _column_name(header: str) -> str:
    return "_".join(header.strip().lower().replace("-", " ").split())


def _delimiter(text: str) -> str:
    first = next((line for line in io.StringIO(text, newline=None) if line.strip()), "")
    return max((";", ",", "\t"), key=first.count) if first else ","


def _unquote(value: str) -> str:
    """Undo the export's protection against spreadsheet formulas ('=x is exported as '\\'=x')."""
    value = value.strip()
    if len(value) > 1 and value[0] == "'" and value[1] in FORMULA_START:
        return value[1:]
    return value


def _substitute(value: str) -> bool | None:
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    return None


def _unreadable(row: int, error: csv.Error) -> Message:
    if "field larger than field limit" in str(error):
        return msg("The file could not be read at row %(row)s: a cell is longer than %(kb)s KB, far more than any "
                   "player field. Is it the player list?", row=row, kb=csv.field_size_limit() // 1024)
    return msg("The file could not be read as CSV at row %(row)s: %(error)s.", row=row, error=str(error))


def parse_csv(text: str, tournament: Tournament | None = None) -> CsvPreview:
    """Read a player list; every problem is reported per row and nothing is saved. With `tournament`,
    rows that duplicate its players are reported too."""
    preview = CsvPreview()
    text = (text or "").lstrip("\ufeff")
    if not text.strip():
        preview.errors.append(msg("The file is empty. The first row must name the columns: %(columns)s",
                                  columns=",".join(IMPORT_COLUMNS)))
        return preview
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    # The rows with a value, numbered as the spreadsheet numbers them: the header is the first. Read up to one
    # row too many, no further: a 4 MB file of blank lines or tiny rows was half a gigabyte of lists.
    records: list[tuple[int, list[str]]] = []
    number = 0
    try:
        for number, cells in enumerate(reader, start=1):
            if "".join(cells).strip():
                records.append((number, cells))
                if len(records) > MAX_IMPORT_ROWS + 1:
                    break
    except csv.Error as exc:  # the csv module's cell limit (128 KB), or a broken quote
        preview.errors.append(_unreadable(number + 1, exc))
        return preview
    if not records:
        preview.errors.append(msg("The file has no header row. The columns are: %(columns)s",
                                  columns=",".join(IMPORT_COLUMNS)))
        return preview
    header_number, header = records.pop(0)
    if len(header) > MAX_IMPORT_COLUMNS:
        preview.errors.append(msg("Row %(row)s, the header, has %(count)s columns: a player list has at most "
                                  "%(max)s. The columns are: %(columns)s.", row=header_number, count=len(header),
                                  max=MAX_IMPORT_COLUMNS, columns=", ".join(IMPORT_COLUMNS)))
        return preview
    columns = [_column_name(h.lstrip("\ufeff")) for h in header]
    preview.columns = columns
    unknown = [h for h, c in zip(header, columns, strict=True) if c and c not in IMPORT_COLUMNS]
    if unknown:
        preview.errors.append(msg_n(
            "Unknown column %(names)s in row %(row)s. The columns are: %(columns)s.",
            "Unknown columns %(names)s in row %(row)s. The columns are: %(columns)s.", len(unknown),
            names=", ".join(repr(u.strip()) for u in unknown), row=header_number, columns=", ".join(IMPORT_COLUMNS)))
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        preview.errors.append(msg_n("Missing required column %(names)s in row %(row)s.",
                                    "Missing required columns %(names)s in row %(row)s.", len(missing),
                                    names=", ".join(missing), row=header_number))
    repeated = sorted(c for c, n in Counter(columns).items() if c and n > 1)
    if repeated:
        preview.errors.append(msg("Column %(names)s appears more than once in row %(row)s.",
                                  names=", ".join(repeated), row=header_number))
    if preview.errors:
        return preview

    existing = players_of(tournament) if tournament is not None else []
    # Looked up, not searched: comparing every row with every earlier one and every player took 4.6 s for
    # 2,000 rows.
    earlier_rows, players = _Registered(), _Registered(existing)
    accepted: list[tuple[int, PlayerData]] = []
    for number, cells in records:
        row = CsvRow(number=number, values={})
        preview.rows.append(row)
        if len(preview.rows) > MAX_IMPORT_ROWS:
            preview.rows.pop()
            preview.errors.append(msg("The file has more than %(max)s players; split it.", max=MAX_IMPORT_ROWS))
            break
        extra = [c for c in cells[len(columns):] if c.strip()]
        if extra:
            row.errors.append(msg("This row has %(cells)s cells but the header names %(columns)s columns.",
                                  cells=len(cells), columns=len(columns)))
        row.values = {c: _unquote(cells[i]) if i < len(cells) else "" for i, c in enumerate(columns) if c}
        if any("\x00" in cell for cell in cells):  # the database cannot store it: binary data, not a list
            row.errors.append(msg("This row contains a NUL character (\\u0000): save the file as text CSV."))
            continue
        substitute = _substitute(row.values.get("substitute", ""))
        table_cell = row.values.get("fixed_table", "").strip()
        whole = table_cell.isascii() and table_cell.isdigit() and len(table_cell) < 7
        fixed_table = int(table_cell) if whole else None
        data = PlayerData(
            first_name=row.values.get("first_name", ""),
            last_name=row.values.get("last_name", ""),
            country=row.values.get("country", ""),
            club=row.values.get("club", ""),
            team=row.values.get("team", ""),
            ema_number=row.values.get("ema_number", ""),
            is_substitute=bool(substitute),
            notes=row.values.get("notes", ""),
            fixed_table=fixed_table,
        )
        problems = validate(data)
        row.errors.extend(problems.values())
        if substitute is None:
            row.errors.append(msg("Substitute must be yes or no (got '%(value)s').", value=row.values["substitute"]))
        if table_cell and fixed_table is None:
            row.errors.append(msg("The fixed table must be a table number or empty (got '%(value)s').", value=table_cell))
        if row.errors:
            continue
        earlier = earlier_rows.duplicated_by(data)
        if earlier is not None:
            row.errors.extend(duplicate_problems(data, [earlier[1]],
                                                 where=msg(" on row %(row)s", row=earlier[0])).values())
        else:
            found = players.duplicated_by(data)
            if found is not None:
                row.errors.extend(duplicate_problems(data, [found[1]], where=IN_THIS_TOURNAMENT).values())
        if not row.errors:
            data.team = players.team_spelling(data.team) or earlier_rows.team_spelling(data.team) or data.team
            row.data = data
            accepted.append((number, data))
            earlier_rows.add(number, data)
    _check_fixed_tables(preview, existing)
    if not preview.rows and not preview.errors:
        preview.errors.append(msg("The file has a header but no players."))
    return preview


def _check_fixed_tables(preview: CsvPreview, existing: list[Player]) -> None:
    """Fixed tables are counted against the tables of the players registered and the file's, and kept by one
    player each (in this tournament or earlier in the file); a row that breaks this is not imported."""
    accepted = [(r, r.data) for r in preview.rows if r.data is not None]
    if all(data.fixed_table is None for _, data in accepted):
        return
    tables = table_count([*existing, *(data for _, data in accepted)])
    holders: dict[int, Player] = {}  # table -> the first player registered or present keeping it
    for player in existing:
        if player.fixed_table is not None and player.status in SEATED_STATUSES:
            holders.setdefault(player.fixed_table, player)
    kept: dict[int, tuple[int, PlayerData]] = {}  # table -> (row, player) earlier in the file
    for row, data in accepted:
        if data.fixed_table is None:
            continue
        holder = holders.get(data.fixed_table)
        problems = fixed_table_problems(data, [holder] if holder else [], tables, where=IN_THIS_TOURNAMENT)
        if not problems and data.fixed_table in kept:
            number, other = kept[data.fixed_table]
            problems = fixed_table_problems(data, [other], tables, where=msg(" on row %(row)s", row=number))
        if problems:
            row.errors.extend(problems.values())
            row.data = None
        else:
            kept[data.fixed_table] = (row.number, data)


def import_csv(tournament: Tournament, text: str, skip_bad_rows: int = 0,
               good_rows: int | None = None) -> list[Player]:
    """Add every player of the file in one transaction, or none when any row has a problem.

    With `skip_bad_rows` (the organiser's choice on the preview: import the `good_rows` good rows, skip the
    `skip_bad_rows` bad ones) the good rows go in and the bad ones are left out, provided the file reads the
    same now: counts that changed since the preview (a duplicate registered meanwhile) are a 409."""
    preview = parse_csv(text, tournament)
    good, bad = len(preview.good_rows), len(preview.bad_rows)
    if skip_bad_rows and not preview.errors and (
            bad != skip_bad_rows or not good or (good_rows is not None and good != good_rows)):
        raise ConflictError(msg("The list changed since the preview: %(good)s and %(bad)s now. Nothing was imported: check the "
                                "preview again.", good=msg_n("%(num)d row is fine", "%(num)d rows are fine", good),
                                bad=msg_n("%(num)d has problems", "%(num)d have problems", bad)))
    if not preview.ok and not (skip_bad_rows and preview.can_skip_bad_rows):
        bad = len(preview.bad_rows)
        refusal = (msg_n("%(num)d row has problems; nothing was imported.",
                         "%(num)d rows have problems; nothing was imported.", bad)
                   if bad else msg("The file has problems; nothing was imported."))
        raise ServiceError(refusal, errors=preview.error_messages())
    try:
        with changes():
            players = [new_player(tournament, row.data) for row in preview.rows if row.data is not None]
    except ConflictError:
        # The unique player keys refused a row: the same file (or some of its players) was saved by another
        # request at the same moment, e.g. the import confirmed twice. Nothing of this one is stored.
        raise ConflictError(msg("Some of these players were registered by someone else at the same moment"
                                " (the import sent twice?): nothing was imported again. Check the player "
                                "list.")) from None
    return players


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def keep_import(tournament: Tournament, text: str, uploaded_by_id: int | None) -> PlayerImport:
    """Keep a previewed file until it is confirmed (its id goes in the confirm form instead of the text).
    Files previewed more than a day ago are deleted on the way (a big file is megabytes; once imported, the
    players are the record)."""
    db.session.execute(delete(PlayerImport).where(PlayerImport.created_at < utcnow() - IMPORT_KEPT_FOR))
    kept = PlayerImport(tournament_id=tournament.id, uploaded_by_id=uploaded_by_id, csv_text=text,
                        sha256=_digest(text))
    with changes():
        db.session.add(kept)
    return kept


def kept_import(tournament: Tournament, import_id: int) -> PlayerImport:
    """A previewed file of this tournament; another tournament's (or a purged one) is not found."""
    kept = db.session.get(PlayerImport, import_id)
    if kept is None or kept.tournament_id != tournament.id:
        raise NotFound(msg("This import is not known: it was deleted or belongs to another tournament. "
                           "Upload the file again."))
    return kept


def confirm_import(tournament: Tournament, import_id: int, skip_bad_rows: int = 0,
                   good_rows: int | None = None) -> list[Player]:
    """Import the previewed file `import_id` exactly as it was previewed, once (with `skip_bad_rows`, its good
    rows only: see `import_csv`).

    The conditional UPDATE marks it confirmed in the same transaction as its players: a second confirmation
    (double click, two tabs) waits on the row lock until the first ends, then matches no row and is refused;
    if the first failed, its rollback leaves the file unconfirmed."""
    kept = kept_import(tournament, import_id)
    marked = db.session.execute(
        update(PlayerImport)
        .where(PlayerImport.id == kept.id, PlayerImport.confirmed_at.is_(None))
        .values(confirmed_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    if marked.rowcount != 1:  # type: ignore[attr-defined]
        raise ConflictError(msg("This file was already imported (the import was confirmed twice?): "
                                "nothing was imported again. Check the player list."))
    text = db.session.scalar(select(PlayerImport.csv_text).where(PlayerImport.id == kept.id)) or ""
    if _digest(text) != kept.sha256:
        raise ServiceError(msg("The kept file does not match the one previewed; nothing was imported. "
                               "Upload it again."))
    return import_csv(tournament, text, skip_bad_rows, good_rows)


def export_csv(tournament: Tournament) -> str:
    """Every player, by last name, with the import's header (the file imports again unchanged: the import
    takes off the `'` that the CSV writer puts before a cell a spreadsheet would run as a formula)."""
    players = list_players(tournament)
    fixed = any(p.fixed_table is not None for p in players)
    return csv_text([*CSV_COLUMNS, *(OPTIONAL_COLUMNS if fixed else [])], (
        (p.first_name, p.last_name, p.country, p.club, p.team, p.ema_number or "",
         "yes" if p.is_substitute else "no", p.notes, *([p.fixed_table] if fixed else []))
        for p in players))
