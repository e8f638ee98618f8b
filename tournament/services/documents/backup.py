"""Backup and restore of a whole tournament as one JSON document.

The document (format_version 2; format 1 documents are still read) holds every column of every row that belongs to the tournament: its
settings, staff, players, sessions, seats, session tables and totals, hands with payments and false
mahjongs, penalties (cancelled ones too), clock events and the score-change history. Rows keep their ids,
but those ids are local to the document: an import gives every row a new id and rewires the references.
References to accounts are written as e-mail addresses.

A document cannot hand out rights on this server: the importer is the only organiser of the copy, and the
staff it lists come in only as the importer confirms their addresses, invited as referees (their accounts
must exist here: a restore never creates accounts). Who entered a hand, gave a penalty or pressed the clock is kept as
text (`entered_by_label` ...), never linked to an account of this server that happens to share the address.

An import checks the whole document before writing anything and refuses it whole (ImportRefused, a 422)
naming the first problem by its path, e.g. `hands[3].session_id`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from datetime import date, datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import JSON as JSONType
from sqlalchemy import Boolean, Column, Date, DateTime, Integer, String, insert, select
from sqlalchemy.sql.schema import Table
from sqlalchemy.types import TypeDecorator

from tournament.constants import MAX_INT, is_int
from tournament.extensions import db
from tournament.messages import ACTION_WORDS, Message, MessageList, msg
from tournament.models import (
    Appeal,
    ClockEvent,
    DrawEvent,
    FalseMahjong,
    Hand,
    HandConfirmation,
    HandDispute,
    HandPayment,
    HandResult,
    Penalty,
    Player,
    RefereeCall,
    Role,
    ScoreChange,
    Seat,
    SessionStart,
    SessionTable,
    Substitution,
    TableTotal,
    Tournament,
    TournamentSession,
    TournamentStaff,
    User,
)
from tournament.models.draws import SEAT_WINDS
from tournament.models.tournaments import DEFAULT_FOUL_TYPES, TieBreak
from tournament.services.core.db import changes
from tournament.services.core.errors import ServiceError
from tournament.services.people import invitations
from tournament.services.people.tournaments import TournamentData
from tournament.services.people.tournaments import validate as validate_settings

# Format 2 is format 1 where every row carries every column: a format 1 document was written before some tables
# and columns existed (ADDED_TABLES, ADDED_SINCE) and is read with their defaults; a format 2 document missing
# one is refused, so a damaged backup is never taken for an old one.
FORMAT_VERSION = 2
READABLE_VERSIONS = (1, 2)

# Child tables in an order where every row's references come earlier; the document key is the table name.
CHILD_MODELS: tuple[type[db.Model], ...] = (
    TournamentStaff, Player, TournamentSession, Seat, Substitution, SessionTable, TableTotal, Hand, HandPayment,
    FalseMahjong, Penalty, ClockEvent, ScoreChange, Appeal, HandConfirmation, HandDispute, RefereeCall, DrawEvent, SessionStart,
)
# Tables added after format 1 was defined: a backup made before them has none of their rows.
ADDED_TABLES = {"substitutions", "appeals", "hand_confirmations", "hand_disputes", "draw_events", "referee_calls", "session_starts"}
# Tables of a tournament deliberately left out: a players CSV kept between its preview and its confirmation
# is work in progress of one organiser, not part of the event.
# Players' links are secrets of this installation (an HMAC under its key): a restored copy makes new ones. A
# player's idempotency keys are the answers to requests sent from their phone, not part of the event.
# Invitations to the staff are links of this installation too (their tokens, hashed), open or spent.
LEFT_OUT = {"player_imports", "player_links", "idempotency_keys", "invitations"}
# Columns added after format 1 was defined, with the value a backup made before them stands for.
ADDED_SINCE: dict[tuple[str, str], Any] = {
    ("tournaments", "penalties_affect_table_points"): True,
    ("tournaments", "foul_types"): None,
    ("tournaments", "appeal_minutes"): 30,
    ("tournament_sessions", "finished_at"): None,
    ("penalties", "foul"): "",
    ("hands", "ruled_points"): None,
    ("hands", "ruling"): "",
    ("players", "fixed_table"): None,
    ("tournaments", "entry_mode"): "referee",
    ("tournaments", "country"): None,
    ("players", "left_out_of_ema"): False,
    ("hands", "entered_by_player_id"): None,
    ("hands", "counted"): True,
    ("hands", "staff_confirmed_at"): None,
    ("tournaments", "time_zone"): "UTC",
    ("tournaments", "language"): "en",
    ("tournaments", "draw_priority"): "repeats_first",
    ("seats", "previous_table"): None,
}

# Columns whose document value is words, not the identifier stored: a score change's action is written as the
# English phrase the history stored before it was an enum (models.ScoreAction), so that a document says what it
# said before; it is read back from the phrase or from the identifier.
WORDED: dict[tuple[str, str], dict[str, Message]] = {("score_changes", "action"): ACTION_WORDS}
WORDED_BACK: dict[tuple[str, str], dict[str, str]] = {
    column: {str(words): name for name, words in table.items()} for column, table in WORDED.items()}


class ImportRefused(ServiceError):
    """The document is malformed, of an unknown version or inconsistent: nothing was saved."""

    status_code = 422


def _label_of(table: Table, column: Column) -> str | None:
    """The text column beside a link to an account (`given_by_id` -> `given_by_label`), if it has one."""
    name = column.name.removesuffix("_id") + "_label"
    return name if name in table.c else None


def _is_label(table: Table, column: Column) -> bool:
    """Label columns are folded into their account's key in the document (the e-mail, or the text)."""
    return column.name.endswith("_label") and f"{column.name.removesuffix('_label')}_id" in table.c


def _user_key(column: Column) -> str | None:
    """A reference to an account is written under the column's name without `_id` (`entered_by`)."""
    fk = next(iter(column.foreign_keys), None)
    if fk is not None and fk.column.table.name == "users":
        return column.name.removesuffix("_id")
    return None


def _is_tournament_ref(column: Column) -> bool:
    fk = next(iter(column.foreign_keys), None)
    return fk is not None and fk.column.table.name == "tournaments"


def document_keys(table: Table) -> set[str]:
    """The keys a row of this table has in the document (the model's columns, renamed as exported)."""
    keys = set()
    for column in table.columns:
        if _is_tournament_ref(column) or (table.name == "tournaments" and column.name == "id") \
                or _is_label(table, column):
            continue
        keys.add(_user_key(column) or column.name)
    return keys


def _plain(value: Any) -> Any:
    if isinstance(value, StrEnum):
        return value.value
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _export_rows(table: Table, where: Any, emails: dict[int, str]) -> list[dict[str, Any]]:
    rows = db.session.execute(select(table).where(where).order_by(table.c.id)).mappings()
    out = []
    for row in rows:
        item: dict[str, Any] = {}
        for column in table.columns:
            if _is_tournament_ref(column) or (table.name == "tournaments" and column.name == "id") \
                    or _is_label(table, column):
                continue
            value = row[column.name]
            if (key := _user_key(column)) is not None:
                label = _label_of(table, column)
                item[key] = emails[value] if value is not None else (row[label] if label else None)
            elif (words := WORDED.get((table.name, column.name))) is not None and value is not None:
                item[column.name] = str(words[value])
            else:
                item[column.name] = _plain(value)
        out.append(item)
    return out


def export_tournament(t: Tournament) -> dict[str, Any]:
    """The whole tournament as one JSON-ready document."""
    emails = dict(db.session.execute(select(User.id, User.email)).all())
    session_ids = select(TournamentSession.id).where(TournamentSession.tournament_id == t.id)
    table_ids = select(SessionTable.id).where(SessionTable.session_id.in_(session_ids))
    hand_ids = select(Hand.id).where(Hand.session_id.in_(session_ids))
    where = {
        "tournament_staff": TournamentStaff.tournament_id == t.id,
        "players": Player.tournament_id == t.id,
        "tournament_sessions": TournamentSession.tournament_id == t.id,
        "seats": Seat.session_id.in_(session_ids),
        "substitutions": Substitution.session_id.in_(session_ids),
        "session_tables": SessionTable.session_id.in_(session_ids),
        "table_totals": TableTotal.table_id.in_(table_ids),
        "hands": Hand.session_id.in_(session_ids),
        "hand_payments": HandPayment.hand_id.in_(hand_ids),
        "false_mahjongs": FalseMahjong.hand_id.in_(hand_ids),
        "penalties": Penalty.tournament_id == t.id,
        "clock_events": ClockEvent.session_id.in_(session_ids),
        "score_changes": ScoreChange.session_id.in_(session_ids),
        "appeals": Appeal.tournament_id == t.id,
        "hand_confirmations": HandConfirmation.hand_id.in_(hand_ids),
        "hand_disputes": HandDispute.hand_id.in_(hand_ids),
        "referee_calls": RefereeCall.tournament_id == t.id,
        "draw_events": DrawEvent.tournament_id == t.id,
        "session_starts": SessionStart.tournament_id == t.id,
    }
    tournament_table: Table = Tournament.__table__  # type: ignore[assignment]
    document: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "tournament": _export_rows(tournament_table, tournament_table.c.id == t.id, emails)[0],
    }
    for model in CHILD_MODELS:
        table: Table = model.__table__  # type: ignore[assignment]
        document[table.name] = _export_rows(table, where[table.name], emails)
    return document


# --- import -------------------------------------------------------------------------------------------


def _refuse(message: Message) -> ImportRefused:
    """The refusal of the document part a message names (its ``path`` value: "hands[3].winner_id")."""
    return ImportRefused(message, field=str(message.params["path"]))



class _Reader:
    """Checks the document and turns it into rows for Core inserts, references still local."""

    def __init__(self, document: Any, users: dict[str, int], staff: set[str]) -> None:
        self.version = FORMAT_VERSION  # set from the document by read()
        self.document = document
        self.users = users
        self.staff = staff  # the listed staff addresses the importer confirmed (lower case)
        self.ids: dict[str, set[int]] = {}

    def value(self, table: Table, column: Column, value: Any, path: str) -> Any:
        if value is None:
            if not column.nullable:
                raise _refuse(msg("%(path)s: must not be null.", path=path))
            return None
        kind = column.type
        enum = getattr(kind, "enum", None)  # EnumText: a String underneath
        if isinstance(kind, TypeDecorator):
            kind = kind.impl_instance
        if isinstance(kind, JSONType):
            if not isinstance(value, list | dict):
                raise _refuse(msg("%(path)s: must be a JSON list or object.", path=path))
            return value
        if isinstance(kind, Boolean):
            if not isinstance(value, bool):
                raise _refuse(msg("%(path)s: must be true or false.", path=path))
            return value
        if isinstance(kind, Integer):
            if not is_int(value) or abs(value) > MAX_INT:
                raise _refuse(msg("%(path)s: must be an integer.", path=path))
            return value
        if isinstance(kind, DateTime | Date):
            if not isinstance(value, str):
                raise _refuse(msg("%(path)s: must be an ISO date/time text.", path=path))
            try:
                parsed: Any = datetime.fromisoformat(value) if isinstance(kind, DateTime) else date.fromisoformat(value)
            except ValueError:
                raise _refuse(msg("%(path)s: %(value)s is not an ISO date/time.", path=path,
                                  value=repr(value[:40]))) from None
            if isinstance(parsed, datetime) and parsed.tzinfo is not None:
                raise _refuse(msg("%(path)s: must be a UTC time without a zone, as exported.", path=path))
            return parsed
        if isinstance(kind, String):
            if not isinstance(value, str):
                raise _refuse(msg("%(path)s: must be a text.", path=path))
            if kind.length is not None and len(value) > kind.length:
                raise _refuse(msg("%(path)s: is longer than %(length)s characters.",
                                  path=path, length=kind.length))
            allowed = {m.value for m in enum} if enum else column.info.get("choices")
            if allowed is not None and value not in allowed:
                raise _refuse(msg("%(path)s: %(value)s is not one of %(allowed)s.",
                                  path=path, value=repr(value[:40]),
                                  allowed=", ".join(sorted(allowed))))
            return value
        # a new column type the format does not handle yet
        raise _refuse(msg("%(path)s: has a type this format does not know.", path=path))  # pragma: no cover

    def row(self, table: Table, item: Any, path: str, link_accounts: bool = True) -> dict[str, Any]:
        """The checked row; `link_accounts` False checks an account's address without looking it up (a
        staff place the importer left out is still part of a well-formed document)."""
        if not isinstance(item, dict):
            raise _refuse(msg("%(path)s: must be a JSON object.", path=path))
        if self.version == 1:
            item = {**{key: value for (name, key), value in ADDED_SINCE.items() if name == table.name}, **item}
        expected = document_keys(table)
        if missing := sorted(expected - item.keys()):
            raise _refuse(msg("%(path)s: is missing.", path=f"{path}.{missing[0]}"))
        if extra := sorted(set(item) - expected):
            raise _refuse(msg("%(path)s: is not a field of this format.", path=f"{path}.{extra[0]}"))
        out: dict[str, Any] = {}
        for column in table.columns:
            if _is_tournament_ref(column) or (table.name == "tournaments" and column.name == "id") \
                    or _is_label(table, column):
                continue
            if (key := _user_key(column)) is not None and (label := _label_of(table, column)) is not None:
                text = item[key]
                if text is not None and (not isinstance(text, str) or len(text) > 254):
                    raise _refuse(msg("%(path)s: must be a text of at most 254 characters, or null.",
                                      path=f"{path}.{key}"))
                out[column.name] = None  # attribution as text: no account of this server is named by it
                out[label] = text
                continue
            if key is not None:
                email = item[key]
                if email is None and column.nullable:
                    out[column.name] = None
                elif not isinstance(email, str):
                    raise _refuse(msg("%(path)s: must be an account's e-mail address.", path=f"{path}.{key}"))
                elif not link_accounts:
                    out[column.name] = None
                elif email.lower() not in self.users:
                    raise _refuse(msg("%(path)s: no account %(email)s exists here: create it "
                                      "(flask users create) and import again.", path=f"{path}.{key}",
                                      email=repr(email[:254])))
                else:
                    out[column.name] = self.users[email.lower()]
                continue
            value = item[column.name]
            if isinstance(value, str) and (phrases := WORDED_BACK.get((table.name, column.name))) is not None:
                value = phrases.get(value, value)
            out[column.name] = self.value(table, column, value, f"{path}.{column.name}")
            fk = next(iter(column.foreign_keys), None)
            if fk is not None and out[column.name] is not None:
                target = fk.column.table.name
                if out[column.name] not in self.ids.get(target, set()):
                    raise _refuse(msg("%(path)s: no %(table)s row with id %(id)s in the document.",
                                          path=f"{path}.{column.name}", table=target, id=out[column.name]))
        if "version" in out:
            # An optimistic-lock counter belongs to the rows of this server: the copy's rows start at 1 (a
            # restored 2147483647 made the next edit overflow the column).
            out["version"] = 1
        if "id" in out:
            seen = self.ids.setdefault(table.name, set())
            if out["id"] in seen:
                raise _refuse(msg("%(path)s: the id %(id)s is used twice.", path=f"{path}.id", id=out["id"]))
            seen.add(out["id"])
        return out

    def read(self) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
        doc = self.document
        if not isinstance(doc, dict):
            raise _refuse(msg("%(path)s: must be a JSON object.", path="document"))
        version = doc.get("format_version")
        if not is_int(version):
            raise _refuse(msg("%(path)s: must be an integer (this server reads formats 1 and 2).",
                              path="format_version"))
        if version not in READABLE_VERSIONS:
            raise _refuse(msg("%(path)s: format %(version)s is unknown here; this server reads formats 1 "
                              "and 2.", path="format_version", version=version))
        self.version = version
        tables: dict[str, Table] = {m.__tablename__: m.__table__ for m in CHILD_MODELS}  # type: ignore[misc]
        expected = {"format_version", "tournament", *tables}
        if version == 1:
            doc = {**dict.fromkeys(ADDED_TABLES & tables.keys(), []), **doc}
        if missing := sorted(expected - doc.keys()):
            raise _refuse(msg("%(path)s: is missing.", path=missing[0]))
        if extra := sorted(set(doc) - expected):
            raise _refuse(msg("%(path)s: is not a part of this format.", path=extra[0]))
        settings = self.row(Tournament.__table__, doc["tournament"], "tournament")  # type: ignore[arg-type]
        self._check_settings(settings)
        rows: dict[str, list[dict[str, Any]]] = {}
        for name, table in tables.items():
            items = doc[name]
            if not isinstance(items, list):
                raise _refuse(msg("%(path)s: must be a JSON list.", path=name))
            if name == "tournament_staff":  # only the places the importer confirmed, and as referees
                rows[name] = []
                for i, item in enumerate(items):
                    confirmed = _staff_email(item) in self.staff
                    row = self.row(table, item, f"{name}[{i}]", link_accounts=confirmed)
                    if confirmed:
                        rows[name].append({**row, "role": Role.REFEREE})
                continue
            rows[name] = [self.row(table, item, f"{name}[{i}]") for i, item in enumerate(items)]
        self._check_consistency(rows, settings["session_count"])
        return settings, rows

    @staticmethod
    def _check_settings(settings: dict[str, Any]) -> None:
        """The settings form's own validation (tournaments.validate): a restored tournament holds nothing an
        organiser could not have typed (a session_count of 2147483647 grew workers to 15 GB in every loop
        over the sessions)."""
        points = settings["table_points"]
        if not (isinstance(points, list) and len(points) == 4 and all(is_int(p) for p in points)):
            raise _refuse(msg("%(path)s: must be a list of 4 integers.", path="tournament.table_points"))
        breaks = settings["tie_breaks"]
        if not (isinstance(breaks, list) and all(isinstance(b, str) and b in set(TieBreak) for b in breaks)):
            raise _refuse(msg("%(path)s: must be a list of %(tie_breaks)s.", path="tournament.tie_breaks",
                              tie_breaks=", ".join(TieBreak)))
        data = TournamentData(**{f.name: settings[f.name] for f in fields(TournamentData)})
        data.table_points = tuple(points)  # type: ignore[assignment]
        data.tie_breaks = tuple(breaks)
        fouls = settings["foul_types"]  # null: the default list
        data.foul_types = DEFAULT_FOUL_TYPES if fouls is None else tuple(fouls) if isinstance(fouls, list) else fouls
        if errors := validate_settings(data):
            name, message = next(iter(errors.items()))
            # the settings form's own message after the path: each said again in the reader's language
            raise ImportRefused(MessageList(": ", [f"tournament.{name}", message]), field=f"tournament.{name}")

    @staticmethod
    def _check_consistency(rows: dict[str, list[dict[str, Any]]], session_count: int) -> None:
        """What the constraints and the rules require beyond each row's own types."""

        def unique(name: str, fields: tuple[str, ...], what: Message) -> None:
            """`what` is the sentence, with its %(path)s and %(key)s left to fill in here."""
            seen: set[tuple[Any, ...]] = set()
            for i, row in enumerate(rows[name]):
                key = tuple(row[f] for f in fields)
                if None in key:  # SQL unique indexes let nulls repeat
                    continue
                if key in seen:
                    raise _refuse(Message(what.template, {"path": f"{name}[{i}]", "key": str(key)}))
                seen.add(key)

        sessions = rows["tournament_sessions"]
        for i, session in enumerate(sessions):
            if not 1 <= session["number"] <= session_count:
                raise _refuse(msg("%(path)s: must be from 1 to the tournament's %(count)s sessions.",
                                  path=f"tournament_sessions[{i}].number", count=session_count))
        unique("tournament_staff", ("user_id",),
               msg("%(path)s: a second staff place for the account %(key)s."))
        unique("tournament_sessions", ("number",), msg("%(path)s: a second session numbered %(key)s."))
        for i, start in enumerate(rows["session_starts"]):
            if not 1 <= start["session_number"] <= session_count:
                raise _refuse(msg("%(path)s: must be from 1 to the tournament's %(count)s sessions.",
                                  path=f"session_starts[{i}].session_number", count=session_count))
        unique("session_starts", ("session_number",),
               msg("%(path)s: a second planned start of the session %(key)s."))
        unique("seats", ("session_id", "player_id"),
               msg("%(path)s: a second seat of the player in the session %(key)s."))
        unique("seats", ("session_id", "table_number", "seat_wind"),
               msg("%(path)s: a second seat (session, table, wind) %(key)s."))
        unique("session_tables", ("session_id", "table_number"),
               msg("%(path)s: a second table (session, table) %(key)s."))
        unique("table_totals", ("table_id", "player_id"),
               msg("%(path)s: a second total of the player at the table %(key)s."))
        unique("hands", ("session_id", "table_number", "number"),
               msg("%(path)s: a second hand (session, table, number) %(key)s."))
        unique("hand_payments", ("hand_id", "player_id"),
               msg("%(path)s: a second payment of the player in the hand %(key)s."))
        players = rows["players"]
        unique("players", ("ema_number",), msg("%(path)s: a second player with the EMA number %(key)s."))
        identities: set[tuple[str, str, str]] = set()
        for i, p in enumerate(players):
            identity = (p["first_name"].lower(), p["last_name"].lower(), p["ema_number"] or "")
            if identity in identities:
                raise _refuse(msg("%(path)s: the same player (name and EMA number) is registered twice.",
                                  path=f"players[{i}]"))
            identities.add(identity)

        seated: dict[tuple[int, int], set[int]] = {}
        for seat in rows["seats"]:
            seated.setdefault((seat["session_id"], seat["table_number"]), set()).add(seat["player_id"])
        winds: dict[tuple[int, int], list[str]] = {}
        for seat in rows["seats"]:
            winds.setdefault((seat["session_id"], seat["table_number"]), []).append(seat["seat_wind"])
        for (session_id, table_number), at_table in winds.items():
            if sorted(at_table) != sorted(SEAT_WINDS):
                raise _refuse(msg("%(path)s: table %(table)s of tournament_sessions id %(session_id)s has "
                                  "%(seats)s seats: a table seats four, one per wind.", path="seats",
                                  table=table_number, session_id=session_id, seats=len(at_table)))
        tables = {row["id"]: row for row in rows["session_tables"]}
        for i, total in enumerate(rows["table_totals"]):
            table = tables[total["table_id"]]
            if total["player_id"] not in seated.get((table["session_id"], table["table_number"]), set()):
                raise _refuse(msg("%(path)s: the player does not sit at that table.",
                                  path=f"table_totals[{i}].player_id"))
        hands = {row["id"]: (i, row) for i, row in enumerate(rows["hands"])}
        for i, hand in enumerate(rows["hands"]):
            at_table = seated.get((hand["session_id"], hand["table_number"]))
            if not at_table:
                raise _refuse(msg("%(path)s: nobody sits at that table in that session.",
                                  path=f"hands[{i}].table_number"))
            for field in ("winner_id", "discarder_id"):
                if hand[field] is not None and hand[field] not in at_table:
                    raise _refuse(msg("%(path)s: the player does not sit at that table.",
                                      path=f"hands[{i}].{field}"))
            if hand["result"] == HandResult.WIN and hand["winner_id"] is None:
                raise _refuse(msg("%(path)s: a win needs its winner.", path=f"hands[{i}].winner_id"))
            if hand["result"] == HandResult.WIN and hand["discarder_id"] == hand["winner_id"]:
                raise _refuse(msg("%(path)s: the winner cannot be the discarder.",
                                  path=f"hands[{i}].discarder_id"))
            fans = hand["fans"]
            if not isinstance(fans, list) or not all(
                isinstance(f, dict) and isinstance(f.get("name"), str) and is_int(f.get("points"))
                and is_int(f.get("count")) for f in fans
            ):
                raise _refuse(msg("%(path)s: must be a list of {name, points, count}.",
                                  path=f"hands[{i}].fans"))
            if sum(f["points"] * f["count"] for f in fans) != hand["fan_points"]:
                raise _refuse(msg("%(path)s: does not equal the sum of the hand's fans.",
                                  path=f"hands[{i}].fan_points"))
        sums: dict[int, int] = {}
        for i, payment in enumerate(rows["hand_payments"]):
            hi, hand = hands[payment["hand_id"]]
            if payment["player_id"] not in seated[(hand["session_id"], hand["table_number"])]:
                raise _refuse(msg("%(path)s: the player does not sit at the table of hands[%(hand)s].",
                                  path=f"hand_payments[{i}].player_id", hand=hi))
            sums[payment["hand_id"]] = sums.get(payment["hand_id"], 0) + payment["delta"]
        for hand_id, total in sums.items():
            if total != 0:
                raise _refuse(msg("%(path)s: its payments sum to %(total)s, not 0.",
                                  path=f"hands[{hands[hand_id][0]}]",
                                  total=total))
        for i, fm in enumerate(rows["false_mahjongs"]):
            _, hand = hands[fm["hand_id"]]
            if fm["player_id"] not in seated[(hand["session_id"], hand["table_number"])]:
                raise _refuse(msg("%(path)s: the player does not sit at that table.",
                                  path=f"false_mahjongs[{i}].player_id"))
        for i, penalty in enumerate(rows["penalties"]):
            if penalty["amount"] < 0:
                raise _refuse(msg("%(path)s: must be 0 (a warning) or more.", path=f"penalties[{i}].amount"))
        players_known = {p["id"] for p in players}
        for i, change in enumerate(rows["score_changes"]):
            for side in ("before", "after"):
                _check_snapshot(change[side], f"score_changes[{i}].{side}", players_known)


def _player_ref(value: Any, path: str, players: set[int]) -> None:
    number = int(value) if isinstance(value, str) and value.isdigit() else value
    if not is_int(number) or number not in players:
        raise _refuse(msg("%(path)s: %(value)s is not a player of the document.", path=path,
                          value=repr(str(value)[:40])))


def _check_snapshot(value: Any, path: str, players: set[int]) -> None:
    """A history entry is what the app writes (the history page reads it): nothing, the four session totals
    {player id: score}, a hand (with its payments) or a penalty (with its amount)."""
    if value is None:
        return
    if not isinstance(value, dict):
        raise _refuse(msg("%(path)s: must be a JSON object or null.", path=path))
    if "substitution" in value:
        sub = value["substitution"]
        if not isinstance(sub, dict):
            raise _refuse(msg("%(path)s: must be an object.", path=f"{path}.substitution"))
        for key in ("out_player_id", "in_player_id"):
            _player_ref(sub.get(key), f"{path}.substitution.{key}", players)
        return
    if "payments" in value:
        payments, claims = value["payments"], value.get("false_mahjongs", [])
        if not isinstance(payments, dict) or not all(is_int(d) for d in payments.values()):
            raise _refuse(msg("%(path)s: must be an object of player id: integer.", path=f"{path}.payments"))
        for pid in payments:
            _player_ref(pid, f"{path}.payments", players)
        if not isinstance(claims, list) or not all(
                isinstance(c, dict) and isinstance(c.get("kind"), str) and is_int(c.get("player_id"))
                for c in claims):
            raise _refuse(msg("%(path)s: must be a list of {player_id, kind}.",
                              path=f"{path}.false_mahjongs"))
        for key in ("winner_id", "discarder_id"):
            if value.get(key) is not None:
                _player_ref(value[key], f"{path}.{key}", players)
        if not (value.get("total") is None or is_int(value["total"])):
            raise _refuse(msg("%(path)s: must be an integer.", path=f"{path}.total"))
    elif "amount" in value:
        if not is_int(value["amount"]):
            raise _refuse(msg("%(path)s: must be an integer.", path=f"{path}.amount"))
        _player_ref(value.get("player_id"), f"{path}.player_id", players)
    else:
        for pid, score in value.items():
            _player_ref(pid, path, players)
            if not is_int(score):
                raise _refuse(msg("%(path)s: must be an integer.", path=f"{path}.{pid}"))


def _renumber_players(value: dict[str, Any] | None, players: dict[int, int]) -> dict[str, Any] | None:
    """A checked history entry (_check_snapshot) with the copy's player ids."""
    if value is None:
        return None
    value = dict(value)
    if "substitution" in value:
        sub = dict(value["substitution"])
        for key in ("out_player_id", "in_player_id"):
            sub[key] = players[int(sub[key])]
        return {**value, "substitution": sub}
    if "payments" in value:
        value["payments"] = {str(players[int(pid)]): d for pid, d in value["payments"].items()}
        value["false_mahjongs"] = [{**c, "player_id": players[c["player_id"]]}
                                   for c in value.get("false_mahjongs", [])]
        for key in ("winner_id", "discarder_id"):
            if value.get(key) is not None:
                value[key] = players[int(value[key])]
        return value
    if "amount" in value:
        value["player_id"] = players[int(value["player_id"])]
        return value
    return {str(players[int(pid)]): score for pid, score in value.items()}


def _free_name(name: str) -> str:
    """The backup's name, or with "(restored)" and a number when a tournament already has it."""
    taken = set(db.session.scalars(select(Tournament.name)))
    if name not in taken:
        return name
    for n in range(1, 10_000):
        suffix = " (restored)" if n == 1 else f" (restored {n})"
        candidate = name[: 120 - len(suffix)] + suffix
        if candidate not in taken:
            return candidate
    raise ImportRefused(msg("Too many tournaments have this name already: rename one first."),
                        field="tournament.name")


def _staff_email(item: Any) -> str | None:
    email = item.get("user") if isinstance(item, dict) else None
    return email.lower() if isinstance(email, str) else None


def listed_staff(document: Any) -> list[str]:
    """The staff addresses a document lists (what an importer may confirm)."""
    items = document.get("tournament_staff") if isinstance(document, dict) else None
    if not isinstance(items, list):
        return []
    return [email for item in items if (email := _staff_email(item))]


def import_tournament(document: Any, imported_by_user: User, confirmed_staff: Iterable[str] = ()) -> Tournament:
    """Restore a backup as a new tournament; refused whole (ImportRefused) when anything is wrong.

    `imported_by_user` is the copy's only organiser; of the staff the document lists, those whose addresses
    are in `confirmed_staff` are invited as referees (they join when they accept), the others are left out."""
    users = {email.lower(): uid for uid, email in db.session.execute(select(User.id, User.email))}
    confirmed = {e.strip().lower() for e in confirmed_staff} - {imported_by_user.email.lower()}
    settings, rows = _Reader(document, users, confirmed).read()
    # Nobody joins a staff without saying yes (issue 31): the confirmed places become invitations, as referees,
    # which their owners accept on their "My events" page.
    invited = [email for email, uid in users.items() if uid in {row["user_id"] for row in rows["tournament_staff"]}]
    rows["tournament_staff"] = []
    with changes():
        settings["name"] = _free_name(settings["name"])
        tournament_table: Table = Tournament.__table__  # type: ignore[assignment]
        new_tid = db.session.execute(insert(tournament_table).returning(tournament_table.c.id),
                                     settings).scalar_one()
        new_ids: dict[str, dict[int, int]] = {}
        for model in CHILD_MODELS:
            table: Table = model.__table__  # type: ignore[assignment]
            items = rows[table.name]
            if not items:
                continue
            old_ids = [item["id"] for item in items]
            values = []
            for item in items:
                row = dict(item)
                del row["id"]
                for column in table.columns:
                    if _is_tournament_ref(column):
                        row[column.name] = new_tid
                        continue
                    fk = next(iter(column.foreign_keys), None)
                    if fk is not None and fk.column.table.name != "users" and row[column.name] is not None:
                        row[column.name] = new_ids[fk.column.table.name][row[column.name]]
                if table.name == "score_changes":  # the history names players by id too
                    for side in ("before", "after"):
                        row[side] = _renumber_players(row[side], new_ids["players"])
                values.append(row)
            result = db.session.execute(
                insert(table).returning(table.c.id, sort_by_parameter_order=True), values
            )
            new_ids[table.name] = dict(zip(old_ids, result.scalars().all(), strict=True))
        db.session.add(TournamentStaff(tournament_id=new_tid, user_id=imported_by_user.id, role=Role.ORGANISER))
    copy_ = db.session.get_one(Tournament, new_tid)
    for email in sorted(invited):
        invitations.invite(copy_, email, Role.REFEREE.value, imported_by_user)
    return copy_
