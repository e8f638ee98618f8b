"""Players of a tournament (organisers) and the check-in desk (organisers and referees).

    GET       /manage/tournaments/<id>/players                     list; ?status=...&q=... filter it
    GET/POST  /manage/tournaments/<id>/players/new                 add one player
    GET/POST  /manage/tournaments/<id>/players/<p>/edit            edit (stale forms get 409)
    POST      /manage/tournaments/<id>/players/<p>/<action>        check-in, undo-check-in, withdraw,
                                                                   reinstate, disqualify
    GET/POST  /manage/tournaments/<id>/players/import              upload or paste a CSV -> preview
    POST      /manage/tournaments/<id>/players/import/confirm      save the previewed CSV (all or nothing)
    GET       /manage/tournaments/<id>/players/export.csv          download every player as CSV
    GET       /manage/tournaments/<id>/players/teams               teams with their members
    GET       /manage/tournaments/<id>/checkin                     check-in desk; ?q=... without JavaScript
    POST      /manage/tournaments/<id>/checkin/<p>                 mark present (JSON for fetch, else redirect)
    POST      /manage/tournaments/<id>/checkin/<p>/undo            undo a check-in (same)
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, ngettext
from flask_login import current_user, login_required

from tournament import timezones
from tournament.i18n import N_, current_language
from tournament.i18n.service_messages import translate
from tournament.messages import msg
from tournament.models import Player, Tournament
from tournament.services import ConflictError, ServiceError
from tournament.services.people import player_links
from tournament.services.people import registration as registration_service
from tournament.services.people import tournaments as tournament_service
from tournament.services.people.registration import IMPORT_COLUMNS, STATUS_LABELS, PlayerData
from tournament.services.people.registration import csv_io as import_service
from tournament.services.seating import ahead
from tournament.web.errors import wants_json
from tournament.web.forms import form_version
from tournament.web.helpers import (
    form_post,
    managed_tournament,
    organiser_required,
    refereed_tournament,
    safe_next,
    show_service_error,
    submit_form,
)
from tournament.web.players.forms import ConfirmImportForm, EditPlayerForm, ImportForm, PlayerForm, StatusForm
from tournament.web.tournaments.forms import ConfirmForm
from tournament.web.unit import refuse

bp = Blueprint("players", __name__, url_prefix="/manage/tournaments/<int:tournament_id>")


def _with_replan(t: Tournament, change: Callable[[], object], message: Callable[[object], str]
                 ) -> tuple[Callable[[], tuple[object, str]], Callable[[tuple[object, str]], str]]:
    """The service call of a status change with the re-plan of the sessions drawn ahead (listed as the signed-in
    user's), and the flash that says both what was done (`message` of the change's result) and what the
    re-plan changed."""
    return (lambda: ahead.change_field(t, change, current_user),
            lambda done: f"{message(done[0])} {translate(done[1])}".strip())


# The flashes of a status change, in the reader's language (gettext at the view, the name filled in).
CHECKED_IN = N_("%(name)s is checked in.")
NOT_CHECKED_IN = N_("%(name)s is no longer checked in.")

# action in the URL -> (service function, flash message, takes a note)
STATUS_ACTIONS = {
    "check-in": (registration_service.check_in, CHECKED_IN, False),
    "undo-check-in": (registration_service.undo_check_in, NOT_CHECKED_IN, False),
    "withdraw": (registration_service.withdraw, N_("%(name)s has withdrawn: seated in no later draw or plan."), True),
    "reinstate": (registration_service.reinstate, N_("%(name)s is registered again."), False),
    "disqualify": (registration_service.disqualify, N_("%(name)s is disqualified."), True),
}


@bp.app_template_filter("country_name")
def country_name_filter(code: str | None) -> str:
    """A country's name in the reader's language."""
    return registration_service.country_name(code, current_language())


@bp.app_template_filter("status_label")
def status_label_filter(status: str) -> str:
    return STATUS_LABELS.get(status, status)


@bp.app_context_processor
def player_globals():
    return {"status_labels": STATUS_LABELS}


def _field(t: Tournament, players: list[Player]) -> dict:
    """Template values shared by the player list and the check-in desk: players, then substitutes,
    and the tournament's counts."""
    return {
        "players": [p for p in players if not p.is_substitute],
        "substitutes": [p for p in players if p.is_substitute],
        "counts": registration_service.counts(t),
    }


def _form_page(t: Tournament, form: PlayerForm | EditPlayerForm, player: Player | None, status: int = 200):
    return render_template(
        "players/form.html",
        tournament=t,
        form=form,
        player=player,
        country_names=registration_service.country_names(current_language()),
        team_names=list(registration_service.team_members(t)),
        link_url=_link_url(t, player) if player is not None else None,
    ), status


def _link_url(t: Tournament, player: Player) -> str:
    """The player's private page (issue 23): made on first view of their edit page."""
    token = player_links.token_of(player_links.link_of(t, player.id))
    return url_for("player_page.page", link_token=token, _external=True)


# --- Organiser pages --------------------------------------------------------------------------


@bp.route("/players")
@organiser_required
def index(tournament_id: int):
    t = managed_tournament(tournament_id)
    status = request.args.get("status", "")
    if status not in STATUS_LABELS:
        status = ""
    search = request.args.get("q", "").strip()
    players = registration_service.list_players(t, search=search, status=status or None)
    return render_template(
        "players/list.html",
        tournament=t,
        **_field(t, players),
        status=status,
        search=search,
    )


@bp.route("/players/new", methods=["GET", "POST"])
@organiser_required
def new(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = PlayerForm()
    form.submit.label.text = gettext("Add player")
    next_page = "players.new" if request.form.get("another") else "players.index"
    # a new registration mends the sessions planned ahead (a plan seats those registered)
    action, said = _with_replan(t, lambda: registration_service.add_player(t, form.to_data()),
                                lambda player: gettext("%(name)s is registered.", name=player.full_name))
    done = submit_form(form, action, lambda done_: (said(done_), url_for(next_page, tournament_id=t.id)))
    if done:
        return done
    return _form_page(t, form, None, 400 if form.is_submitted() else 200)


@bp.route("/players/<int:player_id>/edit", methods=["GET", "POST"])
@organiser_required
def edit(tournament_id: int, player_id: int):
    t = managed_tournament(tournament_id)
    player = registration_service.get_player(t, player_id)
    form = EditPlayerForm()
    if form.validate_on_submit():
        try:
            registration_service.update_player(player, form.to_data(), expected_version=form_version(form))
        except ConflictError as exc:
            flash(translate(exc.message), "error")
            form = EditPlayerForm(formdata=None)
            form.fill_from(PlayerData.from_player(player), player.version)
            return _form_page(t, form, player, 409)
        except ServiceError as exc:
            show_service_error(form, exc)
        else:
            flash(gettext("%(name)s saved.", name=player.full_name), "success")
            return redirect(url_for("players.index", tournament_id=t.id))
    elif not form.is_submitted():
        form.fill_from(PlayerData.from_player(player), player.version)
    return _form_page(t, form, player, 400 if form.is_submitted() else 200)


@bp.route("/players/<int:player_id>/renew-link", methods=["POST"])
@organiser_required
def renew_link(tournament_id: int, player_id: int):
    t = managed_tournament(tournament_id)
    player = registration_service.get_player(t, player_id)
    return form_post(url_for("players.edit", tournament_id=t.id, player_id=player.id) + "#private-link",
                     lambda: player_links.renew(t, player.id),
                     gettext("%(name)s has a new private link: the old one no longer opens their page. Print "
                             "their schedule card again.", name=player.full_name), form=StatusForm(), category="success",
                     invalid=gettext("The form expired: try again."))


@bp.route("/players/<int:player_id>/ema-result", methods=["POST"])
@organiser_required
def ema_result(tournament_id: int, player_id: int):
    """MERS 4.3: leave a player who withdrew ill out of the EMA results, or put them back."""
    t = managed_tournament(tournament_id)
    player = registration_service.get_player(t, player_id)
    left_out = request.form.get("left_out") == "1"
    return form_post(url_for("players.edit", tournament_id=t.id, player_id=player.id),
                     lambda: registration_service.leave_out_of_ema(player, left_out),
                     gettext("%(name)s is left out of the EMA results (MERS 4.3).", name=player.full_name)
                     if left_out else gettext("%(name)s is back in the EMA results.", name=player.full_name),
                     form=StatusForm(), category="success", invalid=gettext("The form expired: try again."))


@bp.route("/players/<int:player_id>/<action>", methods=["POST"])
@organiser_required
def change_status(tournament_id: int, player_id: int, action: str):
    t = managed_tournament(tournament_id)
    if action not in STATUS_ACTIONS:
        abort(404, msg("No such action."))
    player = registration_service.get_player(t, player_id)
    back = safe_next(request.form.get("next"), url_for("players.index", tournament_id=t.id))
    form = StatusForm()
    function, message, takes_note = STATUS_ACTIONS[action]
    action_, done = _with_replan(t, lambda: function(player, form.note.data or "") if takes_note else function(player),
                                 lambda _result: gettext(message, name=player.full_name))
    return form_post(back, action_, done, form=form, category="success",
                     invalid=lambda form: flash("; ".join(e for errors in form.errors.values() for e in errors),
                                                "error"))


@bp.route("/players/import", methods=["GET", "POST"])
@organiser_required
def import_csv(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = ImportForm()
    if not form.validate_on_submit():
        status = 400 if form.is_submitted() else 200
        return render_template("players/import.html", tournament=t, form=form, preview=None,
                               columns=IMPORT_COLUMNS), status
    text = ""
    upload = form.file.data
    try:
        if upload and getattr(upload, "filename", ""):
            text = registration_service.decode_csv(upload.read())
        else:
            text = form.text.data or ""
    except ServiceError as exc:
        show_service_error(form, exc)
        return render_template("players/import.html", tournament=t, form=form, preview=None,
                               columns=IMPORT_COLUMNS), 400
    if not text.strip():
        form.file.errors = ["Choose a CSV file or paste the rows."]
        return render_template("players/import.html", tournament=t, form=form, preview=None,
                               columns=IMPORT_COLUMNS), 400
    preview = registration_service.parse_csv(text, t)
    # A clean file (or one whose good rows may go in alone) is kept server-side: the confirm form sends its
    # id, not the text again.
    # A file holding a NUL cannot be kept (PostgreSQL refuses it in text): it is fixed first, never skipped.
    can_skip = preview.can_skip_bad_rows and "\x00" not in text
    kept = import_service.keep_import(t, text, current_user.id) if preview.ok or can_skip else None
    pasted = not (upload and getattr(upload, "filename", ""))
    return _preview_page(t, preview, kept.id if kept else None, text if pasted else "", can_skip=can_skip)


def _preview_page(t: Tournament, preview, import_id: int | None, pasted: str = "", status: int | None = None,
                  can_skip: bool | None = None):
    can_skip = preview.can_skip_bad_rows if can_skip is None else can_skip
    confirm = ConfirmImportForm(formdata=None, import_id=import_id)
    confirm.submit.label.text = f"Import {len(preview.rows)} player{'s' if len(preview.rows) != 1 else ''}"
    if not preview.ok and can_skip:
        good, bad = len(preview.good_rows), len(preview.bad_rows)
        confirm.skip_bad_rows.data, confirm.good_rows.data = bad, good
        confirm.submit.label.text = (f"Import the {good} good row{'s' if good != 1 else ''}, "
                                     f"skip the {bad} bad one{'s' if bad != 1 else ''}")
    # Pasted rows stay in the box to be corrected; an uploaded file is not copied into the page.
    form = ImportForm(formdata=None, text=pasted)
    if status is None:
        # A file with good rows to import alone is a choice offered, not a refusal: 200, so the kept file is
        # committed with the page (a 400 rolls the request back).
        status = 200 if preview.ok or can_skip else 400
    return render_template("players/import.html", tournament=t, form=form, preview=preview,
                           confirm_form=confirm, columns=IMPORT_COLUMNS), status


@bp.route("/players/import/confirm", methods=["POST"])
@organiser_required
def confirm_import(tournament_id: int):
    t = managed_tournament(tournament_id)
    form = ConfirmImportForm()
    if not form.validate_on_submit():
        abort(400, msg("The import form was incomplete. Upload the file again."))
    try:
        kept = import_service.kept_import(t, form.import_id.data)
    except ServiceError as exc:
        abort(exc.status_code, exc.message)
    try:
        players = import_service.confirm_import(t, kept.id, form.skip_bad_rows.data or 0, form.good_rows.data)
    except ServiceError as exc:
        flash(translate(exc.message), "error")
        kept = import_service.kept_import(t, kept.id)  # reloaded: the failed import rolled the session back
        preview = registration_service.parse_csv(kept.csv_text, t)
        if kept.confirmed_at is not None:  # already imported: show the rows, no second import button
            return render_template("players/import.html", tournament=t, form=ImportForm(formdata=None),
                                   preview=None, columns=IMPORT_COLUMNS), exc.status_code
        return _preview_page(t, preview, kept.id, status=exc.status_code)  # 409: imported at the same moment
    skipped = form.skip_bad_rows.data or 0
    imported = ngettext("Imported %(num)d player.", "Imported %(num)d players.", len(players))
    if skipped:
        imported += " " + ngettext("%(num)d row with problems skipped.", "%(num)d rows with problems skipped.",
                                   skipped)
    flash(imported, "success")
    return redirect(url_for("players.index", tournament_id=t.id))


def _slug(name: str) -> str:
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-") or "tournament"


@bp.route("/players/export.csv")
@organiser_required
def export_csv(tournament_id: int):
    t = managed_tournament(tournament_id)
    # The byte order mark makes Excel read the file as UTF-8; the import accepts it.
    body = "\ufeff" + registration_service.export_csv(t)
    return Response(
        body.encode("utf-8"),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{_slug(t.name)}-players.csv"'},
    )


@bp.route("/players/teams")
@organiser_required
def teams(tournament_id: int):
    t = managed_tournament(tournament_id)
    all_players = registration_service.list_players(t)
    return render_template(
        "players/teams.html",
        tournament=t,
        teams=registration_service.team_members(t),
        without_team=[p for p in all_players if not p.team],
    )


# --- Check-in desk ----------------------------------------------------------------------------


def _player_json(player: Player, t: Tournament) -> dict:
    return {
        "id": player.id,
        "name": player.full_name,
        "status": player.status,
        "status_label": STATUS_LABELS.get(player.status, player.status),
        "is_substitute": player.is_substitute,
        # The desk's clock: the tournament's zone, as the page shows it.
        "checked_in_at": timezones.format_local(player.checked_in_at, t.time_zone, "%H:%M") or None,
        "version": player.version,
    }


@bp.route("/checkin")
@login_required
def checkin(tournament_id: int):
    t = refereed_tournament(tournament_id)
    search = request.args.get("q", "").strip()
    players = registration_service.list_players(t, search=search)
    return render_template(
        "players/checkin.html",
        tournament=t,
        **_field(t, players),
        search=search,
        search_text=registration_service.search_text,
        confirm_form=ConfirmForm(),
        may_withdraw_absent=tournament_service.can_manage(current_user, t),
    )


def _desk_action(tournament_id: int, player_id: int, function, message: str):
    t = refereed_tournament(tournament_id)
    player = registration_service.get_player(t, player_id)
    action, done = _with_replan(t, lambda: function(player), lambda _result: gettext(message, name=player.full_name))
    if not wants_json():
        search = request.form.get("q", "").strip()
        return form_post(url_for("players.checkin", tournament_id=t.id, q=search or None), action, done,
                         category="success")
    try:
        result = action()
    except ServiceError as exc:
        refuse()
        return jsonify({"error": exc.message, "status": exc.status_code,
                        "player": _player_json(player, t)}), exc.status_code
    return jsonify({"player": _player_json(player, t), "counts": registration_service.counts(t),
                    "message": done(result)})


@bp.route("/checkin/withdraw-absent", methods=["POST"])
@login_required
def withdraw_absent(tournament_id: int):
    """Before a draw: withdraw everyone who has not checked in (the no-shows), so no draw seats them."""
    t = managed_tournament(tournament_id)
    form = ConfirmForm()

    def withdrawn_message(withdrawn) -> str:
        if not withdrawn:
            return gettext("Everyone registered has checked in: nobody was withdrawn.")
        names = ", ".join(p.full_name for p in withdrawn[:10]) + (" ..." if len(withdrawn) > 10 else "")
        return ngettext("%(num)d not checked in withdrawn: %(names)s. Reinstate them if they turn up.",
                        "%(num)d not checked in withdrawn: %(names)s. Reinstate any who turn up.",
                        len(withdrawn), names=names)

    action, done = _with_replan(t, lambda: registration_service.withdraw_absent(registration_service.list_players(t)),
                                withdrawn_message)
    return form_post(url_for("players.checkin", tournament_id=t.id), action, done,
                     form=form, invalid=gettext("The form expired: reload the page and try again."))


@bp.route("/checkin/<int:player_id>", methods=["POST"])
@login_required
def checkin_player(tournament_id: int, player_id: int):
    return _desk_action(tournament_id, player_id, registration_service.check_in, CHECKED_IN)


@bp.route("/checkin/<int:player_id>/undo", methods=["POST"])
@login_required
def undo_checkin(tournament_id: int, player_id: int):
    return _desk_action(tournament_id, player_id, registration_service.undo_check_in, NOT_CHECKED_IN)

