"""Finding players: search, the name order people expect, who plays next, teams and counts."""

from __future__ import annotations

from collections.abc import Iterable

from tournament.models import Player, PlayerStatus, Tournament
from tournament.services.people.registration.countries import names_of
from tournament.services.people.registration.players import players_of
from tournament.services.people.registration.statuses import STATUS_LABELS, known_status
from tournament.text import fold


def search_text(player: Player) -> str:
    """What a search matches: names, country code and its name in the five languages, club, team, EMA number."""
    parts = [player.first_name, player.last_name, player.country, *names_of(player.country),
             player.club, player.team, player.ema_number or ""]
    return fold(" ".join(part for part in parts if part))


def matches(player: Player, search: str | None) -> bool:
    """Every word of `search` occurs in the player's search text."""
    haystack = search_text(player)
    return all(word in haystack for word in fold(search or "").split())


def name_order(last_name: str, first_name: str) -> tuple[str, str]:
    """The one name order of every list: last name, then first name, accents and case ignored."""
    return (fold(last_name), fold(first_name))


def sort_key(player: Player) -> tuple:
    return (*name_order(player.last_name, player.first_name), player.id)


def by_name(players: Iterable[Player]) -> list[Player]:
    return sorted(players, key=sort_key)


def list_players(tournament: Tournament, search: str | None = None, status: str | None = None) -> list[Player]:
    """Players sorted by last name, optionally only those matching `search` and/or with `status`."""
    wanted = known_status(status) if status else None
    return by_name(p for p in players_of(tournament) if (wanted is None or p.status == wanted) and matches(p, search))


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
    result = {status.value: 0 for status in STATUS_LABELS}
    result.update(players=0, substitutes=0, substitutes_present=0)
    for p in players_of(tournament):
        if p.is_substitute:
            result["substitutes"] += 1
            result["substitutes_present"] += p.status == PlayerStatus.PRESENT
        else:
            result["players"] += 1
            result[p.status.value] += 1
    return result
