"""Factories and browser-like helpers the tests share (instead of test modules importing each other).

Factories write through the models or services and commit: the test is the edge of its own unit of work.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from tournament.extensions import db
from tournament.models import Player, PlayerStatus, SessionStatus, Tournament, TournamentSession, User
from tournament.models._common import utcnow

PASSWORD = "correct-horse-42"
CSRF_RE = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


# --- accounts and tournaments ---------------------------------------------------------------------------


def make_user(email: str, role: str, name: str = "") -> User:
    from tournament.services.users import create_user

    user = create_user(email, PASSWORD, role, name=name)
    db.session.commit()
    return user


def make_tournament(owner: User, name: str = "Helsinki Open", **settings) -> Tournament:
    from tournament.services.tournaments import TournamentData, create_tournament

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
    from tournament.services import registration as reg

    player = reg.get_player(t, player_id)
    reg.update_player(player, dataclasses.replace(reg.PlayerData.from_player(player), first_name=first_name),
                      player.version)
    db.session.commit()


def seated(session: TournamentSession) -> list[int]:
    return [seat.player_id for seat in session.seats]


def seated_session(t: Tournament, players: int = 16, seed: int = 1,
                   status: SessionStatus = SessionStatus.DRAFT) -> TournamentSession:
    """`players` present players seated in the next session, moved on to `status`."""
    from tournament.services import draws as draw_service

    add_players(t, players)
    session = draw_service.draw_next(t, seed=seed)
    path = [SessionStatus.PUBLISHED, SessionStatus.IN_PLAY, SessionStatus.FINISHED]
    for step in path[: path.index(status) + 1] if status in path else []:
        draw_service.set_status(session, step)
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


# --- hands and the JSON API ------------------------------------------------------------------------------

VALID_22 = "123456789m123s5p5p"  # Pure Straight 16, Concealed 2, All Chows 2, Mixed Double Chow 1, Single Wait 1
UNDER_5 = "[234m][456p][678s]22s23s4s"  # All Chows, All Simples, Mixed Double Chow: 5 points
NOT_WINNING = "123m456p789s2345sE"


class Api:
    """A test client speaking JSON with a Bearer token, like a script would."""

    def __init__(self, client, token: str):
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}

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


def token_for(user) -> str:
    from tournament.services.users import create_api_token

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
