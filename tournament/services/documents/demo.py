"""A sample tournament so that a newcomer sees something real at once."""

from __future__ import annotations

import random
import secrets
from datetime import date, datetime, time, timedelta

from tournament.extensions import db
from tournament.models import Player, PlayerStatus, Role, Tournament, User
from tournament.services.core.db import changes
from tournament.services.people.tournaments import TournamentData, create_tournament
from tournament.services.people.users import create_user, find_user_by_email
from tournament.services.seating import lifecycle

FIRST_NAMES = [
    "Aino", "Mikko", "Sanna", "Jonas", "Elin", "Pierre", "Camille", "Lukas", "Anna", "Marco",
    "Giulia", "Sofia", "Pablo", "Lucia", "Jan", "Katarzyna", "Tomas", "Eva", "Dmitri", "Olga",
    "Hiroshi", "Yuki", "Wei", "Mei", "Lars", "Ingrid", "Sean", "Aoife", "Noah", "Emma",
    "Mateo", "Clara", "Felix", "Hanna", "Viktor", "Nora",
]
LAST_NAMES = [
    "Virtanen", "Korhonen", "Lindqvist", "Berg", "Dubois", "Martin", "Schmidt", "Weber", "Rossi",
    "Bianchi", "Garcia", "Lopez", "Novak", "Kowalski", "Horvath", "Nagy", "Ivanov", "Petrova",
    "Tanaka", "Sato", "Zhang", "Li", "Hansen", "Olsen", "Murphy", "Kelly", "de Vries", "Jansen",
    "Silva", "Costa", "Fischer", "Wagner", "Novotny", "Svoboda", "Eriksson", "Nilsson",
]
CLUBS = [
    ("FI", "Helsinki Mahjong Club"), ("SE", "Stockholm MCR"), ("FR", "Paris Mahjong"),
    ("DE", "Berlin Dragons"), ("IT", "Roma Riichi & MCR"), ("ES", "Madrid Mahjong"),
    ("CZ", "Praha Mahjong"), ("DK", "Copenhagen Winds"),
]

DEMO_EMAIL = "demo-organiser@example.org"


def demo_substitutes(players: int) -> int:
    """Two substitutes, or as many as it takes to fill the last table."""
    return max(2, -players % 4)


def load_demo(players: int = 32, seed: int = 2026, owner_email: str | None = None) -> tuple[Tournament, str | None]:
    """Create a demo tournament with `players` players; returns it and a new owner password if one was made."""
    rng = random.Random(seed)
    password = None
    owner: User | None = find_user_by_email(owner_email or DEMO_EMAIL)
    if owner is None:
        password = secrets.token_urlsafe(9)
        owner = create_user(owner_email or DEMO_EMAIL, password, Role.ORGANISER, name="Demo organiser")
    start = date.today() + timedelta(days=14)
    t = create_tournament(
        owner,
        TournamentData(
            name=f"Demo MCR Open {start.year}",
            venue="Helsinki, Finland",
            country="FIN",
            start_date=start,
            end_date=start + timedelta(days=1),
            session_count=7,
            session_minutes=120,
            time_zone="Europe/Helsinki",
        ),
    )
    # The timetable of a two-day weekend, in Helsinki time: four sessions on Saturday, three on Sunday.
    from tournament.services.seating.schedule import set_planned_starts

    times = ((0, 10, 0), (0, 12, 30), (0, 15, 0), (0, 17, 30), (1, 9, 30), (1, 12, 0), (1, 14, 30))
    set_planned_starts(t, {number: datetime.combine(start + timedelta(days=day), time(hour, minute))
                           for number, (day, hour, minute) in enumerate(times, start=1)})
    substitutes = demo_substitutes(players)
    names = rng.sample([(f, last) for f in FIRST_NAMES for last in LAST_NAMES], players + substitutes)
    with changes():
        for index, (first, last) in enumerate(names):
            country, club = CLUBS[index % len(CLUBS)]
            db.session.add(
                Player(
                    tournament_id=t.id,
                    first_name=first,
                    last_name=last,
                    country=country,
                    club=club,
                    team=f"Team {country}" if index % 3 == 0 else "",
                    ema_number=f"{rng.randrange(10**7, 10**8)}" if index % 4 else None,
                    is_substitute=index >= players,
                    status=PlayerStatus.REGISTERED.value,
                )
            )
    # Seat everyone for the whole event and publish the first session, as an organiser would.
    from tournament.models import SessionStatus
    from tournament.services.seating import draws

    sessions = draws.plan_all(t, seed=seed, user=owner)
    lifecycle.set_status(sessions[0], SessionStatus.PUBLISHED)
    # Then play as referees would: session 1 closed, session 2 half-way, so standings show at once.
    from tournament.services.documents.demo_play import play_demo

    play_demo(t, rng, owner)
    return t, password
