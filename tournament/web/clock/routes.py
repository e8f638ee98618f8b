"""The session clock on the web: a projector page for the hall, the staff's clock page, the referee board.

    GET   /t/<id>/clock                                             the hall's one projector address for the weekend:
                                                                    the session in play, else when the next starts
    GET   /t/<id>/clock.json                                        its data: the session, its clock, the next start
    GET   /t/<id>/sessions/<n>/clock                                one session's projector (public once published)
    GET   /t/<id>/sessions/<n>/clock.json                           its data (the API's clock shape)
    GET   /manage/tournaments/<id>/play/<n>/start-play              start play: what it locks, and the clock with it
    POST  /manage/tournaments/<id>/play/<n>/start-play              start play (clock=1: and the clock, one tap)
    GET   /manage/tournaments/<id>/play/<n>/clock                   buttons, extra time, time calls, history
    POST  /manage/tournaments/<id>/play/<n>/clock/<action>          start | pause | resume | end
    POST  /manage/tournaments/<id>/play/<n>/clock/end/undo        End taken back (a press by mistake)
    POST  /manage/tournaments/<id>/play/<n>/clock/extend            extra time (one table or all)
    POST  /manage/tournaments/<id>/play/<n>/tables/<t>/time         time called, with the hand in progress
    POST  /manage/tournaments/<id>/play/<n>/tables/<t>/time/undo    organisers
    GET   /manage/tournaments/<id>/play/<n>/board                   the referee board
    GET   /manage/tournaments/<id>/play/<n>/board.json              its data
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from flask import Blueprint, abort, flash, jsonify, render_template, request, url_for
from flask_babel import gettext, ngettext
from flask_login import current_user, login_required

from tournament.i18n import N_
from tournament.messages import msg
from tournament.models import EndRule, SessionStatus
from tournament.services.people import tournaments as tournament_service
from tournament.services.play import clock
from tournament.services.play import session as play
from tournament.services.seating import lifecycle, schedule
from tournament.web.clock.forms import ButtonForm, ExtendForm, StartPlayForm, TimeCallForm
from tournament.web.clock.payload import board_json, board_key, clock_json, iso_utc
from tournament.web.helpers import (
    form_post,
    managed_tournament,
    refereed_tournament,
    safe_next,
    tournament_or_404,
)

bp = Blueprint("clock", __name__)

STAFF = "/manage/tournaments/<int:tournament_id>/play/<int:number>"
PUBLIC = "/t/<int:tournament_id>/sessions/<int:number>"
ACTIONS = {"start": clock.start, "pause": clock.pause, "resume": clock.resume, "end": clock.end}
DONE = {"start": N_("The clock is running."), "pause": N_("The clock is paused."),
        "resume": N_("The clock is running again."), "end": N_("Time was called for everyone.")}


def _public_session(tournament_id: int, number: int):
    """The tournament and session for the hall: a draft's clock is only for its staff."""
    t = tournament_or_404(tournament_id)
    session = play.get_session(t, number)  # not drawn: NotFound, the 404 page
    if not session.is_published and not tournament_service.can_referee(current_user, t):
        abort(404, msg("Session %(number)s is not published.", number=number))
    return t, session


def _poll_seconds() -> int:
    value = request.args.get("poll", type=int)
    return min(60, max(1, value)) if value else 5


def _back(t, number: int) -> str:
    return url_for("clock.staff", tournament_id=t.id, number=number)


# ----------------------------------------------------------------------------- public


@dataclass(frozen=True)
class HallClock:
    """What the hall sees: the time every table has (extra time given to all included), and the tables
    with more extra time than that, each with its own end. clock.js computes the same from the JSON."""

    seconds: int
    warning: bool
    time_up: bool
    paused: bool
    common_extra: int
    listed: list[clock.TableClock]
    ends_at: datetime | None = None  # naive UTC: when every table's time is up, while the clock runs


def hall_ends_at(state: clock.ClockState) -> datetime | None:
    """When the hall's time runs out (the extra time given to every table included), while the clock runs."""
    if state.state != clock.ClockPhase.RUNNING or state.ends_at is None:
        return None
    return state.ends_at + timedelta(seconds=min((row.extra_seconds for row in state.tables), default=0))


def hall_clock(state: clock.ClockState) -> HallClock:
    common = min((row.extra_seconds for row in state.tables), default=0)
    seconds = 0 if state.state == clock.ClockPhase.ENDED else max(0, state.remaining_seconds + common)
    if state.state == clock.ClockPhase.RUNNING and state.tables:
        seconds = min(row.remaining_seconds for row in state.tables)
    started = state.state != clock.ClockPhase.NOT_STARTED
    return HallClock(seconds=seconds, warning=started and state.state != clock.ClockPhase.ENDED and 0 < seconds
                     <= state.warning_seconds, time_up=started and seconds == 0,
                     paused=state.state == clock.ClockPhase.PAUSED, common_extra=common,
                     listed=[row for row in state.tables if row.extra_seconds > common],
                     ends_at=hall_ends_at(state))


@bp.route(f"{PUBLIC}/clock")
def projector(tournament_id: int, number: int):
    t, session = _public_session(tournament_id, number)
    state = clock.state_of(t, session)
    return render_template("clock/projector.html", tournament=t, session=session, clock=state,
                           hall=hall_clock(state), poll=_poll_seconds())


@bp.route(f"{PUBLIC}/clock.json")
def clock_data(tournament_id: int, number: int):
    t, session = _public_session(tournament_id, number)
    response = jsonify(clock_json(clock.state_of(t, session)))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/t/<int:tournament_id>/clock")
def hall(tournament_id: int):
    """The hall's projector for the whole weekend: the clock of the session in play; between sessions, the next
    session and when it starts. The page reloads itself when that changes (clock.js, the hall's key)."""
    t = tournament_or_404(tournament_id)
    now = schedule.hall_session(t)
    data_url = url_for("clock.hall_data", tournament_id=t.id)
    if now.in_play is None:
        return render_template("clock/between.html", tournament=t, hall_session=now, data_url=data_url,
                               poll=_poll_seconds())
    session = play.get_session(t, now.in_play)  # in play: published
    state = clock.state_of(t, session)
    return render_template("clock/projector.html", tournament=t, session=session, clock=state,
                           hall=hall_clock(state), poll=_poll_seconds(), data_url=data_url, hall_key=now.key)


@bp.route("/t/<int:tournament_id>/clock.json")
def hall_data(tournament_id: int):
    t = tournament_or_404(tournament_id)
    now = schedule.hall_session(t)
    state = clock.state_of(t, play.get_session(t, now.in_play)) if now.in_play is not None else None
    response = jsonify({
        "key": now.key, "session": now.in_play, "next_session": now.next_number,
        "next_start": iso_utc(now.next_start),
        "clock": clock_json(state) if state is not None else None,
    })
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.app_template_global()
def clock_never_ran(session) -> bool:
    """Whether a session in play or finished never had its clock started: the session check says so."""
    return session.status in (SessionStatus.IN_PLAY, SessionStatus.FINISHED) and not clock.ever_started(session)


# ----------------------------------------------------------------------------- staff


@bp.route(f"{STAFF}/clock")
@login_required
def staff(tournament_id: int, number: int):
    t = refereed_tournament(tournament_id)
    session = play.get_session(t, number)
    state, rows = clock.board(t, number)
    events, names = clock.event_log(session)
    extend_form = ExtendForm()
    extend_form.set_tables(play.table_numbers(session))
    call_forms = {}
    for row in rows:
        form = TimeCallForm(prefix=f"t{row.table}")
        if row.current_hand:
            form.hand_in_progress.data = str(row.current_hand)
        call_forms[row.table] = form
    by_table = sorted(rows, key=lambda r: r.table)
    return render_template("clock/staff.html", tournament=t, session=session, clock=state, rows=by_table,
                           events=events, names=names, button=ButtonForm(), extend_form=extend_form,
                           call_forms=call_forms, poll=_poll_seconds(), hall=hall_clock(state))


@bp.route(f"{STAFF}/clock/<any(start, pause, resume, end):action>", methods=["POST"])
@login_required
def press(tournament_id: int, number: int, action: str):
    t = refereed_tournament(tournament_id)
    play.get_session(t, number)
    # A button on another page (the session's score entry: "Start the clock") comes back to it.
    back = safe_next(request.form.get("next"), _back(t, number))
    return form_post(back, lambda: ACTIONS[action](t, number, current_user), gettext(DONE[action]),
                     form=ButtonForm())


@bp.route(f"{STAFF}/start-play", methods=["GET", "POST"])
@login_required
def start_play(tournament_id: int, number: int):
    """Starting play locks the seating: a step of its own says so first (it works without JavaScript), and
    offers to start the clock in the same tap."""
    t = managed_tournament(tournament_id)
    session = play.get_session(t, number)
    form = StartPlayForm()
    if request.method == "POST":
        with_clock = bool(form.with_clock.data)

        def start() -> None:
            lifecycle.start_session(t, number)
            if with_clock:
                clock.start(t, number, current_user)

        said = gettext("Session %(num)d is in play: its seating is fixed and hands can be entered.", num=number)
        done = f"{said} {gettext(DONE['start'])}" if with_clock else said
        return form_post(url_for("hands.session", tournament_id=t.id, number=number), start, done, form=form,
                         category="success")
    return render_template("clock/start_play.html", tournament=t, session=session, form=form)


@bp.route(f"{STAFF}/clock/end/undo", methods=["POST"])
@login_required
def undo_end(tournament_id: int, number: int):
    t = refereed_tournament(tournament_id)
    play.get_session(t, number)
    return form_post(_back(t, number), lambda: clock.undo_end(t, number, current_user),
                     gettext("End was undone: the clock is back as it was and the hands limits End set are lifted."),
                     form=ButtonForm())


@bp.route(f"{STAFF}/clock/extend", methods=["POST"])
@login_required
def extend(tournament_id: int, number: int):
    t = refereed_tournament(tournament_id)
    session = play.get_session(t, number)
    form = ExtendForm()
    form.set_tables(play.table_numbers(session))
    minutes, table = form.minutes.data, form.table_number()
    count = minutes if isinstance(minutes, int) else 0  # the message of a valid form only
    done = (ngettext("%(num)d extra minute for table %(table)d.", "%(num)d extra minutes for table %(table)d.",
                     count, table=table) if table else
            ngettext("%(num)d extra minute for every table.", "%(num)d extra minutes for every table.", count))
    return form_post(_back(t, number), lambda: clock.extend(t, number, minutes * 60, current_user, table=table),
                     done, form=form, invalid=_flash_form_errors)


def _flash_form_errors(form) -> None:
    for errors in form.errors.values():
        flash(errors[0], "error")


@bp.route(f"{STAFF}/tables/<int:table>/time", methods=["POST"])
@login_required
def call_time(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    play.get_session(t, number)
    form = TimeCallForm(prefix=f"t{table}")

    def done(hand: int | None) -> str:
        if not hand:
            return gettext("Time called at table %(table)d between hands.", table=table)
        said = gettext("Time called at table %(table)d during hand %(num)d.", table=table, num=hand)
        rule = (gettext("It is recorded as not scored.") if t.end_rule == EndRule.STOP_IMMEDIATELY
                else gettext("It is finished and entered."))
        return f"{said} {rule}"

    def call() -> int | None:
        hand = form.hand()
        clock.call_time(t, number, table, hand, current_user, last_hand_played=form.last_hand())
        return hand

    return form_post(_back(t, number), call, done, form=form,
                     invalid=gettext("Choose the hand in progress (or none)."))


@bp.route(f"{STAFF}/tables/<int:table>/time/undo", methods=["POST"])
@login_required
def undo_time_call(tournament_id: int, number: int, table: int):
    t = managed_tournament(tournament_id)
    play.get_session(t, number)
    return form_post(_back(t, number), lambda: clock.undo_time_call(t, number, table, current_user),
                     gettext("The time call at table %(num)d was undone; the history keeps it.", num=table),
                     form=ButtonForm())


@bp.route(f"{STAFF}/board")
@login_required
def board(tournament_id: int, number: int):
    t = refereed_tournament(tournament_id)
    session = play.get_session(t, number)
    state, rows = clock.board(t, number)
    return render_template("clock/board.html", tournament=t, session=session, clock=state, rows=rows,
                           poll=_poll_seconds(), hall=hall_clock(state), board_key=board_key(rows))


@bp.route(f"{STAFF}/board.json")
@login_required
def board_data(tournament_id: int, number: int):
    """The board's data, as the API's, and its key: the page redraws itself when the key changes (clock.js)."""
    t = refereed_tournament(tournament_id)
    play.get_session(t, number)
    state, rows = clock.board(t, number)
    response = jsonify({**board_json(state, rows), "key": board_key(rows)})
    response.headers["Cache-Control"] = "no-store"
    return response
