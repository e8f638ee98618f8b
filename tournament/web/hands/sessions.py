"""The sessions to score and one session's page (its tables, the check before closing), its start, close and
reopening, and the history of its changes."""

from __future__ import annotations

from collections.abc import Callable

from flask import redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import login_required

from tournament.constants import MAX_ID
from tournament.models import HANDS_PER_SESSION, SessionStatus, Tournament
from tournament.services.documents import ema
from tournament.services.play import scoring
from tournament.services.play import session as play
from tournament.services.seating import draws as draw_service
from tournament.services.seating import lifecycle
from tournament.web.hands.common import bp
from tournament.web.hands.forms import ConvertForm, FinishForm
from tournament.web.helpers import form_post, managed_tournament, refereed_tournament


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
