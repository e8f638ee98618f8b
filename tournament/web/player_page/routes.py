"""A player's own page, opened by their private link (no account): their table now, their seat wind, the table's
hands to confirm or dispute, the entry form when the players enter the hands, their schedule and standing.

Routes (the token is the credential; an unknown or renewed one is a 404 counted like a failed login):
    GET       /p/<token>                                      the page
    GET POST  /p/<token>/hands/new                            enter a hand (the `players` entry mode)
    POST      /p/<token>/tables/<t>/hands/<n>/confirm         confirm a hand of the player's table
    POST      /p/<token>/tables/<t>/hands/<n>/dispute         dispute it, with a reason
    GET       /p/<token>/schedule.ics                         their sessions as an iCalendar file
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext

from tournament.i18n import offered, use_player_language, use_tournament_language
from tournament.i18n.service_messages import translate
from tournament.models import EntryMode, HandStatus, Player
from tournament.rotation import HANDS_PER_SESSION
from tournament.services.core.errors import ConflictError, ServiceError
from tournament.services.documents import ics
from tournament.services.people import player_links
from tournament.services.play import confirmations
from tournament.services.play.scoring import HandRefused
from tournament.services.results import standings as standings_service
from tournament.services.results.visibility import standings_visible_to
from tournament.services.seating import schedule as schedule_service
from tournament.services.seating import substitutions
from tournament.web.hands.forms import SELF_DRAWN, HandForm
from tournament.web.hands.hand_form import labels, offer_false_mahjong, place_errors, seats, winds_map
from tournament.web.helpers import form_post, linked_player
from tournament.web.player_page.forms import ConfirmForm, DisputeForm
from tournament.web.public_url import configured_public_url
from tournament.web.schedule.routes import calendar_response

bp = Blueprint("player_page", __name__, url_prefix="/p/<link_token>")


def by_link(view: Callable) -> Callable:
    """The view of the player whose link is in the path (`helpers.linked_player`, the API's check too), in their
    tournament's language or the one they chose."""

    @wraps(view)
    def wrapped(*args: Any, link_token: str, **kwargs: Any) -> Any:
        # The site's own 404 page; a LinkThrottled goes on to the site's error handler: its 429 page says how
        # long, Retry-After too.
        player = linked_player(link_token, say_why=False)
        use_tournament_language(player.tournament)  # the tournament's default: no tournament_id to find it by
        # The footer's switcher on the player's own page: their choice is kept with the link too.
        if chosen := offered(request.args.get("lang")):
            player_links.choose_language(player.id, chosen)
        use_player_language(lambda: player_links.chosen_language(player.id))
        return view(*args, player=player, token=link_token, **kwargs)

    return wrapped


def _private(response):
    # The page is the player's alone: never kept by a shared cache, never named in another site's Referer.
    response = make_response(response)
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _standing(player: Player):
    t = player.tournament
    if not standings_visible_to(None, t):
        return None
    return next((row for row in standings_service.standings(t).rows if row.player_id == player.id), None)


@bp.route("", methods=["GET"])
@by_link
def page(player: Player, token: str):
    t = player.tournament
    view = confirmations.player_view(t, player)
    in_play = view.where.in_play and view.where.table_number is not None
    return _private(render_template(
        "player_page/page.html", tournament=t, player=player, view=view, token=token, labels=view.names,
        in_play=in_play, can_enter=in_play and t.entry_mode == EntryMode.PLAYERS and view.next_hand is not None,
        seats=seats(view.seats, view.next_hand or HANDS_PER_SESSION) if view.seats else [],
        schedule=substitutions.schedule_lines(t, player.id), standing=_standing(player),
        starts=schedule_service.planned_starts(t), confirm_form=ConfirmForm()))


@bp.route("/schedule.ics", methods=["GET"])
@by_link
def calendar(player: Player, token: str):
    """The player's sessions with their table and seat, for their phone's calendar (private, like the page)."""
    t = player.tournament
    url = url_for("player_page.page", link_token=token, _external=True)
    return calendar_response(ics.player_calendar(t, player, url, configured_public_url()), ics.filename(t, player), private=True)


def _page_url(token: str, anchor: str = "") -> str:
    return url_for("player_page.page", link_token=token) + (f"#{anchor}" if anchor else "")


@bp.route("/tables/<int:table>/hands/<int:hand_number>/confirm", methods=["POST"])
@by_link
def confirm(player: Player, token: str, table: int, hand_number: int):
    return form_post(_page_url(token, f"hand-{hand_number}"),
                     lambda: confirmations.confirm(player.tournament, player, table, hand_number),
                     lambda hand: (gettext("You confirmed hand %(num)d. All four have: it counts.", num=hand.number)
                                   if hand.status == HandStatus.CONFIRMED else gettext("You confirmed hand %(num)d.", num=hand.number)),
                     form=ConfirmForm(), invalid=gettext("The form expired: confirm again."))


@bp.route("/tables/<int:table>/hands/<int:hand_number>/dispute", methods=["POST"])
@by_link
def dispute(player: Player, token: str, table: int, hand_number: int):
    form = DisputeForm()
    return form_post(_page_url(token, f"hand-{hand_number}"),
                     lambda: confirmations.dispute(player.tournament, player, table, hand_number, form.reason.data),
                     gettext("Hand %(num)d is disputed: a referee will come to your table.", num=hand_number),
                     form=form, invalid=gettext("Say what is wrong with the hand (at most 500 characters)."))


def _render_form(player: Player, token: str, view: confirmations.PlayerView, form: HandForm, *, refusal=None,
                 status: int = 200):
    players = view.seats
    return _private((render_template(
        "player_page/hand_form.html", tournament=player.tournament, player=player, token=token, view=view,
        form=form, labels=labels(players), winds_map=winds_map(players), seats=seats(players, form.number.data),
        self_drawn_value=SELF_DRAWN, refusal=refusal), status))


@bp.route("/hands/new", methods=["GET", "POST"])
@by_link
def new_hand(player: Player, token: str):
    t = player.tournament
    view = confirmations.player_view(t, player)
    if t.entry_mode != EntryMode.PLAYERS:
        flash(gettext("In this tournament the referees enter the hands: confirm them or dispute them here."), "info")
        return redirect(_page_url(token))
    if not view.where.in_play or view.where.table_number is None or view.next_hand is None:
        flash(gettext("There is no hand to enter at your table now."), "info")
        return redirect(_page_url(token))
    form = HandForm()
    form.set_players(view.seats, labels(view.seats))
    if request.method == "GET":
        form.number.data = view.next_hand
        return _render_form(player, token, view, form)
    if request.form.get("convert") and form.validate_on_submit():  # the verdict's "record as a false mahjong"
        offer_false_mahjong(form, view.seats)
        return _render_form(player, token, view, form)
    if form.validate_on_submit():
        rows = [index for index, _ in form.false_mahjong_rows()]
        data = form.to_data()
        try:
            hand = confirmations.enter_hand(t, player, data)
        except HandRefused as exc:
            place_errors(form, exc, rows)
            return _render_form(player, token, view, form, refusal=exc.check, status=422)
        except ConflictError as exc:
            flash(translate(exc.message), "error")
            return _render_form(player, token, view, form, status=409)
        except ServiceError as exc:
            place_errors(form, exc, rows)
            return _render_form(player, token, view, form, status=exc.status_code if exc.status_code != 400 else 422)
        flash(gettext("Hand %(num)d saved: the other three players confirm it on their phones.", num=hand.number),
              "success")
        return redirect(_page_url(token, f"hand-{hand.number}"))
    return _render_form(player, token, view, form, status=422)

