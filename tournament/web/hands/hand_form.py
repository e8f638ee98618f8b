"""The hand form's page, shared by the referees' entry (`hands.py`) and the players' (`web/player_page`): the
seat buttons and winds, the service's refusals put on the rows they name, a refused claim turned into a false
mahjong, why a hand cannot be entered, and the one check that tells a double submit from another hand.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import NamedTuple

from flask import flash, redirect, render_template
from flask_babel import gettext
from werkzeug.wrappers import Response

from tournament.i18n.service_messages import translate
from tournament.models import HANDS_PER_SESSION, Tournament
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.play import scoring, time_calls
from tournament.services.play import session as play
from tournament.services.play.scoring import HandData, HandRefused
from tournament.web.hands.common import table_url
from tournament.web.hands.forms import FALSE_MAHJONG_FLAGS, SELF_DRAWN, DeleteHandForm, HandForm
from tournament.web.helpers import show_service_error
from tournament.web.unit import refuse


def labels(players: list[play.SeatedPlayer]) -> dict[int, str]:
    return {sp.player_id: sp.player.full_name for sp in players}


def hand_players(s, table: int, hand_number: int | None) -> list[play.SeatedPlayer]:
    """The four players of that hand (substitutes in from their hand on); the drawn four without a number."""
    if not isinstance(hand_number, int) or not 1 <= hand_number <= HANDS_PER_SESSION:
        return play.table_players(s, table)
    return play.players_at_hand(s, table, hand_number)


def winds_map(players: list[play.SeatedPlayer]) -> str:
    """Seat and prevalent wind of every player in every hand, for the live score (hand-entry.js)."""
    out = {}
    for number in range(1, HANDS_PER_SESSION + 1):
        hw = play.hand_winds(number)
        out[number] = {"prevalent": hw.prevalent,
                       "seats": {str(sp.player_id): hw.seat_winds[sp.start_wind] for sp in players}}
    return json.dumps(out, separators=(",", ":"))


class Seat(NamedTuple):
    """One seat button of the hand form: the player and their seat wind in that hand."""

    player_id: int
    name: str
    wind: str


def seats(players: list[play.SeatedPlayer], hand_number) -> list[Seat]:
    """The table's seats in drawn order with their seat winds in that hand (hand 1's before a number is known)."""
    number = hand_number if isinstance(hand_number, int) and 1 <= hand_number <= HANDS_PER_SESSION else 1
    winds = play.hand_winds(number).seat_winds
    return [Seat(sp.player_id, sp.player.full_name, winds[sp.start_wind]) for sp in players]


def place_errors(form: HandForm, exc: ServiceError, rows: list[int]) -> None:
    """Service fields like "false_mahjongs.1.hand" name the n-th claim; put them on that player's row."""
    for name, message in list(exc.errors.items()):
        if name.startswith("false_mahjongs."):
            _, index, *rest = name.split(".")
            try:
                entry = form.false_mahjongs[rows[int(index)]]
            except (ValueError, IndexError):
                continue
            target = entry[rest[0]] if rest and rest[0] in ("hand", *FALSE_MAHJONG_FLAGS) else entry.kind
            target.errors = [*list(target.errors or []), translate(message)]
            exc.errors.pop(name)
            exc.errors.setdefault("false_mahjongs", message)
    show_service_error(form, exc)


def offer_false_mahjong(form: HandForm, players: list[play.SeatedPlayer]) -> bool:
    """Move a refused claim into the claimant's false-mahjong row; the referee then enters how the hand ended."""
    winner = form.winner_id.data
    for entry in form.false_mahjongs:
        if entry.player_id.data == winner and winner:
            entry.kind.data = "engine"
            entry.hand.data = form.hand.data
            entry.self_drawn.data = form.is_self_drawn()  # the claim keeps the win's context
            entry.last_tile.data, entry.wall_last.data, entry.kong.data = (
                form.last_tile.data, form.wall_last.data, form.kong.data)
            form.winner_id.data = ""
            form.discarder_id.data = ""
            form.hand.data = ""
            form.flowers.data = 0
            form.last_tile.data = form.wall_last.data = form.kong.data = False
            return True
    return False


def _closed(s) -> str:
    """Why a session takes no hand now (finished: an organiser must reopen it); "" while in play."""
    try:
        play.require_in_play(s)
    except ConflictError as exc:
        return translate(exc.message)
    return ""


def render_hand_form(t, s, table, players, form, *, editing=None, refusal=None, status=200, notice="",
                     notice_hand=None, open_hands=None):
    """The referees' hand form (new or, with `editing`, a correction); a 409 while the session takes no hand."""
    closed = _closed(s)
    return render_template(
        "hands/hand_form.html", tournament=t, session=s, table=table, players=players, form=form,
        labels=labels(players), winds_map=winds_map(players), seats=seats(players, form.number.data),
        self_drawn_value=SELF_DRAWN, editing=editing, refusal=refusal,
        delete_form=DeleteHandForm(version=editing.version) if editing else None, closed=closed,
        notice=notice, notice_hand=notice_hand, open_hands=open_hands,
    ), 409 if closed and status < 400 else status


def why_not(t: Tournament, s, table: int, number: int) -> tuple[str, int | None]:
    """Why hand `number` cannot be entered at this table now, and the hand to correct instead (if any)."""
    if not 1 <= number <= HANDS_PER_SESSION:
        return gettext("There is no hand %(num)d: a session has hands 1 to %(last)d.", num=number,
                       last=HANDS_PER_SESSION), None
    try:
        scoring.get_hand(t, s.number, table, number)
    except NotFound:
        pass
    else:
        return gettext("Hand %(num)d is already entered at table %(table)d: nothing is entered twice.", num=number,
                       table=table), number
    try:
        time_calls.check_hand_may_be_entered(t, s, table, number)
    except ConflictError as exc:
        return translate(exc.message), None
    return "", None


def double_submit(t: Tournament, number: int, table: int, data: HandData) -> Response | None:
    """The answer to an entry refused as a conflict when the hand is stored exactly as sent: a double submit
    (two taps, the form sent again with a new key) stored once: a notice and the table page, this request
    marked refused. None when the stored hand is another one: a real conflict, for the caller to answer."""
    if not scoring.already_stored(t, number, table, data):
        return None
    refuse()  # this second entry stored nothing
    flash(gettext("Hand %(num)d was already saved with this result: the second submit stored nothing.",
                  num=data.number), "info")
    return redirect(table_url(t, number, table))


def save_hand(form: HandForm, render: Callable[..., tuple[str, int]], save: Callable[[], object],
              conflict: Callable[[ConflictError], Response | tuple[str, int]]) -> Response | tuple[str, int] | None:
    """Run `save` (a new hand or a correction) and answer its refusals on the form: the engine's verdict (with
    the offer to record a refused claim as a false mahjong), a conflict (`conflict` says how), any other refusal
    next to its field. None when the hand is saved."""
    rows = [index for index, _ in form.false_mahjong_rows()]
    try:
        save()
    except HandRefused as exc:
        place_errors(form, exc, rows)
        offer = exc.check is not None and exc.check.is_false_mahjong and exc.field == "hand"
        return render(refusal=exc.check if offer else None, status=422)
    except ConflictError as exc:
        return conflict(exc)
    except ServiceError as exc:
        place_errors(form, exc, rows)
        return render(status=422)
    return None
