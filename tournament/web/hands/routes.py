"""Score entry for referees and organisers: sessions in play, table pages, hands, totals, penalties.

    GET   /manage/tournaments/<id>/play                                      sessions to score
    GET   /manage/tournaments/<id>/play/<n>                                  a session: its tables, the check
    POST  /manage/tournaments/<id>/play/<n>/start                            publish if needed, start play
    POST  /manage/tournaments/<id>/play/<n>/finish                           close (after the check)
    POST  /manage/tournaments/<id>/play/<n>/reopen                           reopen a closed session
    GET   /manage/tournaments/<id>/play/<n>/history                          every change (organisers)
    GET   /manage/tournaments/<id>/play/<n>/tables/<t>                       the table page
    GET|POST .../tables/<t>/hands/new                                        enter a hand
    GET|POST .../tables/<t>/hands/<k>/edit                                   correct a hand
    POST  .../tables/<t>/hands/<k>/delete                                    delete a hand
    GET|POST .../tables/<t>/totals                                           totals-only table
    POST  .../tables/<t>/totals/clear                                        back to hand by hand
    GET|POST /manage/tournaments/<id>/play/penalties                         penalties: list, give
    POST  /manage/tournaments/<id>/play/penalties/<pid>/cancel               cancel one
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import NamedTuple

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.constants import MAX_ID
from tournament.i18n.labels import translated
from tournament.i18n.service_messages import translate
from tournament.messages import msg
from tournament.models import (
    HANDS_PER_SESSION,
    HandResult,
    PlayerStatus,
    SessionStatus,
    TableMode,
    Tournament,
)
from tournament.services import ConflictError, NotFound, ServiceError
from tournament.services.documents import ema
from tournament.services.play import confirmations, penalties, referee_calls, scoring, time_calls
from tournament.services.play import session as play
from tournament.services.play.scoring import HandRefused
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle, substitutions
from tournament.web.hands.forms import (
    FALSE_MAHJONG_FLAGS,
    SELF_DRAWN,
    CancelPenaltyForm,
    ConvertForm,
    DeleteHandForm,
    FinishForm,
    HandForm,
    PenaltyForm,
    RefereeCallForm,
    SubstitutionForm,
    TotalsForm,
)
from tournament.web.helpers import form_post, managed_tournament, refereed_tournament, show_service_error
from tournament.web.unit import refuse

bp = Blueprint("hands", __name__, url_prefix="/manage/tournaments/<int:tournament_id>/play")

def _labels(players: list[play.SeatedPlayer]) -> dict[int, str]:
    return {sp.player_id: sp.player.full_name for sp in players}


def _hand_players(s, table: int, hand_number: int | None) -> list[play.SeatedPlayer]:
    """The four players of that hand (substitutes in from their hand on); the drawn four without a number."""
    if not isinstance(hand_number, int) or not 1 <= hand_number <= HANDS_PER_SESSION:
        return play.table_players(s, table)
    return play.players_at_hand(s, table, hand_number)


def _substitution_form(t: Tournament, s, sheet) -> SubstitutionForm | None:
    """The table page's substitution form, while the session is in play and the table is entered hand by hand."""
    if s.status != SessionStatus.IN_PLAY or sheet.mode == TableMode.TOTALS:
        return None
    form = SubstitutionForm()
    next_hand = sheet.missing[0] if sheet.missing else HANDS_PER_SESSION
    now = sheet.rows[next_hand - 1].players or sheet.players
    form.out_player_id.choices = [(str(sp.player_id), sp.player.full_name) for sp in now]
    seated = {seat.player_id for seat in s.seats} | {sub.in_player_id for sub in substitutions.substitutions_of(t, s.number)}
    free = [p for p in draw_service.registration.players_of(t)
            if p.id not in seated and p.status in (PlayerStatus.REGISTERED, PlayerStatus.PRESENT)]
    free.sort(key=lambda p: (not p.is_substitute, p.last_name.casefold(), p.first_name.casefold()))
    form.in_player_id.choices = [(str(p.id), gettext("%(name)s (substitute)", name=p.full_name) if p.is_substitute
                                  else p.full_name) for p in free]
    if not form.from_hand.data:
        form.from_hand.data = next_hand
    return form


@bp.route("/<int:number>/tables/<int:table>/substitutions", methods=["POST"])
@login_required
def substitute(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    form = SubstitutionForm()

    def record():
        return substitutions.substitute(
            t, number, table, out_player_id=_version(form.out_player_id.data),
            in_player_id=_version(form.in_player_id.data), from_hand=form.from_hand.data,
            reason=form.reason.data, user=current_user, note=form.note.data or "", stays=bool(form.stays.data))

    return form_post(_table_url(t, number, table) + "#substitution", record,
                     lambda sub: gettext("From hand %(hand)d, %(incoming)s plays for %(outgoing)s.", hand=sub.from_hand,
                                         incoming=sub.in_player.full_name, outgoing=sub.out_player.full_name),
                     form=form, invalid=gettext("Choose who goes out, who comes in, from which hand (1-16) and why."))


def _call_form(t: Tournament, s, sheet) -> RefereeCallForm | None:
    """The table page's referee-call form, while the session is in play."""
    if s.status != SessionStatus.IN_PLAY:
        return None
    form = RefereeCallForm()
    people = [("", gettext("Nobody"))] + [(str(sp.player_id), sp.player.full_name) for sp in sheet.everyone]
    form.called_by.choices = form.dead_hand_player_id.choices = form.penalty_player_id.choices = people
    form.penalty_foul.choices = _foul_choices(t)
    return form


@bp.route("/<int:number>/tables/<int:table>/calls", methods=["POST"])
@login_required
def referee_call(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    form = RefereeCallForm()

    def record():
        penalty = None
        if form.penalty_player_id.data:
            penalty = referee_calls.PenaltyData(player_id=_version(form.penalty_player_id.data),
                                                amount=form.penalty_amount.data if form.penalty_amount.data
                                                is not None else 0, foul=form.penalty_foul.data or "")
        return referee_calls.record_call(t, number, table, referee_calls.CallData(
            situation=form.situation.data, hand=form.hand.data, called_by=_version(form.called_by.data),
            ruling=form.ruling.data or "", dead_hand_player_id=_version(form.dead_hand_player_id.data),
            penalty=penalty), current_user)

    return form_post(_table_url(t, number, table) + "#calls", record,
                     lambda call: gettext("Call logged with its penalty.") if call.penalty_id else gettext("Call logged."),
                     form=form, invalid=gettext("Say what happened (at most 500 characters); a hand is 1 to 16."))


def _table_url(t: Tournament, number: int, table: int) -> str:
    return url_for("hands.table", tournament_id=t.id, number=number, table=table)


# ----------------------------------------------------------------------------- sessions


@bp.route("")
@login_required
def index(tournament_id: int):
    t = refereed_tournament(tournament_id)
    sessions = draw_service.drawn_sessions(t)
    current = next((s for s in sessions if s.status == SessionStatus.IN_PLAY), None)
    if current is not None and request.args.get("all") is None:
        return redirect(url_for("hands.session", tournament_id=t.id, number=current.number))
    return render_template("hands/index.html", tournament=t, sessions=sessions, button=ConvertForm())


@bp.route("/<int:number>")
@login_required
def session(tournament_id: int, number: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    # Constant queries whatever the size: every table read at once, the check as the EMA check reads it.
    sheets = play.session_tables(s)
    problems = [scoring.TableProblem(table, message) for _, table, message in ema.table_problems({s.id: number})
                ] if s.status in (SessionStatus.IN_PLAY, SessionStatus.FINISHED) else []
    return render_template("hands/session.html", tournament=t, session=s, sheets=sheets, problems=problems,
                           finish_form=FinishForm(), button=ConvertForm(), hands_per_session=HANDS_PER_SESSION)


def _change_session(t: Tournament, number: int, form, change: Callable[[], object], done: str):
    """Start, finish or reopen a session: a refusal is a flash message on the session page, like success."""
    play.get_session(t, number)
    return form_post(url_for("hands.session", tournament_id=t.id, number=number), change, done, form=form)


@bp.route("/<int:number>/start", methods=["POST"])
@login_required
def start(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    return _change_session(t, number, ConvertForm(), lambda: lifecycle.start_session(t, number),
                           gettext("Session %(num)d is in play: its seating is fixed and hands can be entered.", num=number))


@bp.route("/<int:number>/finish", methods=["POST"])
@login_required
def finish(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    form = FinishForm()
    return _change_session(t, number, form, lambda: lifecycle.finish_session(t, number, force=bool(form.force.data)),
                           gettext("Session %(num)d is closed.", num=number))


@bp.route("/<int:number>/reopen", methods=["POST"])
@login_required
def reopen(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    return _change_session(t, number, ConvertForm(), lambda: lifecycle.reopen_session(t, number),
                           gettext("Session %(num)d is open again for corrections.", num=number))


@bp.route("/<int:number>/history")
@login_required
def history(tournament_id: int, number: int):
    t = managed_tournament(tournament_id)
    s = play.get_session(t, number)
    table = request.args.get("table", type=int)
    changes = scoring.history(t, number, table if table and 0 < table <= MAX_ID else None)
    names = {p.id: p.full_name for p in draw_service.registration.players_of(t)}
    return render_template("hands/history.html", tournament=t, session=s, changes=changes, names=names,
                           table=table)


# ----------------------------------------------------------------------------- a table


@bp.route("/<int:number>/tables/<int:table>")
@login_required
def table(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    play.table_players(s, table)
    sheet = scoring.table_sheet(t, number, table)
    table_penalties = [p for p in penalties.penalties_of(t, number)
                       if p.player_id in {sp.player_id for sp in sheet.everyone}]
    return render_template("hands/table.html", tournament=t, session=s, sheet=sheet, penalties=table_penalties,
                           labels=_labels(sheet.everyone), button=ConvertForm(),
                           tables=play.table_numbers(s), substitution_form=_substitution_form(t, s, sheet),
                           calls=referee_calls.calls_at(t, number, table), call_form=_call_form(t, s, sheet))


def _winds_map(players: list[play.SeatedPlayer]) -> str:
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


def _seats(players: list[play.SeatedPlayer], hand_number) -> list[Seat]:
    """The table's seats in drawn order with their seat winds in that hand (hand 1's before a number is known)."""
    number = hand_number if isinstance(hand_number, int) and 1 <= hand_number <= HANDS_PER_SESSION else 1
    winds = play.hand_winds(number).seat_winds
    return [Seat(sp.player_id, sp.player.full_name, winds[sp.start_wind]) for sp in players]


def _place_errors(form: HandForm, exc: ServiceError, rows: list[int]) -> None:
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


def _closed(s) -> str:
    """Why a session takes no hand now (finished: an organiser must reopen it); "" while in play."""
    try:
        play.require_in_play(s)
    except ConflictError as exc:
        return translate(exc.message)
    return ""


def _render_hand_form(t, s, table, players, form, *, editing=None, refusal=None, status=200, notice="",
                      notice_hand=None, open_hands=None):
    closed = _closed(s)
    return render_template(
        "hands/hand_form.html", tournament=t, session=s, table=table, players=players, form=form,
        labels=_labels(players), winds_map=_winds_map(players), seats=_seats(players, form.number.data),
        self_drawn_value=SELF_DRAWN, editing=editing, refusal=refusal,
        delete_form=DeleteHandForm(version=editing.version) if editing else None, closed=closed,
        notice=notice, notice_hand=notice_hand, open_hands=open_hands,
    ), 409 if closed and status < 400 else status


def _why_not(t: Tournament, s, table: int, number: int) -> tuple[str, int | None]:
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


def _offer_false_mahjong(form: HandForm, players: list[play.SeatedPlayer]) -> bool:
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


@bp.route("/<int:number>/tables/<int:table>/hands/new", methods=["GET", "POST"])
@login_required
def new_hand(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    form = HandForm()
    if request.method == "GET":
        sheet = scoring.table_sheet(t, number, table)
        wanted = request.args.get("hand", type=int)
        form.number.data = wanted if wanted in sheet.missing else (sheet.missing[0] if sheet.missing else None)
        players = _hand_players(s, table, form.number.data)
        form.set_players(players, _labels(players))
        # A hand asked for that cannot be entered (time called, already entered) says why, not "Which hand?".
        notice, notice_hand = _why_not(t, s, table, wanted) if wanted is not None and wanted not in sheet.missing \
            else ("", None)
        return _render_hand_form(t, s, table, players, form, notice=notice, notice_hand=notice_hand,
                                 open_hands=list(sheet.missing) if notice else None)
    players = _hand_players(s, table, request.form.get("number", type=int))  # who sits at that hand
    form.set_players(players, _labels(players))
    if request.form.get("convert") and form.validate_on_submit():
        if _offer_false_mahjong(form, players):
            flash(gettext("The claim is now a false mahjong below (the claimant's hand is dead). Enter how the "
                          "hand ended: another player's win, or a draw."), "info")
        return _render_hand_form(t, s, table, players, form)
    if form.validate_on_submit():
        rows = [index for index, _ in form.false_mahjong_rows()]
        data = form.to_data()
        try:
            scoring.enter_hand(t, number, table, data, current_user)
        except HandRefused as exc:
            _place_errors(form, exc, rows)
            offer = exc.check is not None and exc.check.is_false_mahjong and exc.field == "hand"
            return _render_hand_form(t, s, table, players, form, refusal=exc.check if offer else None, status=422)
        except ConflictError as exc:
            if scoring.already_stored(t, number, table, data):
                refuse()  # this second entry stored nothing
                flash(gettext("Hand %(num)d was already saved with this result: the second submit stored nothing.",
                              num=data.number), "info")  # a double submit: stored once
                return redirect(_table_url(t, number, table))
            # A different hand under a number already taken: keep what was typed and offer the stored hand.
            notice, notice_hand = _why_not(t, s, table, data.number)
            if notice_hand is not None:
                return _render_hand_form(t, s, table, players, form, status=409, notice_hand=notice_hand, notice=(
                    gettext("Nothing was saved: hand %(num)d is already entered at table %(table)d with another "
                            "result. What you typed is kept below: change the hand number, or correct the stored "
                            "hand.", num=data.number, table=table)))
            flash(translate(exc.message), "error")
            return _render_hand_form(t, s, table, players, form, status=409)
        except ServiceError as exc:
            _place_errors(form, exc, rows)
            return _render_hand_form(t, s, table, players, form, status=422)
        flash(gettext("Hand %(num)d saved.", num=data.number), "info")
        return redirect(_table_url(t, number, table) + f"#hand-{data.number}")
    return _render_hand_form(t, s, table, players, form, status=422 if request.method == "POST" else 200)


@bp.route("/<int:number>/tables/<int:table>/hands/<int:hand_number>/stands", methods=["POST"])
@login_required
def rule_stands(tournament_id: int, number: int, table: int, hand_number: int):
    """A referee settles a players' dispute (or confirms a players' entry for the table): the hand stands."""
    t = refereed_tournament(tournament_id)
    return form_post(_table_url(t, number, table) + f"#hand-{hand_number}",
                     lambda: confirmations.rule_stands(t, number, table, hand_number, current_user),
                     gettext("Hand %(num)d stands as entered: it counts, and its disputes are closed.",
                             num=hand_number),
                     form=ConvertForm(), invalid=gettext("The form expired: try again."))


@bp.route("/<int:number>/tables/<int:table>/hands/<int:hand_number>/edit", methods=["GET", "POST"])
@login_required
def edit_hand(tournament_id: int, number: int, table: int, hand_number: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    players = _hand_players(s, table, hand_number)
    try:
        hand = scoring.get_hand(t, number, table, hand_number)
    except NotFound as exc:
        abort(404, exc.message)
    form = HandForm()
    form.set_players(players, _labels(players))
    if hand.result == HandResult.NOT_SCORED:
        form.allow_not_scored()
    if request.method == "GET":
        form.fill(scoring.hand_summary(hand))
        return _render_hand_form(t, s, table, players, form, editing=hand)
    if request.form.get("convert") and form.validate_on_submit():
        _offer_false_mahjong(form, players)
        return _render_hand_form(t, s, table, players, form, editing=hand)
    if form.validate_on_submit():
        rows = [index for index, _ in form.false_mahjong_rows()]
        version = _version(form.version.data)
        if version is None:
            flash(gettext("This form has no record version: reload the hand and correct it again."), "error")
            return _render_hand_form(t, s, table, players, form, editing=hand, status=409)
        try:
            scoring.correct_hand(t, number, table, hand_number, form.to_data(), current_user,
                                 expected_version=version)
        except HandRefused as exc:
            _place_errors(form, exc, rows)
            offer = exc.check is not None and exc.check.is_false_mahjong and exc.field == "hand"
            return _render_hand_form(t, s, table, players, form, editing=hand, refusal=exc.check if offer else None,
                                     status=422)
        except ConflictError as exc:
            flash(translate(exc.message), "error")
            return _render_hand_form(t, s, table, players, form, editing=hand, status=409)
        except ServiceError as exc:
            _place_errors(form, exc, rows)
            return _render_hand_form(t, s, table, players, form, editing=hand, status=422)
        flash(gettext("Hand %(num)d corrected; the history keeps what it was.", num=hand_number), "info")
        return redirect(_table_url(t, number, table) + f"#hand-{hand_number}")
    return _render_hand_form(t, s, table, players, form, editing=hand, status=422)


def _version(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


@bp.route("/<int:number>/tables/<int:table>/hands/<int:hand_number>/delete", methods=["POST"])
@login_required
def delete_hand(tournament_id: int, number: int, table: int, hand_number: int):
    t = refereed_tournament(tournament_id)
    play.table_players(play.get_session(t, number), table)
    form = DeleteHandForm()
    if not form.validate_on_submit():
        abort(400, msg("The form expired: reload the page and try again."))
    version = _version(form.version.data)
    if version is None:
        abort(409, msg("This form has no record version: reload the hand and try again."))

    def delete() -> None:
        try:
            scoring.delete_hand(t, number, table, hand_number, current_user, expected_version=version)
        except NotFound as exc:
            abort(404, exc.message)

    return form_post(_table_url(t, number, table), delete,
                     gettext("Hand %(num)d deleted; the history keeps it.", num=hand_number))


# ----------------------------------------------------------------------------- totals-only tables


@bp.route("/<int:number>/tables/<int:table>/totals", methods=["GET", "POST"])
@login_required
def totals(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    players = play.table_players(s, table)
    sheet = scoring.table_sheet(t, number, table)
    form = TotalsForm()
    for entry, sp in zip(form.scores, players, strict=False):
        entry.label.text = sp.player.full_name
    status = 200
    if request.method == "GET":
        if sheet.mode == TableMode.TOTALS:
            for entry, sp in zip(form.scores, players, strict=False):
                entry.data = sheet.totals.get(sp.player_id)
        # A table row is created on first use at version 1: a form read before it exists expects that.
        form.version.data = str(sheet.table.version if sheet.table else 1)
    elif not form.validate_on_submit():
        status = 422
    elif _version(form.version.data) is None:
        # Without its version the save could not tell a stale form from a fresh one and would overwrite.
        flash(gettext("This form has no record version: reload the table's totals and enter them again."), "error")
        status = 409
    else:
        scores = {sp.player_id: entry.data for entry, sp in zip(form.scores, players, strict=True)}
        try:
            scoring.enter_totals(t, number, table, scores, current_user,
                                 expected_version=_version(form.version.data))
        except ServiceError as exc:
            for entry, sp in zip(form.scores, players, strict=False):
                if f"score_{sp.player_id}" in exc.errors:
                    entry.errors = [exc.errors.pop(f"score_{sp.player_id}")]
            exc.errors.pop("scores", None)  # a problem of the four together: shown above the form
            flash(translate(exc.message), "error")
            status = exc.status_code if exc.status_code != 400 else 422
        else:
            flash(gettext("Table %(num)d's totals saved.", num=table), "info")
            return redirect(_table_url(t, number, table))
    return render_template("hands/totals.html", tournament=t, session=s, table=table, players=players, form=form,
                           sheet=sheet, button=ConvertForm()), status


@bp.route("/<int:number>/tables/<int:table>/totals/clear", methods=["POST"])
@login_required
def clear_totals(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    play.table_players(play.get_session(t, number), table)
    return form_post(_table_url(t, number, table), lambda: scoring.clear_totals(t, number, table, current_user),
                     gettext("Table %(num)d is entered hand by hand again.", num=table), form=ConvertForm())


# ----------------------------------------------------------------------------- penalties


def _foul_choices(t: Tournament) -> list[tuple[str, str]]:
    """The tournament's foul types to choose from: the default ones shown in the reader's language (tr)."""
    return [("", gettext("Choose the foul")), *[(foul, translated(foul)) for foul in t.foul_type_list]]


def _penalty_form(t: Tournament, form: PenaltyForm | None = None) -> PenaltyForm:
    form = form or PenaltyForm()
    players = sorted(draw_service.registration.players_of(t), key=lambda p: (p.last_name.casefold(),
                                                                             p.first_name.casefold()))
    form.player_id.choices = [("", gettext("Choose the player")), *[(str(p.id), p.sort_name) for p in players]]
    form.foul.choices = _foul_choices(t)
    sessions = [s for s in draw_service.drawn_sessions(t) if s.is_locked]
    form.session.choices = [(str(s.number), gettext("Session %(num)d", num=s.number)) for s in sessions]
    if not form.session.data and sessions:
        current = next((s for s in sessions if s.status == SessionStatus.IN_PLAY), sessions[-1])
        form.session.data = str(current.number)
    return form


@bp.route("/penalties", methods=["GET", "POST"])
@login_required
def penalty_list(tournament_id: int):
    t = refereed_tournament(tournament_id)
    form = _penalty_form(t)
    status = 200
    if request.method == "GET":
        wanted = request.args.get("player", type=int)
        if wanted:
            form.player_id.data = str(wanted)
        if request.args.get("session", type=int):
            form.session.data = str(request.args.get("session", type=int))
    elif form.validate_on_submit():
        try:
            penalties.give_penalty(t, player_id=_version(form.player_id.data), session_number=_version(form.session.data),
                                   amount=form.amount.data, reason=form.reason.data, user=current_user,
                                   hand_number=form.hand.data, foul=form.foul.data or "")
        except NotFound as exc:
            show_service_error(form, ServiceError(exc.message, field="session"))
            status = 422
        except ServiceError as exc:
            show_service_error(form, exc)
            status = 422
        else:
            flash(gettext("Penalty recorded: it is deducted from the player's session score."), "info")
            return redirect(url_for("hands.penalty_list", tournament_id=t.id))
    else:
        status = 422
    names = {p.id: p.full_name for p in draw_service.registration.players_of(t)}
    in_play = next((s for s in draw_service.drawn_sessions(t) if s.status == SessionStatus.IN_PLAY), None)
    ladder = penalties.ladder_suggestions(t, in_play.id) if in_play else {}
    return render_template("hands/penalties.html", tournament=t, form=form, penalties=penalties.penalties_of(t),
                           names=names, cancel_form=CancelPenaltyForm(), ladder=ladder,
                           ladder_session=in_play.number if in_play else None,
                           history=penalties.foul_history(t)), status


@bp.route("/penalties/<int:penalty_id>/cancel", methods=["POST"])
@login_required
def cancel_penalty(tournament_id: int, penalty_id: int):
    t = refereed_tournament(tournament_id)
    form = CancelPenaltyForm()

    def cancel() -> None:
        try:
            penalties.cancel_penalty(t, penalty_id, form.reason.data, current_user)
        except NotFound as exc:
            abort(404, exc.message)

    return form_post(url_for("hands.penalty_list", tournament_id=t.id), cancel,
                     gettext("Penalty cancelled; it stays on the list, struck through."), form=form,
                     invalid=gettext("Say why the penalty is cancelled."))
