"""Registering players and checking them in."""

from __future__ import annotations

from flask import abort

from tournament.messages import msg
from tournament.models import Player, PlayerStatus, Tournament
from tournament.services import ConflictError, ServiceError
from tournament.services.people import registration
from tournament.services.people.registration import PlayerData
from tournament.services.seating import ahead
from tournament.web.api.common import api_blueprint, current_user, for_tournament
from tournament.web.api.schemas import (
    DisqualifyInSchema,
    EmaResultInSchema,
    EmptySchema,
    FixedTableInSchema,
    PlayerInSchema,
    PlayerListSchema,
    PlayerSchema,
    WithdrawInSchema,
)

NEW_PLAYER = {"first_name": "Aino", "last_name": "Virtanen", "country": "FI", "ema_number": "04000123",
              "club": "Helsinki Mahjong Club"}
PLAYER = {"id": 1, **NEW_PLAYER, "team": "", "substitute": False, "status": "registered", "left_out_of_ema": False,
          "fixed_table": None}

bp = api_blueprint("api_players", "Players of a tournament: registration and check-in (its organisers).")


def player_json(p: Player) -> dict:
    return {
        "id": p.id,
        "first_name": p.first_name,
        "last_name": p.last_name,
        "country": p.country,
        "ema_number": p.ema_number,
        "club": p.club,
        "team": p.team,
        "substitute": p.is_substitute,
        "status": p.status,
        "left_out_of_ema": p.left_out_of_ema,
        "fixed_table": p.fixed_table,
    }


def player_or_404(t: Tournament, player_id: int) -> Player:
    player = registration.get_player(t, player_id)
    if player is None:
        abort(404, "No such player in this tournament.")
    return player


@bp.route("/tournaments/<int:tournament_id>/players", methods=["GET"])
@for_tournament("referee")
@bp.response(200, PlayerListSchema)
def list_players(t: Tournament):
    """Every player of the tournament, substitutes included, by last name (its staff)."""
    return {"players": [player_json(p) for p in registration.list_players(t)]}


@bp.route("/tournaments/<int:tournament_id>/players", methods=["POST"])
@for_tournament("manage")
@bp.arguments(PlayerInSchema, example=NEW_PLAYER)
@bp.response(201, PlayerSchema, example=PLAYER)
def add_player(body: dict, t: Tournament):
    """Register a player. Sessions planned ahead and not in play (a plan seats those registered) are mended to
    seat them: they take substitutes' seats or a new table; the other players keep theirs."""
    data = PlayerData(
        first_name=body["first_name"],
        last_name=body["last_name"],
        country=body["country"],
        ema_number=body.get("ema_number"),
        club=body.get("club") or "",
        team=body.get("team") or "",
        is_substitute=body.get("substitute", False),
        fixed_table=body.get("fixed_table"),
    )
    player, _ = ahead.change_field(t, lambda: registration.add_player(t, data), current_user())
    return player_json(player)


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/checkin", methods=["POST"])
@for_tournament("manage")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, PlayerSchema, example={**PLAYER, "status": "present"})
def check_in(_: dict, t: Tournament, player_id: int):
    """Mark the player present, so that the next draw seats them (again: still 200); sessions drawn ahead and
    not in play that leave a late arrival out are mended to seat them (they take a substitute's seats or open a
    table; the other players keep theirs). A withdrawn player is a 400: reinstate them first
    (`POST .../players/{id}/reinstate`); a disqualified one too."""
    player = player_or_404(t, player_id)
    if player.status == PlayerStatus.WITHDRAWN:
        raise ServiceError(msg("%(name)s has withdrawn: reinstate them first (POST /api/v1/tournaments/%(tid)s/"
                               "players/%(id)s/reinstate), then check them in.", name=player.full_name, tid=t.id,
                               id=player.id), field="status")
    if player.status == PlayerStatus.DISQUALIFIED:
        raise ServiceError(msg("%(name)s is disqualified and cannot be checked in.", name=player.full_name),
                           field="status")
    ahead.change_field(t, lambda: registration.check_in(player), current_user())
    return player_json(player)


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/reinstate", methods=["POST"])
@for_tournament("manage")
@bp.arguments(EmptySchema, required=False)
@bp.response(200, PlayerSchema, example={**PLAYER, "status": "registered"})
def reinstate(_: dict, t: Tournament, player_id: int):
    """A withdrawn player comes back: registered again, they are seated once checked in (sessions drawn ahead
    and not in play are then mended to seat them). A player registered or present is answered as they are
    (still 200); a disqualified player is a 409 (the organisers' players page can reinstate one)."""
    player = player_or_404(t, player_id)
    if player.status == PlayerStatus.DISQUALIFIED:
        raise ConflictError(msg("%(name)s is disqualified: the API does not reinstate a disqualified player.",
                                name=player.full_name))

    def reinstate_once() -> None:
        if player.status == PlayerStatus.WITHDRAWN:
            registration.reinstate(player)

    ahead.change_field(t, reinstate_once, current_user())
    return player_json(player)


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/disqualify", methods=["POST"])
@for_tournament("manage")
@bp.arguments(DisqualifyInSchema, example={"reason": "Cheating (MERS 3.5)"})
@bp.response(200, PlayerSchema, example={**PLAYER, "status": "disqualified"})
def disqualify(body: dict, t: Tournament, player_id: int):
    """Disqualify the player (MERS 3.5), the reason kept in their notes: seated in no later draw; in the
    standings and the EMA file with their score and 0 table points for the whole tournament (MERS 4.4);
    sessions drawn ahead and not in play are re-planned without them. Disqualifying again is still a 200."""
    player = player_or_404(t, player_id)
    ahead.change_field(t, lambda: registration.disqualify_player(player, body["reason"]), current_user())
    return player_json(player)


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/ema-result", methods=["POST"])
@for_tournament("manage")
@bp.arguments(EmaResultInSchema, example={"left_out": True})
@bp.response(200, PlayerSchema, example={**PLAYER, "status": "withdrawn", "left_out_of_ema": True})
def ema_result(body: dict, t: Tournament, player_id: int):
    """MERS 4.3: leave a player who withdrew ill out of the EMA results (`left_out` true; false puts them back).
    The standings keep them; in the EMA files those ranked below move up. Only a withdrawn player (else 400)."""
    return player_json(registration.leave_out_of_ema(player_or_404(t, player_id), body["left_out"]))


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/fixed-table", methods=["POST"])
@for_tournament("manage")
@bp.arguments(FixedTableInSchema, example={"fixed_table": 1})
@bp.response(200, PlayerSchema, example={**PLAYER, "fixed_table": 1})
def fixed_table(body: dict, t: Tournament, player_id: int):
    """Give the player a fixed table for access needs (`fixed_table`: the table number they keep in every draw
    and plan, from 1 to the tournament's number of tables, one player per table), or none (null). Draws and
    plans made from then on seat them there; sessions already drawn keep their seating."""
    return player_json(registration.set_fixed_table(player_or_404(t, player_id), body["fixed_table"]))


@bp.route("/tournaments/<int:tournament_id>/players/<int:player_id>/withdraw", methods=["POST"])
@for_tournament("manage")
@bp.arguments(WithdrawInSchema, required=False, example={"note": "ill"})
@bp.response(200, PlayerSchema, example={**PLAYER, "status": "withdrawn"})
def withdraw(body: dict, t: Tournament, player_id: int):
    """Withdraw the player (the note, if any, is kept in their notes): they are seated in no later draw, and
    sessions drawn ahead and not in play are mended without them: a substitute takes their seats, or, when the
    field loses a table, the last table's players (at most 4) fill the seats left; everyone else keeps their
    table. Withdrawing again is still a 200; a withdrawn player comes back through `.../reinstate`."""
    player = player_or_404(t, player_id)
    if player.status == PlayerStatus.DISQUALIFIED:
        raise ConflictError(f"{player.full_name} is disqualified; reinstate them before any other change.")

    def withdraw_once() -> None:
        if player.status != PlayerStatus.WITHDRAWN:
            registration.withdraw(player, (body or {}).get("note") or "")

    ahead.change_field(t, withdraw_once, current_user())
    return player_json(player)
