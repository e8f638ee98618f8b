"""The timetable: when each session is planned to start, in the tournament's zone, and calendar files of it.

    GET/POST  /manage/tournaments/<id>/schedule   the organisers' timetable form
    GET       /t/<id>/schedule                    the public timetable
    GET       /t/<id>/schedule.ics                every planned session as an iCalendar file
(a player's own calendar is on their private page: /p/<token>/schedule.ics)
"""

from __future__ import annotations

from flask import Blueprint, current_app, render_template, url_for
from flask_babel import gettext

from tournament import timezones
from tournament.services.documents import ics
from tournament.services.seating import schedule as schedule_service
from tournament.web.helpers import managed_tournament, organiser_required, submit_form, tournament_or_404
from tournament.web.public_url import configured_public_url
from tournament.web.schedule.forms import timetable_form

bp = Blueprint("schedule", __name__)


def calendar_response(data: bytes, filename: str, private: bool = False):
    """An .ics file a calendar client subscribes to or a browser opens; a player's own is never cached by others."""
    response = current_app.response_class(data, mimetype=ics.MIMETYPE, headers={
        "Content-Disposition": f'inline; filename="{filename}"'})
    response.mimetype_params["charset"] = "utf-8"
    if private:
        response.headers["Cache-Control"] = "private, no-store"
        response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.route("/manage/tournaments/<int:tournament_id>/schedule", methods=["GET", "POST"])
@organiser_required
def edit(tournament_id: int):
    t = managed_tournament(tournament_id)
    numbers = schedule_service.session_numbers(t)
    form = timetable_form(numbers, t.time_zone)
    done = submit_form(form, lambda: schedule_service.set_planned_starts(t, form.starts()),
                       lambda _: (gettext("Timetable saved."), url_for("schedule.edit", tournament_id=t.id)))
    if done:
        return done
    if not form.is_submitted():
        for planned in schedule_service.timetable(t):
            local = timezones.to_local(planned.start, t.time_zone)
            form[f"session_{planned.number}"].data = local.replace(tzinfo=None) if local else None
    status = 400 if form.is_submitted() else 200
    return render_template("schedule/edit.html", tournament=t, form=form, numbers=numbers,
                           offset=timezones.offset_label(t.time_zone)), status


@bp.route("/t/<int:tournament_id>/schedule")
def public(tournament_id: int):
    t = tournament_or_404(tournament_id)
    return render_template("schedule/public.html", tournament=t, timetable=schedule_service.timetable(t))


@bp.route("/t/<int:tournament_id>/schedule.ics")
def calendar(tournament_id: int):
    t = tournament_or_404(tournament_id)
    url = url_for("schedule.public", tournament_id=t.id, _external=True)
    return calendar_response(ics.tournament_calendar(t, url, configured_public_url()), ics.filename(t))
