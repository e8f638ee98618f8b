"""A late arrival (MERS 2.2, 4.1.1) as one action for the staff: the penalty (10 points up to 10 minutes late,
else 20) and, when a substitute is chosen (needed after 15 minutes), that substitute in the late player's seat
for the whole session, from hand 1.

    GET  /manage/tournaments/<id>/late-arrivals     the form, for the session in play
    POST /manage/tournaments/<id>/late-arrivals     record it (services.seating.substitutions.late_arrival)
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from flask_login import current_user, login_required
from wtforms import IntegerField, SelectField, StringField, SubmitField
from wtforms.validators import InputRequired, Length, NumberRange, Optional

from tournament.models import PlayerStatus, SessionStatus, Tournament, TournamentSession
from tournament.services.core.errors import ServiceError
from tournament.services.seating import draws as draw_service
from tournament.services.seating import substitutions
from tournament.services.seating.substitutions import MAX_LATE_MINUTES
from tournament.web.helpers import refereed_tournament, show_service_error
from tournament.web.idempotency import IdempotentForm

bp = Blueprint("late_arrivals", __name__, url_prefix="/manage/tournaments/<int:tournament_id>/late-arrivals")


class LateArrivalForm(IdempotentForm):
    player_id = SelectField(_l("Late player"), choices=[], validate_choice=False,
                            validators=[InputRequired(_l("Choose the late player."))])
    minutes = IntegerField(_l("Minutes late"), validators=[
        InputRequired(_l("How many minutes late?")),
        NumberRange(1, MAX_LATE_MINUTES, _l("From 1 to %(max)d minutes.", max=MAX_LATE_MINUTES))],
        render_kw={"min": 1, "max": MAX_LATE_MINUTES, "inputmode": "numeric"},
        description=_l("Up to 10 minutes: 10 points; up to 15: 20 points (MERS 2.2)."))
    in_player_id = SelectField(_l("Substitute (for the whole session)"), choices=[], validate_choice=False,
                               validators=[Optional()],
                               description=_l("Needed after 15 minutes: the substitute plays the session from "
                                              "hand 1 and can win the table (MERS 4.1.1); the late player then "
                                              "plays no hand of it. Players seated nowhere in this session; "
                                              "substitutes first."))
    note = StringField(_l("Note (optional)"), validators=[Optional(), Length(max=500)])
    submit = SubmitField(_l("Record the late arrival"))


def _session_in_play(t: Tournament) -> TournamentSession | None:
    return next((s for s in draw_service.drawn_sessions(t) if s.status == SessionStatus.IN_PLAY), None)


def _form(t: Tournament, session: TournamentSession) -> LateArrivalForm:
    form = LateArrivalForm()
    players = draw_service.registration.players_of(t)
    by_id = {p.id: p for p in players}
    drawn = sorted((by_id[seat.player_id] for seat in session.seats if seat.player_id in by_id),
                   key=lambda p: (p.last_name.casefold(), p.first_name.casefold()))
    form.player_id.choices = [("", gettext("Choose the player")),
                              *[(str(p.id), gettext("%(name)s, table %(table)d", name=p.sort_name, table=seat))
                                for p in drawn
                                for seat in [next(s.table_number for s in session.seats if s.player_id == p.id)]]]
    seated = {seat.player_id for seat in session.seats} | {
        sub.in_player_id for sub in substitutions.substitutions_of(t, session.number)}
    free = sorted((p for p in players if p.id not in seated and p.status in (PlayerStatus.REGISTERED,
                                                                            PlayerStatus.PRESENT)),
                  key=lambda p: (not p.is_substitute, p.last_name.casefold(), p.first_name.casefold()))
    form.in_player_id.choices = [("", gettext("None: the player is here now")),
                                 *[(str(p.id), gettext("%(name)s (substitute)", name=p.sort_name)
                                    if p.is_substitute else p.sort_name) for p in free]]
    return form


def _id(value: str | None) -> int | None:
    return int(value) if value and value.isdigit() and len(value) < 10 else None


@bp.route("", methods=["GET", "POST"])
@login_required
def index(tournament_id: int):
    t = refereed_tournament(tournament_id)
    session = _session_in_play(t)
    form = _form(t, session) if session is not None else None
    status = 200
    if form is not None and form.is_submitted():
        if form.validate_on_submit():
            try:
                done = substitutions.late_arrival(
                    t, session.number, player_id=_id(form.player_id.data), minutes=form.minutes.data,
                    in_player_id=_id(form.in_player_id.data), user=current_user, note=form.note.data or "")
            except ServiceError as exc:
                show_service_error(form, exc)
                status = 422
            else:
                name = done.penalty.player.full_name
                if done.substitution is not None:
                    flash(gettext("%(name)s: %(points)d points for arriving late; %(substitute)s plays the "
                                  "session in their seat from hand 1.", name=name, points=done.penalty.amount,
                                  substitute=done.substitution.in_player.full_name), "info")
                else:
                    flash(gettext("%(name)s: %(points)d points for arriving late.", name=name,
                                  points=done.penalty.amount), "info")
                return redirect(url_for("hands.penalty_list", tournament_id=t.id))
        else:
            status = 422
    return render_template("late_arrivals/index.html", tournament=t, session=session, form=form), status
