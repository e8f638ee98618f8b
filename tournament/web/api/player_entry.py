"""Players at the table: their private links (staff routes), the referees' queue of disputes, and the players'
own routes under /api/v1/p/{token}, where the link's token is the credential (no Authorization header).

An unknown or renewed token answers 404 whatever the route, and counts against the client address like a failed
login (`services.core.throttle`): guessing tokens from one address is refused with a 429 long before it could work.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import url_for

from tournament.models import Player, Tournament
from tournament.services.people import player_links
from tournament.services.play import confirmations
from tournament.services.play.scoring import hand_answer
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.hands import NEW_HAND, hand_data
from tournament.web.api.players import player_json, player_or_404
from tournament.web.api.schemas import (
    DisputeInSchema,
    DisputeListSchema,
    EmptySchema,
    HandInSchema,
    HandSchema,
    PlayerLinkSchema,
    PlayerViewSchema,
)
from tournament.web.helpers import linked_player

bp = api_blueprint("api_player_links", "Players at the table: private player links and the referees' queue of "
                                       "disputes (its staff).")
own = api_blueprint("api_player_own", "A player's own routes: the token of their private link is in the path; "
                                      "no Authorization header.", bearer=False)

TABLE_HAND = "/tournaments/<int:tournament_id>/sessions/<int:number>/tables/<int:table>/hands/<int:hand_number>"
OWN = "/p/<link_token>"
NO_BEARER = {"security": []}  # the OpenAPI document: these routes take no token header


def link_json(player: Player) -> dict[str, str]:
    link = player_links.link_of(player.tournament, player.id)
    token = player_links.token_of(link)
    return {"token": token, "url": url_for("player_page.page", link_token=token, _external=True)}


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/link", methods=["GET"])
@for_tournament("referee")
@bp.response(200, PlayerLinkSchema)
def get_link(t: Tournament, player_id: int):
    """The player's private link (made on first request): the url opens the player's page with no login."""
    return link_json(player_or_404(t, player_id))


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/link", methods=["POST"])
@for_tournament("referee")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, PlayerLinkSchema)
def renew_link(_: dict, t: Tournament, player_id: int):
    """A new token for the player (a lost card, a link shared by mistake): the old one answers 404 from now on."""
    player = player_or_404(t, player_id)
    player_links.renew(t, player.id)
    return link_json(player)


@bp.route("/tournaments/<int:tournament_id>/sessions/<int:number>/disputes", methods=["GET"])
@for_tournament("referee")
@bp.response(200, DisputeListSchema)
def list_disputes(t: Tournament, number: int):
    """The session's open disputes, oldest first (a correction of the hand or a ruling that it stands closes one)."""
    return {"disputes": [confirmations.dispute_json(d, hand) for d, hand in confirmations.open_disputes(t, number)]}


@bp.route(f"{TABLE_HAND}/stands", methods=["POST"])
@for_tournament("referee")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, HandSchema)
def rule_stands(_: dict, t: Tournament, number: int, table: int, hand_number: int):
    """A referee rules the hand stands as entered: its open disputes close and it counts (status confirmed).
    To change it instead, correct it (PUT): that closes the disputes too."""
    return hand_answer(confirmations.rule_stands(t, number, table, hand_number, current_user()))


# ----------------------------------------------------------------------------- the player's own routes


def by_link(view: Callable) -> Callable:
    """Resolve the path's token to its player (404 for any unknown or renewed token, counted per address;
    429 once an address has tried too many)."""

    @wraps(view)
    def wrapped(*args: Any, link_token: str, **kwargs: Any) -> Any:
        # A LinkThrottled goes on to the API's error handler: a 429 with Retry-After.
        return view(*args, player=linked_player(link_token, say_why=True), **kwargs)

    return wrapped


def view_json(view: confirmations.PlayerView) -> dict[str, Any]:
    t = view.player.tournament
    return {
        "player": player_json(view.player),
        "tournament": {"id": t.id, "name": t.name, "entry_mode": t.entry_mode, "ruleset": t.ruleset},
        "session": view.where.session.number if view.where.session is not None else None,
        "table": view.where.table_number,
        "seat_wind": view.seat_wind,
        "hands": [hand_answer(h) for h in view.hands],
    }


@own.route(OWN, methods=["GET"])
@own.doc(**NO_BEARER)
@by_link
@own.response(200, PlayerViewSchema)
def my_table(player: Player):
    """The player's table now: the session in play (else the next published), their table and seat wind, the
    table's hands with their fans, payments and confirmations."""
    return view_json(confirmations.player_view(player.tournament, player))


@own.route(f"{OWN}/hands", methods=["POST"])
@own.doc(**NO_BEARER)
@by_link
@own.arguments(HandInSchema, example=NEW_HAND)
@own.response(201, HandSchema)
def enter_hand(body: dict, player: Player):
    """Enter a hand of the player's own table in the session in play (a tournament in the `players` entry mode;
    403 otherwise). The engine checks it as it checks the referees' entries; it counts once the other three
    confirmed it. Send an `Idempotency-Key` header: a hand sent again after a lost connection is stored once."""
    return hand_answer(confirmations.enter_hand(player.tournament, player, hand_data(body, body["number"])))


@own.route(f"{OWN}/tables/<int:table>/hands/<int:hand_number>/confirm", methods=["POST"])
@own.doc(**NO_BEARER)
@by_link
@own.arguments(EmptySchema, required=False)
@own.response(200, HandSchema)
def confirm(_: dict, player: Player, table: int, hand_number: int):
    """Confirm a hand of the player's table (403 for another table); confirming again changes nothing."""
    return hand_answer(confirmations.confirm(player.tournament, player, table, hand_number))


@own.route(f"{OWN}/tables/<int:table>/hands/<int:hand_number>/dispute", methods=["POST"])
@own.doc(**NO_BEARER)
@by_link
@own.arguments(DisputeInSchema)
@own.response(200, HandSchema)
def dispute(body: dict, player: Player, table: int, hand_number: int):
    """Dispute a hand of the player's table with a reason: it goes to the referees' queue (status disputed)."""
    return hand_answer(confirmations.dispute(player.tournament, player, table, hand_number, body["reason"]))

