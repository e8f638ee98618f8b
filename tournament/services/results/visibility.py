"""Who may see the standings: everyone, unless the organisers have hidden them (e.g. before the last
session); then only the tournament's staff. Every standings page, JSON answer and PDF asks here."""

from __future__ import annotations

from tournament.models import Tournament, User
from tournament.services.core.db import changes
from tournament.services.people import tournaments as tournament_service

HIDDEN_TITLE = "Standings hidden"
HIDDEN_MESSAGE = ("The organisers have hidden the standings until they publish them (often after the last session). "
                  "The seating and each player's tables stay public.")


def standings_visible_to(user: User | None, t: Tournament) -> bool:
    return not t.standings_hidden or tournament_service.can_referee(user, t)


def set_standings_hidden(t: Tournament, hidden: bool) -> Tournament:
    with changes():
        t.standings_hidden = bool(hidden)
    return t
