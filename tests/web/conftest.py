"""Fixtures the web tests share."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

import pytest

from tests.helpers import (
    MB,
    ORGANISER_EMAIL,
    OTHER_EMAIL,
    REFEREE_EMAIL,
    THROTTLED_EMAIL,
    Api,
    ManualClock,
    add_players,
    check_in_all,
    make_tournament,
    make_user,
    register,
    table_ids,
    tiny_values,
    token_for,
    win,
)
from tournament.extensions import db, mail
from tournament.i18n import LANGUAGES
from tournament.models import Tournament
from tournament.services.core import throttle
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData
from tournament.services.people.tournaments import add_staff
from tournament.services.people.users import create_api_token
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle, schedule

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "tournament" / "translations"


@pytest.fixture
def api(client, organiser) -> Api:
    """The JSON API as the organiser, with a Bearer token."""
    return Api(client, token_for(organiser))


@pytest.fixture
def staffed_table(seated, organiser, referee):
    """`seated` with the referee on the staff: (tournament, table 1's ids, organiser, referee)."""
    t, ids = seated
    add_staff(t, referee.email, "referee")
    db.session.commit()
    return t, ids, organiser, referee



@pytest.fixture
def raw_api(client, organiser, app_ctx):
    """The JSON API as the organiser, sending a body exactly as given (bytes, broken JSON, lone surrogates):
    `raw_api(method, url, body, content_type)`."""
    _, plain = create_api_token(organiser, "bad input")
    db.session.commit()

    def send(method: str, url: str, body: str | bytes, content_type: str = "application/json"):
        return client.open(url, method=method, data=body, content_type=content_type,
                           headers={"Authorization": f"Bearer {plain}"})

    return send


@pytest.fixture
def post_api(client, organiser, app_ctx):
    """POST to the JSON API as the organiser: `post_api(path, body=None)` gives the response."""
    _, plain = create_api_token(organiser, "script")
    headers = {"Authorization": f"Bearer {plain}"}

    def call(path: str, body: dict | None = None):
        return client.post(f"/api/v1{path}", json=body if body is not None else {}, headers=headers)

    return call


@pytest.fixture
def tid(tournament) -> int:
    """The id of the `tournament` fixture."""
    return tournament.id


@pytest.fixture
def api_table(client, app_ctx, organiser, referee, tid):
    """Session 1 drawn and in play; (organiser api, referee api, hands url, seats E S W N of table 1)."""
    add_staff(db.session.get(Tournament, tid), referee.email, "referee")
    db.session.commit()
    boss = Api(client, token_for(organiser))
    check_in_all(boss, tid, register(boss, tid, 8))
    drawn = boss.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 5}, expect=201).get_json()
    started = boss.post(f"/tournaments/{tid}/sessions/1/start", expect=200).get_json()
    assert (started["session"], started["status"]) == (1, "in_play")
    seats = [seat["player_id"] for seat in drawn["tables"][0]["seats"]]
    return boss, Api(client, token_for(referee)), f"/tournaments/{tid}/sessions/1/tables/1/hands", seats


@pytest.fixture
def phones_tournament(api: Api):
    """A function making a tournament (`entry_mode` as given) with session 1 of 8 players in play. Returns
    (tid, seats of table 1 E S W N, seats of table 2, every player's token)."""

    def make(entry_mode: str | None = "players"):
        settings = {} if entry_mode is None else {"entry_mode": entry_mode}
        tid = api.post("/tournaments", {"name": f"Phones {entry_mode}", "session_count": 2, **settings},
                       expect=201).get_json()["id"]
        ids = register(api, tid, 8)
        check_in_all(api, tid, ids)
        drawn = api.post(f"/tournaments/{tid}/sessions/1/draw", {"seed": 5}, expect=201).get_json()
        api.post(f"/tournaments/{tid}/sessions/1/start", expect=200)
        tables = [[seat["player_id"] for seat in t["seats"]] for t in drawn["tables"]]
        tokens = {pid: api.get(f"/tournaments/{tid}/players/{pid}/link", expect=200).get_json()["token"]
                  for pid in ids}
        return tid, tables[0], tables[1], tokens

    return make


@pytest.fixture
def spec(client) -> dict:
    """The API's OpenAPI document, as /api/v1/openapi.json serves it."""
    return client.get("/api/v1/openapi.json").get_json()


@pytest.fixture
def api_schema(app, app_ctx, organiser):
    """The schemathesis schema of /api/v1/openapi.json on the test app, over a tournament with 8 players,
    session 1 in play and a hand (so that the ids schemathesis tries first reach real data)."""
    import schemathesis
    from schemathesis.generation import GenerationMode

    t = make_tournament(organiser)
    add_players(t, 8)
    lifecycle.set_status(draw_service.draw_next(t, seed=1), "published")
    lifecycle.start_session(t, 1)
    scoring.enter_hand(t, 1, 1, HandData(number=1, result="draw"), None)
    db.session.commit()
    loaded = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    # Schema-valid data and schema-breaking data (wrong types, missing fields: a 4xx each, never a 5xx).
    # No NUL in generated text: the API refuses it in every string (PostgreSQL cannot store it; its info says
    # so, tests/web/test_bad_input.py checks it), a rule of every field that a per-field pattern would bury.
    loaded.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE], allow_x00=False)
    return loaded


@pytest.fixture
def bearer(organiser, app_ctx) -> dict[str, str]:
    """The Authorization header of an organiser's API token."""
    _, plain = create_api_token(organiser, "schemathesis")
    db.session.commit()
    return {"Authorization": f"Bearer {plain}"}


@pytest.fixture
def outsider(app_ctx):
    """A referee on no tournament's staff."""
    return make_user("nina@example.org", "referee", "Nina Notstaff")


@pytest.fixture
def staff_api(client, played, referee):
    """The API as a referee on the staff of `played` (8 ranked players, one session)."""
    add_staff(played, referee.email, "referee")
    db.session.commit()
    return Api(client, token_for(referee))


@pytest.fixture
def clock_api_setup(client, organiser, tournament):
    """Two tables in play (session 1), 90-minute sessions; an organiser, a referee and an outsider.
    Returns (tournament, {"organiser", "referee", "outsider", "public": an Api each})."""
    tournament.session_minutes = 90
    referee = make_user("ref@example.org", "referee", "Rita Referee")
    outsider = make_user("out@example.org", "organiser", "Otto Outsider")
    add_staff(tournament, referee.email, "referee")
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=4)
    lifecycle.start_session(tournament, 1)
    db.session.commit()
    apis = {who: Api(client, token_for(user)) for who, user in
            (("organiser", organiser), ("referee", referee), ("outsider", outsider))}
    apis["public"] = Api(client, None)
    return tournament, apis


@pytest.fixture
def session_in_play(tournament):
    """8 players, 90-minute sessions, session 1 drawn (seed 2) and in play; returns the tournament."""
    tournament.session_minutes = 90
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=2)
    lifecycle.start_session(tournament, 1)
    db.session.commit()
    return tournament


@pytest.fixture
def referee_on_staff(tournament, auth, client):
    """A referee (Rita) on the tournament's staff, logged in on `client`; returns the referee."""
    referee = make_user("ref@example.org", "referee", "Rita Referee")
    add_staff(tournament, referee.email, "referee")
    db.session.commit()
    auth.login(referee)
    return referee


@pytest.fixture
def session_two_draft(tournament, organiser):
    """Session 1 in play; session 2 drawn (a draft); a referee on the staff: (tournament, referee)."""
    referee = make_user("rita@example.org", "referee", "Rita Referee")
    add_staff(tournament, referee.email, "referee")
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=4)
    lifecycle.start_session(tournament, 1)
    draw_service.draw_next(tournament, seed=5)
    db.session.commit()
    assert play.get_session(tournament, 2).status == "draft"
    return tournament, referee


@pytest.fixture
def timetabled(organiser):
    """A Helsinki tournament of 3 sessions of 90 minutes, 8 players, session 1 published; sessions 1 and 2
    planned (10:00 and 13:00 local on 16 January), session 3 not: (tournament, players)."""
    t = make_tournament(organiser, name="Helsinki Open", venue="Kalasatama", time_zone="Europe/Helsinki",
                        session_count=3, session_minutes=90)
    players = add_players(t, 8)
    session = draw_service.draw_next(t, seed=4)
    lifecycle.set_status(session, "published")
    schedule.set_planned_starts(t, {1: datetime(2026, 1, 16, 10, 0), 2: datetime(2026, 1, 16, 13, 0)})
    db.session.commit()
    return t, players


@pytest.fixture
def event_(app, tournament):
    """8 players; session 1 played and finished, session 2 in play with one hand; session 3 not drawn."""
    app.config["LIVE_MIN_RECOMPUTE_SECONDS"] = 0  # every change is seen at once (the throttle has its test)
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    e, s, w, n = table_ids(tournament, 1, 1)
    win(tournament, 1, 1, 1, e, s)
    win(tournament, 1, 2, 1, table_ids(tournament, 1, 2)[2])
    lifecycle.finish_session(tournament, 1, force=True)
    draw_service.draw_next(tournament, seed=4)
    lifecycle.start_session(tournament, 2)
    win(tournament, 2, 1, 1, table_ids(tournament, 2, 1)[1], table_ids(tournament, 2, 1)[0])
    db.session.commit()
    return tournament


@pytest.fixture
def players(tournament):
    """Three registered players by key: aino (club Helsinki MC), mikko, and sanna (a substitute)."""

    def add(first, last, **kwargs):
        return reg.add_player(tournament, PlayerData(first_name=first, last_name=last, **kwargs))

    return {
        "aino": add("Aino", "Virtanen", club="Helsinki MC"),
        "mikko": add("Mikko", "Korhonen"),
        "sanna": add("Sanna", "Aalto", is_substitute=True),
    }


@pytest.fixture
def desk_referee(referee_client, referee, tournament):
    """`referee_client` (logged in), the referee on the tournament's staff: the check-in desk's browser."""
    add_staff(tournament, referee.email, "referee")
    return referee_client


@pytest.fixture
def quarter_points(tournament):
    """Session 1 on two tables by totals: table 1 four-way tied (1.75 table points each: (4+2+1+0)/4), table 2
    40 -5 -5 -30 (4, 1.5, 1.5, 0); the tournament 9 to 11 May 2026."""
    tournament.start_date, tournament.end_date = date(2026, 5, 9), date(2026, 5, 11)
    add_players(tournament, 8)
    draw_service.draw_next(tournament, seed=3)
    lifecycle.start_session(tournament, 1)
    session = play.get_session(tournament, 1)
    for table, scores in ((1, [0, 0, 0, 0]), (2, [40, -5, -5, -30])):
        ids = [sp.player_id for sp in play.table_players(session, table)]
        scoring.enter_totals(tournament, 1, table, dict(zip(ids, scores, strict=True)), None)
    lifecycle.finish_session(tournament, 1)
    db.session.commit()
    return tournament


# --- accounts made outside the test's app context (each request gets its own, as on a real worker) -----


@pytest.fixture
def accounts(app):
    """The organiser's and the referee's accounts (ORGANISER_EMAIL, REFEREE_EMAIL), made in an app context of
    their own: the login tests hold several browsers at once, none sharing the test's context."""
    with app.app_context():
        make_user(ORGANISER_EMAIL, "organiser")
        make_user(REFEREE_EMAIL, "referee")


@pytest.fixture
def victim(app):
    """The account the throttle tests guess at (THROTTLED_EMAIL, an organiser) and another (OTHER_EMAIL)."""
    with app.app_context():
        make_user(THROTTLED_EMAIL, "organiser")
        make_user(OTHER_EMAIL, "referee")


@pytest.fixture
def throttle_clock(monkeypatch) -> ManualClock:
    """The login throttle's clock, moved by hand (`throttle_clock.advance(seconds)`)."""
    clock = ManualClock()
    monkeypatch.setattr(throttle, "utcnow", clock)
    return clock


@pytest.fixture
def mail_server(app):
    """A mail server set (MAIL_SERVER): the list of messages the app sends, recorded instead of sent."""
    app.config["MAIL_SERVER"] = "mail.example.org"
    with mail.record_messages() as outbox:
        yield outbox


@pytest.fixture
def tiny_10mb() -> bytes:
    """A 10 MB JSON body of `[0]` values: the most memory per byte once parsed."""
    return tiny_values(10 * MB)


# --- the translation catalogues -----------------------------------------------------------------------------


def _catalogue(lang: str):
    """The committed catalogue of `lang`: the template (messages.pot) for English."""
    from babel.messages.pofile import read_po

    path = TRANSLATIONS / ("messages.pot" if lang == "en" else f"{lang}/LC_MESSAGES/messages.po")
    with open(path, "rb") as f:
        return read_po(f, locale=None if lang == "en" else lang)


@pytest.fixture(scope="module")
def source_messages() -> dict[tuple[str | None, str], tuple[str, ...]]:
    """{(context, msgid): every form} of the texts marked in the source, as `make translations-extract`
    finds them."""
    from babel.messages.extract import extract_from_dir
    from babel.messages.frontend import parse_mapping_cfg

    with open(ROOT / "babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = {}
    for _filename, _lineno, message, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map):
        forms = message if isinstance(message, tuple) else (message,)
        found[(context, forms[0])] = forms
    return found


@pytest.fixture(scope="module")
def template_messages():
    """{(context, msgid): files it is extracted from} of the committed template catalogue."""
    return {(m.context, m.id if isinstance(m.id, str) else m.id[0]): {path for path, _ in m.locations}
            for m in _catalogue("en") if m.id}


@pytest.fixture(scope="module")
def translations():
    """Every translated text of each language: an English word found in one (Kong, Hand) may stay on a
    page."""
    out = {}
    for lang in LANGUAGES:
        if lang != "en":
            out[lang] = " ".join(s for m in _catalogue(lang) if m.id
                                 for s in (m.string if isinstance(m.string, tuple) else (m.string,)))
    return out
