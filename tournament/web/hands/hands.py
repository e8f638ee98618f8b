"""A table's page and its hands: enter, correct, delete, and a referee's "the hand stands"."""

from __future__ import annotations

from functools import partial

from flask import abort, flash, redirect, render_template, request
from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.i18n.service_messages import translate
from tournament.messages import msg
from tournament.models import HandResult
from tournament.services import ConflictError, NotFound
from tournament.services.play import confirmations, penalties, referee_calls, scoring
from tournament.services.play import session as play
from tournament.web.hands.calls import call_form, substitution_form
from tournament.web.hands.common import bp, posted_int, table_url
from tournament.web.hands.forms import ConvertForm, DeleteHandForm, HandForm
from tournament.web.hands.hand_form import (
    double_submit,
    hand_players,
    labels,
    offer_false_mahjong,
    render_hand_form,
    save_hand,
    why_not,
)
from tournament.web.helpers import form_post, refereed_tournament, safe_next


@bp.route("/<int:number>/tables/<int:table>")
@login_required
def table(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    play.table_players(s, table)
    sheet = scoring.table_sheet(t, number, table)
    table_penalties = [p for p in penalties.penalties_of(t, number)
                       if p.player_id in {sp.player_id for sp in sheet.everyone}]
    by_staff = confirmations.counted_by_staff(t, s, table, [row.hand for row in sheet.rows if row.hand is not None])
    return render_template("hands/table.html", tournament=t, session=s, sheet=sheet, penalties=table_penalties,
                           labels=labels(sheet.everyone), button=ConvertForm(), by_staff=by_staff,
                           tables=play.table_numbers(s), substitution_form=substitution_form(t, s, sheet),
                           calls=referee_calls.calls_at(t, number, table), call_form=call_form(t, s, sheet))


def _blank_hand_form(t, s, table: int):
    """The form for the next hand to enter (or the one asked for in ?hand=, or why it cannot be entered)."""
    sheet = scoring.table_sheet(t, s.number, table)
    form = HandForm()
    wanted = request.args.get("hand", type=int)
    form.number.data = wanted if wanted in sheet.missing else (sheet.missing[0] if sheet.missing else None)
    players = hand_players(s, table, form.number.data)
    form.set_players(players, labels(players))
    # A hand asked for that cannot be entered (time called, already entered) says why, not "Which hand?".
    notice, notice_hand = why_not(t, s, table, wanted) if wanted is not None and wanted not in sheet.missing \
        else ("", None)
    return render_hand_form(t, s, table, players, form, notice=notice, notice_hand=notice_hand,
                            open_hands=list(sheet.missing) if notice else None)


@bp.route("/<int:number>/tables/<int:table>/hands/new", methods=["GET", "POST"])
@login_required
def new_hand(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    if request.method == "GET":
        return _blank_hand_form(t, s, table)
    form = HandForm()
    players = hand_players(s, table, request.form.get("number", type=int))  # who sits at that hand
    form.set_players(players, labels(players))
    render = partial(render_hand_form, t, s, table, players, form)
    if not form.validate_on_submit():
        return render(status=422)
    if request.form.get("convert"):
        if offer_false_mahjong(form, players):
            flash(gettext("The claim is now a false mahjong below (the claimant's hand is dead). Enter how the "
                          "hand ended: another player's win, or a draw."), "info")
        return render()
    data = form.to_data()

    def conflict(exc: ConflictError):
        if stored := double_submit(t, number, table, data):
            return stored
        # A different hand under a number already taken: keep what was typed and offer the stored hand.
        notice, notice_hand = why_not(t, s, table, data.number)
        if notice_hand is not None:
            return render(status=409, notice_hand=notice_hand, notice=gettext(
                "Nothing was saved: hand %(num)d is already entered at table %(table)d with another result. What "
                "you typed is kept below: change the hand number, or correct the stored hand.", num=data.number,
                table=table))
        flash(translate(exc.message), "error")
        return render(status=409)

    refused = save_hand(form, render, lambda: scoring.enter_hand(t, number, table, data, current_user), conflict)
    if refused is not None:
        return refused
    flash(gettext("Hand %(num)d saved.", num=data.number), "info")
    return redirect(table_url(t, number, table) + f"#hand-{data.number}")


@bp.route("/<int:number>/tables/<int:table>/hands/<int:hand_number>/stands", methods=["POST"])
@login_required
def rule_stands(tournament_id: int, number: int, table: int, hand_number: int):
    """A referee settles a players' dispute (or confirms a players' entry for the table): the hand stands."""
    t = refereed_tournament(tournament_id)
    # From the referee board's card: back to the board.
    back = safe_next(request.form.get("next"), table_url(t, number, table) + f"#hand-{hand_number}")
    return form_post(back,
                     lambda: confirmations.rule_stands(t, number, table, hand_number, current_user),
                     gettext("Hand %(num)d stands as entered: it counts, and its disputes are closed.",
                             num=hand_number),
                     form=ConvertForm(), invalid=gettext("The form expired: try again."))


@bp.route("/<int:number>/tables/<int:table>/hands/<int:hand_number>/edit", methods=["GET", "POST"])
@login_required
def edit_hand(tournament_id: int, number: int, table: int, hand_number: int):
    t = refereed_tournament(tournament_id)
    s = play.get_session(t, number)
    players = hand_players(s, table, hand_number)
    try:
        hand = scoring.get_hand(t, number, table, hand_number)
    except NotFound as exc:
        abort(404, exc.message)
    form = HandForm()
    form.set_players(players, labels(players))
    if hand.result == HandResult.NOT_SCORED:
        form.allow_not_scored()
    render = partial(render_hand_form, t, s, table, players, form, editing=hand)
    if request.method == "GET":
        form.fill(scoring.hand_summary(hand))
        return render()
    if not form.validate_on_submit():
        return render(status=422)
    if request.form.get("convert"):
        offer_false_mahjong(form, players)
        return render()
    version = posted_int(form.version.data)
    if version is None:
        flash(gettext("This form has no record version: reload the hand and correct it again."), "error")
        return render(status=409)

    def conflict(exc: ConflictError):
        flash(translate(exc.message), "error")
        return render(status=409)

    refused = save_hand(form, render, lambda: scoring.correct_hand(
        t, number, table, hand_number, form.to_data(), current_user, expected_version=version), conflict)
    if refused is not None:
        return refused
    flash(gettext("Hand %(num)d corrected; the history keeps what it was.", num=hand_number), "info")
    # Opened from the referee board's card (?next=): back to the board.
    return redirect(safe_next(request.args.get("next"), table_url(t, number, table) + f"#hand-{hand_number}"))


@bp.route("/<int:number>/tables/<int:table>/hands/<int:hand_number>/delete", methods=["POST"])
@login_required
def delete_hand(tournament_id: int, number: int, table: int, hand_number: int):
    t = refereed_tournament(tournament_id)
    play.table_players(play.get_session(t, number), table)
    form = DeleteHandForm()
    if not form.validate_on_submit():
        abort(400, msg("The form expired: reload the page and try again."))
    version = posted_int(form.version.data)
    if version is None:
        abort(409, msg("This form has no record version: reload the hand and try again."))

    def delete() -> None:
        try:
            scoring.delete_hand(t, number, table, hand_number, current_user, expected_version=version)
        except NotFound as exc:
            abort(404, exc.message)

    return form_post(table_url(t, number, table), delete,
                     gettext("Hand %(num)d deleted; the history keeps it.", num=hand_number))
