"""Registering one player and editing them: validation, duplicates, teams' spelling."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields

from sqlalchemy import select

from tournament.extensions import db
from tournament.messages import msg, msg_n
from tournament.models import Player, PlayerStatus, Tournament
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, ServiceError
from tournament.services.core.records import expect_version, get_or_404
from tournament.services.people.registration.countries import country_code
from tournament.services.people.registration.statuses import STATUS_LABELS, move
from tournament.text import control_refusal

MAX_FIXED_TABLE = 999  # a fixed table (access needs) is a table number in this range

# Limits shared by the form and the service: the column sizes.
LIMITS = {name: Player.__table__.c[name].type.length for name in ("first_name", "last_name", "club", "team", "notes")}


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
    status: str = PlayerStatus.REGISTERED
    notes: str = ""
    fixed_table: int | None = None  # access needs: the table number kept in every draw

    @classmethod
    def from_player(cls, p: Player) -> PlayerData:
        return cls(**{f.name: getattr(p, f.name) for f in fields(cls)})

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


def validate(data: PlayerData) -> dict[str, str]:
    """Every problem with `data`, keyed by field name (empty when all is well). Normalises `data`:
    trims text, stores the country as an alpha-2 code and an empty EMA number as None."""
    errors: dict[str, str] = {}
    # Looked for before the spaces inside are tidied, which would turn a line break into a space unseen.
    for name, what in (("first_name", msg("the first name")), ("last_name", msg("the last name")),
                       ("club", msg("the club")), ("team", msg("the team")), ("notes", msg("the notes"))):
        if problem := control_refusal((getattr(data, name) or "").strip(), what, multiline=name == "notes"):
            errors[name] = problem
    for name in ("first_name", "last_name", "club", "team"):
        setattr(data, name, " ".join((getattr(data, name) or "").split()))
    data.notes = (data.notes or "").strip()
    for name, required, too_long in (
            ("first_name", msg("The first name is required."),
             msg("The first name is at most %(max)s characters.", max=LIMITS["first_name"])),
            ("last_name", msg("The last name is required."),
             msg("The last name is at most %(max)s characters.", max=LIMITS["last_name"]))):
        if name in errors:
            continue
        value = getattr(data, name)
        if not value:
            errors[name] = required
        elif len(value) > LIMITS[name]:
            errors[name] = too_long
    too_long_texts = {"club": msg("The club is at most %(max)s characters.", max=LIMITS["club"]),
                      "team": msg("The team is at most %(max)s characters.", max=LIMITS["team"]),
                      "notes": msg("The notes are at most %(max)s characters.", max=LIMITS["notes"])}
    for name, too_long in too_long_texts.items():
        if name not in errors and len(getattr(data, name)) > LIMITS[name]:
            errors[name] = too_long
    raw_country = data.country or ""
    code = country_code(raw_country)
    if code is None:
        # (the names of the five languages and EMA's codes are read too: the form's hint says so)
        errors["country"] = msg("Unknown country '%(country)s': use an ISO 3166 code such as FI or FIN, or the "
                                "English name such as Finland.", country=raw_country.strip()[:60])
    else:
        data.country = code
    ema = "".join((data.ema_number or "").split())
    if ema and not (len(ema) == 8 and ema.isascii() and ema.isdigit()):
        errors["ema_number"] = msg("The EMA number must be exactly 8 digits (got '%(number)s').",
                                     number=(data.ema_number or "").strip())
    else:
        data.ema_number = ema or None
    if data.status not in STATUS_LABELS:
        errors["status"] = msg("Unknown status '%(status)s': use %(choices)s.", status=data.status,
                                 choices=", ".join(STATUS_LABELS))
    data.is_substitute = bool(data.is_substitute)
    if data.fixed_table is not None and (isinstance(data.fixed_table, bool) or not isinstance(data.fixed_table, int)
                                         or not 1 <= data.fixed_table <= MAX_FIXED_TABLE):
        errors["fixed_table"] = msg("A fixed table is a table number from 1 to %(max)s, or empty.", max=MAX_FIXED_TABLE)
    return errors


# Who the draws seat: a fixed table is counted among their tables, and kept by one of them only.
SEATED_STATUSES = (PlayerStatus.REGISTERED, PlayerStatus.PRESENT)


def table_count(players: Iterable[Player | PlayerData]) -> int:
    """The tables the draws seat these players at: one per four players registered or present (substitutes
    only fill the last table), at least one."""
    seated = sum(1 for p in players if not p.is_substitute and p.status in SEATED_STATUSES)
    return max(1, -(-seated // 4))


def fixed_table_problems(data: PlayerData, others: Iterable[Player | PlayerData], tables: int | None = None,
                         where: str = "") -> dict[str, str]:
    """Why `data`'s fixed table cannot be kept (empty when it can, or when it has none): a number beyond the
    `tables` the draws seat (by default those of `others` and `data`), or a table another player registered or
    present keeps already (one player per fixed table)."""
    if data.fixed_table is None:
        return {}
    others = list(others)
    if tables is None:
        tables = table_count([*others, data])
    if not 1 <= data.fixed_table <= tables:
        return {"fixed_table": msg_n("A fixed table is a table number from 1 to %(num)d (the draws seat the players "
                                     "registered at %(num)d table), or empty.",
                                     "A fixed table is a table number from 1 to %(num)d (the draws seat the players "
                                     "registered at %(num)d tables), or empty.", tables)}
    holder = next((p for p in others if p.fixed_table == data.fixed_table and p.status in SEATED_STATUSES), None)
    if holder is not None:
        return {"fixed_table": msg("Table %(table)s is already kept by %(name)s%(where)s: one player per fixed table.",
                                   table=data.fixed_table, name=holder.full_name, where=where)}
    return {}


def name_key(first: str, last: str) -> tuple[str, str]:
    return (" ".join(first.split()).casefold(), " ".join(last.split()).casefold())


def duplicate_problems(
    data: PlayerData, others: Iterable[Player | PlayerData], where: str = ""
) -> dict[str, str]:
    """Why `data` duplicates one of `others` (already-validated data): same name with the same EMA
    number (or both without one), or the same EMA number on a different name."""
    key = name_key(data.first_name, data.last_name)
    for other in others:
        same_name = name_key(other.first_name, other.last_name) == key
        if same_name and other.ema_number == data.ema_number:
            if data.ema_number:
                return {"first_name": msg("%(name)s with EMA number %(number)s is already registered%(where)s.",
                                          name=other.full_name, number=data.ema_number, where=where)}
            return {"first_name": msg("%(name)s without an EMA number is already registered%(where)s.",
                                      name=other.full_name, where=where)}
        if data.ema_number and other.ema_number == data.ema_number:
            return {
                "ema_number": msg("EMA number %(number)s already belongs to %(name)s%(where)s.", number=data.ema_number,
                                  name=other.full_name, where=where)
            }
    return {}


def players_of(tournament: Tournament) -> list[Player]:
    """Every player of the tournament (substitutes and withdrawn included), in registration order."""
    return list(
        db.session.scalars(select(Player).where(Player.tournament_id == tournament.id).order_by(Player.id))
    )


def canonical_team(team: str, players: Iterable[Player | PlayerData]) -> str:
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
        raise ServiceError(msg("Please correct the marked fields."), errors=errors)
    others = [p for p in players_of(tournament) if exclude is None or p.id != exclude.id]
    errors = duplicate_problems(data, others)
    if errors:
        raise ServiceError(next(iter(errors.values())), errors=errors)
    # Checked when set or changed: a table kept before the field shrank is the draw's to report, not a reason to
    # refuse an edit of the player's other details.
    if exclude is None or data.fixed_table != exclude.fixed_table:
        errors = fixed_table_problems(data, others)
        if errors:
            raise ServiceError(errors["fixed_table"], errors=errors)
    data.team = canonical_team(data.team, others)


def apply(player: Player, data: PlayerData) -> None:
    """Write validated `data` onto the player; the status only by an allowed move."""
    move(player, data.status, field="status")
    for f in fields(PlayerData):
        if f.name != "status":
            setattr(player, f.name, getattr(data, f.name))


def new_player(tournament: Tournament, data: PlayerData) -> Player:
    """A registered player with validated `data`, added to the session (the caller flushes)."""
    player = Player(tournament_id=tournament.id, status=PlayerStatus.REGISTERED)
    apply(player, data)
    db.session.add(player)
    return player


def add_player(tournament: Tournament, data: PlayerData) -> Player:
    _check(tournament, data)
    try:
        with changes():
            player = new_player(tournament, data)
    except ConflictError:
        # The same person added by another request at the same moment: the unique player keys refused this one.
        message = msg("%(name)s is already registered: someone added them at the same moment.", name=data.full_name)
        raise ConflictError(message, errors={"first_name": message}) from None
    return player


def update_player(player: Player, data: PlayerData, expected_version: int | None) -> Player:
    """Apply `data`; refuse when the player changed since the form was loaded."""
    expect_version(player, expected_version, f"{player.full_name} was changed by someone else while you were "
                   "editing. Your changes were not saved; the form now shows the current values.")
    _check(player.tournament, data, exclude=player)
    with changes():
        apply(player, data)
    return player


def set_fixed_table(player: Player, table: int | None) -> Player:
    """Give the player a fixed table (access needs: the table number they keep in every draw), or none."""
    data = PlayerData.from_player(player)
    data.fixed_table = table
    errors = {k: v for k, v in validate(data).items() if k == "fixed_table"}
    if not errors and table != player.fixed_table:
        others = [p for p in players_of(player.tournament) if p.id != player.id]
        errors = fixed_table_problems(data, others)
    if errors:
        raise ServiceError(errors["fixed_table"], errors=errors)
    with changes():
        player.fixed_table = table
    return player


def get_player(tournament: Tournament, player_id: int) -> Player:
    return get_or_404(Player, player_id, "No such player in this tournament.", tournament_id=tournament.id)
