"""Registering players, the check-in desk, CSV import/export and teams.

Plain arguments in, plain results out, writes flushed, committed once by the caller (the request or the command). Who is in the next draw:
`active_players` (present, not substitutes) and `available_substitutes` (present substitutes);
withdrawals and late arrivals therefore feed the next draw as soon as their status changes.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field, fields

import pycountry
from sqlalchemy import select

from tournament.extensions import db
from tournament.models import Player, PlayerStatus, Tournament
from tournament.models._common import utcnow
from tournament.services.db import changes
from tournament.services.errors import ConflictError, ServiceError

# Limits shared by the form and the service (they match the column sizes).
LIMITS = {"first_name": 80, "last_name": 80, "club": 120, "team": 120, "notes": 1000}

STATUS_LABELS = {
    PlayerStatus.REGISTERED.value: "Registered",
    PlayerStatus.PRESENT.value: "Present",
    PlayerStatus.WITHDRAWN.value: "Withdrawn",
    PlayerStatus.DISQUALIFIED.value: "Disqualified",
}

CSV_COLUMNS = ["first_name", "last_name", "country", "club", "team", "ema_number", "substitute", "notes"]
REQUIRED_COLUMNS = ["first_name", "last_name"]
MAX_IMPORT_ROWS = 2000
TRUE_WORDS = {"yes", "y", "1", "true"}
FALSE_WORDS = {"no", "n", "0", "false", ""}
# Spreadsheets run cells that start with these as formulas; exports quote them with a leading '.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


@dataclass
class PlayerData:
    """What an organiser states about a player."""

    first_name: str
    last_name: str
    country: str = ""
    club: str = ""
    team: str = ""
    ema_number: str | None = None
    is_substitute: bool = False
    status: str = PlayerStatus.REGISTERED.value
    notes: str = ""

    @classmethod
    def from_player(cls, p: Player) -> PlayerData:
        return cls(**{f.name: getattr(p, f.name) for f in fields(cls)})

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


# --- Validation -------------------------------------------------------------------------------


def country_code(value: str | None) -> str | None:
    """The upper-case alpha-2 code for an alpha-2 or alpha-3 code or an exact English name; '' for
    empty input; None when the country is unknown."""
    value = " ".join((value or "").split())
    if not value:
        return ""
    country = None
    if len(value) == 2 and value.isalpha():
        country = pycountry.countries.get(alpha_2=value)
    elif len(value) == 3 and value.isalpha():
        country = pycountry.countries.get(alpha_3=value)
    if country is None:
        for key in ("name", "common_name", "official_name"):
            country = pycountry.countries.get(**{key: value})
            if country is not None:
                break
    return country.alpha_2.upper() if country is not None else None


def country_name(code: str | None) -> str:
    """English name of an alpha-2 code ('' when empty; the code itself when unknown)."""
    if not code:
        return ""
    country = pycountry.countries.get(alpha_2=code)
    if country is None:
        return code
    return getattr(country, "common_name", None) or country.name


def country_names() -> list[str]:
    """Every country's English name, for suggestions in the form."""
    return sorted(getattr(c, "common_name", None) or c.name for c in pycountry.countries)


def validate(data: PlayerData) -> dict[str, str]:
    """Every problem with `data`, keyed by field name (empty when all is well). Normalises `data`:
    trims text, stores the country as an alpha-2 code and an empty EMA number as None."""
    errors: dict[str, str] = {}
    for name in ("first_name", "last_name", "club", "team"):
        setattr(data, name, " ".join((getattr(data, name) or "").split()))
    data.notes = (data.notes or "").strip()
    for name, label in (("first_name", "first name"), ("last_name", "last name")):
        value = getattr(data, name)
        if not value:
            errors[name] = f"The {label} is required."
        elif len(value) > LIMITS[name]:
            errors[name] = f"The {label} is at most {LIMITS[name]} characters."
    for name, label in (("club", "club"), ("team", "team"), ("notes", "notes")):
        if len(getattr(data, name)) > LIMITS[name]:
            errors[name] = f"The {label} {'are' if name == 'notes' else 'is'} at most {LIMITS[name]} characters."
    raw_country = data.country or ""
    code = country_code(raw_country)
    if code is None:
        errors["country"] = (
            f"Unknown country '{raw_country.strip()}': use an ISO 3166 code such as FI or FIN, "
            "or the English name such as Finland."
        )
    else:
        data.country = code
    ema = "".join((data.ema_number or "").split())
    if ema and not (len(ema) == 8 and ema.isascii() and ema.isdigit()):
        errors["ema_number"] = f"The EMA number must be exactly 8 digits (got '{data.ema_number.strip()}')."
    else:
        data.ema_number = ema or None
    if data.status not in STATUS_LABELS:
        errors["status"] = f"Unknown status '{data.status}': use {', '.join(STATUS_LABELS)}."
    data.is_substitute = bool(data.is_substitute)
    return errors


def _name_key(first: str, last: str) -> tuple[str, str]:
    return (" ".join(first.split()).casefold(), " ".join(last.split()).casefold())


def duplicate_problems(
    data: PlayerData, others: Iterable[Player | PlayerData], where: str = ""
) -> dict[str, str]:
    """Why `data` duplicates one of `others` (already-validated data): same name with the same EMA
    number (or both without one), or the same EMA number on a different name."""
    key = _name_key(data.first_name, data.last_name)
    for other in others:
        same_name = _name_key(other.first_name, other.last_name) == key
        if same_name and other.ema_number == data.ema_number:
            ema = f" with EMA number {data.ema_number}" if data.ema_number else " without an EMA number"
            return {"first_name": f"{other.full_name}{ema} is already registered{where}."}
        if data.ema_number and other.ema_number == data.ema_number:
            return {
                "ema_number": f"EMA number {data.ema_number} already belongs to {other.full_name}{where}."
            }
    return {}


def players_of(tournament: Tournament) -> list[Player]:
    """Every player of the tournament (substitutes and withdrawn included), in registration order."""
    return list(
        db.session.scalars(select(Player).where(Player.tournament_id == tournament.id).order_by(Player.id))
    )


def _canonical_team(team: str, players: Iterable[Player | PlayerData]) -> str:
    """Reuse an existing team's spelling when only the case differs ('team fi' joins 'Team FI')."""
    if not team:
        return team
    for p in players:
        if p.team and p.team.casefold() == team.casefold():
            return p.team
    return team


def _check(tournament: Tournament, data: PlayerData, exclude: Player | None = None) -> None:
    errors = validate(data)
    if errors:
        raise ServiceError("Please correct the marked fields.", errors=errors)
    others = [p for p in players_of(tournament) if exclude is None or p.id != exclude.id]
    errors = duplicate_problems(data, others)
    if errors:
        raise ServiceError(next(iter(errors.values())), errors=errors)
    data.team = _canonical_team(data.team, others)


def _apply(player: Player, data: PlayerData) -> None:
    for f in fields(PlayerData):
        if f.name != "status":
            setattr(player, f.name, getattr(data, f.name))
    _set_status(player, data.status)


def _set_status(player: Player, status: str) -> None:
    if status == player.status:
        return
    if status == PlayerStatus.PRESENT:
        player.checked_in_at = utcnow()
    elif status == PlayerStatus.REGISTERED:
        player.checked_in_at = None
    player.status = status


# --- One player -------------------------------------------------------------------------------


def add_player(tournament: Tournament, data: PlayerData) -> Player:
    _check(tournament, data)
    with changes():
        player = Player(tournament_id=tournament.id, status=PlayerStatus.REGISTERED.value)
        _apply(player, data)
        db.session.add(player)
    return player


def update_player(player: Player, data: PlayerData, expected_version: int | None = None) -> Player:
    """Apply `data`; refuse when the player changed since the form was loaded."""
    if expected_version is not None and expected_version != player.version:
        raise ConflictError(
            f"{player.full_name} was changed by someone else while you were editing. "
            "Your changes were not saved; the form now shows the current values."
        )
    _check(player.tournament, data, exclude=player)
    with changes():
        _apply(player, data)
    return player


def get_player(tournament: Tournament, player_id: int) -> Player | None:
    player = db.session.get(Player, player_id)
    if player is None or player.tournament_id != tournament.id:
        return None
    return player


# --- Status -----------------------------------------------------------------------------------


def _append_note(player: Player, note: str) -> None:
    note = " ".join((note or "").split())
    if note:
        combined = f"{player.notes}\n{note}" if player.notes else note
        player.notes = combined[-LIMITS["notes"] :]


def set_status(player: Player, status: str, note: str = "") -> Player:
    """Any status change (check-in time kept consistent); `note` is appended to the notes."""
    if status not in STATUS_LABELS:
        raise ServiceError(f"Unknown status '{status}'.", field="status")
    with changes():
        _set_status(player, status)
        _append_note(player, note)
    return player


def check_in(player: Player) -> Player:
    """Mark the player present (idempotent). Withdrawn or disqualified players are reinstated first."""
    if player.status == PlayerStatus.PRESENT:
        return player
    if player.status != PlayerStatus.REGISTERED:
        raise ServiceError(
            f"{player.full_name} is {player.status}: an organiser must reinstate them before check-in."
        )
    return set_status(player, PlayerStatus.PRESENT)


def undo_check_in(player: Player) -> Player:
    if player.status == PlayerStatus.REGISTERED:
        return player
    if player.status != PlayerStatus.PRESENT:
        raise ServiceError(f"{player.full_name} is {player.status}, not checked in.")
    return set_status(player, PlayerStatus.REGISTERED)


def withdraw(player: Player, note: str = "") -> Player:
    if player.status == PlayerStatus.WITHDRAWN:
        raise ServiceError(f"{player.full_name} has already withdrawn.")
    if player.status == PlayerStatus.DISQUALIFIED:
        raise ServiceError(f"{player.full_name} is disqualified; reinstate them first.")
    return set_status(player, PlayerStatus.WITHDRAWN, f"Withdrawn: {note}" if note.strip() else "")


def disqualify(player: Player, note: str = "") -> Player:
    if player.status == PlayerStatus.DISQUALIFIED:
        raise ServiceError(f"{player.full_name} is already disqualified.")
    return set_status(player, PlayerStatus.DISQUALIFIED, f"Disqualified: {note}" if note.strip() else "")


def reinstate(player: Player) -> Player:
    """A withdrawn or disqualified player is registered again (and checks in again)."""
    if player.status not in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED):
        raise ServiceError(f"{player.full_name} is {player.status}; there is nothing to reinstate.")
    return set_status(player, PlayerStatus.REGISTERED)


# --- Lists ------------------------------------------------------------------------------------


def fold(text: str) -> str:
    """Lower case without accents, for searching ('Müller' matches 'muller')."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def search_text(player: Player) -> str:
    """What a search matches: names, country code and name, club, team, EMA number."""
    parts = [player.first_name, player.last_name, player.country, country_name(player.country),
             player.club, player.team, player.ema_number or ""]
    return fold(" ".join(part for part in parts if part))


def matches(player: Player, search: str | None) -> bool:
    """Every word of `search` occurs in the player's search text."""
    haystack = search_text(player)
    return all(word in haystack for word in fold(search or "").split())


def sort_key(player: Player) -> tuple:
    return (fold(player.last_name), fold(player.first_name), player.id)


def list_players(tournament: Tournament, search: str | None = None, status: str | None = None) -> list[Player]:
    """Players sorted by last name, optionally only those matching `search` and/or with `status`."""
    if status and status not in STATUS_LABELS:
        raise ServiceError(f"Unknown status '{status}'.", field="status")
    players = [
        p for p in players_of(tournament) if (not status or p.status == status) and matches(p, search)
    ]
    return sorted(players, key=sort_key)


def active_players(tournament: Tournament) -> list[Player]:
    """Who plays in the next draw: present players who are not substitutes, by last name."""
    return [p for p in list_players(tournament, status=PlayerStatus.PRESENT) if not p.is_substitute]


def available_substitutes(tournament: Tournament) -> list[Player]:
    """Substitutes who are present, ready to fill an incomplete table, by last name."""
    return [p for p in list_players(tournament, status=PlayerStatus.PRESENT) if p.is_substitute]


def team_members(tournament: Tournament, statuses: Iterable[str] | None = None) -> dict[str, list[Player]]:
    """{team: players} for players with a team, teams in alphabetical order, members by last name.
    `statuses` keeps only players with one of those statuses (default: everybody)."""
    wanted = set(statuses) if statuses is not None else None
    teams: dict[str, list[Player]] = {}
    for p in list_players(tournament):
        if p.team and (wanted is None or p.status in wanted):
            teams.setdefault(p.team, []).append(p)
    return {team: teams[team] for team in sorted(teams, key=fold)}


def counts(tournament: Tournament) -> dict[str, int]:
    """Players (substitutes apart) by status, and substitutes in total and present."""
    result = {status: 0 for status in STATUS_LABELS}
    result.update(players=0, substitutes=0, substitutes_present=0)
    for p in players_of(tournament):
        if p.is_substitute:
            result["substitutes"] += 1
            result["substitutes_present"] += p.status == PlayerStatus.PRESENT
        else:
            result["players"] += 1
            result[p.status] = result.get(p.status, 0) + 1
    return result


# --- CSV --------------------------------------------------------------------------------------


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
    def ok(self) -> bool:
        return not self.errors and not self.bad_rows and bool(self.rows)

    def error_messages(self) -> dict[str, str]:
        """{'file': ..., 'row 3': ...}: every problem, for a ServiceError."""
        messages = {f"file {i + 1}" if i else "file": m for i, m in enumerate(self.errors)}
        messages.update({f"row {r.number}": " ".join(r.errors) for r in self.bad_rows})
        return messages


def decode_csv(raw: bytes) -> str:
    """Text of an uploaded file: UTF-8, with or without a byte order mark."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ServiceError(
            "The file is not UTF-8 text. Save it as “CSV UTF-8” (Excel) or “Text CSV” with UTF-8 "
            "(LibreOffice) and upload it again.",
            field="file",
        ) from exc


def _column_name(header: str) -> str:
    return "_".join(header.strip().lower().replace("-", " ").split())


def _delimiter(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
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


def parse_csv(text: str, tournament: Tournament | None = None) -> CsvPreview:
    """Read a player list; every problem is reported per row and nothing is saved. With `tournament`,
    rows that duplicate its players are reported too."""
    preview = CsvPreview()
    text = (text or "").lstrip("\ufeff")
    if not text.strip():
        preview.errors.append("The file is empty. The first row must name the columns: " + ",".join(CSV_COLUMNS))
        return preview
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=_delimiter(text))
    records = list(enumerate(reader, start=1))
    # Blank rows before the header are skipped; the header is the first row with a value.
    while records and not any(cell.strip() for cell in records[0][1]):
        records.pop(0)
    if not records:
        preview.errors.append("The file has no header row. The columns are: " + ",".join(CSV_COLUMNS))
        return preview
    header_number, header = records.pop(0)
    columns = [_column_name(h.lstrip("\ufeff")) for h in header]
    preview.columns = columns
    unknown = [h for h, c in zip(header, columns, strict=True) if c and c not in CSV_COLUMNS]
    if unknown:
        preview.errors.append(
            f"Unknown column{'s' if len(unknown) > 1 else ''} {', '.join(repr(u.strip()) for u in unknown)} "
            f"in row {header_number}. The columns are: {', '.join(CSV_COLUMNS)}."
        )
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        preview.errors.append(
            f"Missing required column{'s' if len(missing) > 1 else ''} {', '.join(missing)} in row {header_number}."
        )
    repeated = sorted({c for c in columns if c and columns.count(c) > 1})
    if repeated:
        preview.errors.append(f"Column {', '.join(repeated)} appears more than once in row {header_number}.")
    if preview.errors:
        return preview

    existing = players_of(tournament) if tournament is not None else []
    accepted: list[tuple[int, PlayerData]] = []
    for number, cells in records:
        if not any(cell.strip() for cell in cells):
            continue  # blank line
        row = CsvRow(number=number, values={})
        preview.rows.append(row)
        if len(preview.rows) > MAX_IMPORT_ROWS:
            preview.rows.pop()
            preview.errors.append(f"The file has more than {MAX_IMPORT_ROWS} players; split it.")
            break
        extra = [c for c in cells[len(columns):] if c.strip()]
        if extra:
            row.errors.append(f"This row has {len(cells)} cells but the header names {len(columns)} columns.")
        row.values = {c: _unquote(cells[i]) if i < len(cells) else "" for i, c in enumerate(columns) if c}
        substitute = _substitute(row.values.get("substitute", ""))
        data = PlayerData(
            first_name=row.values.get("first_name", ""),
            last_name=row.values.get("last_name", ""),
            country=row.values.get("country", ""),
            club=row.values.get("club", ""),
            team=row.values.get("team", ""),
            ema_number=row.values.get("ema_number", ""),
            is_substitute=bool(substitute),
            notes=row.values.get("notes", ""),
        )
        problems = validate(data)
        row.errors.extend(problems.values())
        if substitute is None:
            row.errors.append(f"Substitute must be yes or no (got '{row.values['substitute']}').")
        if row.errors:
            continue
        for earlier_number, earlier in accepted:
            found = duplicate_problems(data, [earlier], where=f" on row {earlier_number}")
            if found:
                row.errors.extend(found.values())
                break
        else:
            row.errors.extend(duplicate_problems(data, existing, where=" in this tournament").values())
        if not row.errors:
            data.team = _canonical_team(data.team, [*existing, *(d for _, d in accepted)])
            row.data = data
            accepted.append((number, data))
    if not preview.rows and not preview.errors:
        preview.errors.append("The file has a header but no players.")
    return preview


def import_csv(tournament: Tournament, text: str) -> list[Player]:
    """Add every player of the file in one transaction, or none when any row has a problem."""
    preview = parse_csv(text, tournament)
    if not preview.ok:
        bad = len(preview.bad_rows)
        summary = (
            f"{bad} row{'s have' if bad > 1 else ' has'} problems"
            if bad else "The file has problems"
        )
        raise ServiceError(f"{summary}; nothing was imported.", errors=preview.error_messages())
    players = []
    with changes():
        for row in preview.rows:
            player = Player(tournament_id=tournament.id, status=PlayerStatus.REGISTERED.value)
            _apply(player, row.data)
            db.session.add(player)
            players.append(player)
    return players


def _cell(value: str) -> str:
    return "'" + value if value.startswith(FORMULA_START) else value


def export_csv(tournament: Tournament) -> str:
    """Every player, by last name, with the import's header (the file imports again unchanged)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for p in list_players(tournament):
        writer.writerow(
            [_cell(v) for v in (p.first_name, p.last_name, p.country, p.club, p.team, p.ema_number or "",
                                "yes" if p.is_substitute else "no", p.notes)]
        )
    return out.getvalue()
