"""What happens at a table besides its hands: a substitution and a referee's call (with its penalty), both
posted from the table page, whose forms these are."""

from __future__ import annotations

from flask_babel import gettext
from flask_login import current_user, login_required

from tournament.models import HANDS_PER_SESSION, PlayerStatus, SessionStatus, TableMode, Tournament
from tournament.services.play import referee_calls
from tournament.services.seating import draws as draw_service
from tournament.services.seating import substitutions
from tournament.web.hands.common import bp, posted_int, table_url
from tournament.web.hands.forms import RefereeCallForm, SubstitutionForm
from tournament.web.hands.penalties import foul_choices
from tournament.web.helpers import form_post, refereed_tournament


def substitution_form(t: Tournament, s, sheet) -> SubstitutionForm | None:
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
            t, number, table, out_player_id=posted_int(form.out_player_id.data),
            in_player_id=posted_int(form.in_player_id.data), from_hand=form.from_hand.data,
            reason=form.reason.data, user=current_user, note=form.note.data or "", stays=bool(form.stays.data))

    return form_post(table_url(t, number, table) + "#substitution", record,
                     lambda sub: gettext("From hand %(hand)d, %(incoming)s plays for %(outgoing)s.", hand=sub.from_hand,
                                         incoming=sub.in_player.full_name, outgoing=sub.out_player.full_name),
                     form=form, invalid=gettext("Choose who goes out, who comes in, from which hand (1-16) and why."))


def call_form(t: Tournament, s, sheet) -> RefereeCallForm | None:
    """The table page's referee-call form, while the session is in play."""
    if s.status != SessionStatus.IN_PLAY:
        return None
    form = RefereeCallForm()
    people = [("", gettext("Nobody"))] + [(str(sp.player_id), sp.player.full_name) for sp in sheet.everyone]
    form.called_by.choices = form.dead_hand_player_id.choices = form.penalty_player_id.choices = people
    form.penalty_foul.choices = foul_choices(t)
    return form


@bp.route("/<int:number>/tables/<int:table>/calls", methods=["POST"])
@login_required
def referee_call(tournament_id: int, number: int, table: int):
    t = refereed_tournament(tournament_id)
    form = RefereeCallForm()

    def record():
        penalty = None
        if form.penalty_player_id.data:
            penalty = referee_calls.PenaltyData(player_id=posted_int(form.penalty_player_id.data),
                                                amount=form.penalty_amount.data if form.penalty_amount.data
                                                is not None else 0, foul=form.penalty_foul.data or "")
        return referee_calls.record_call(t, number, table, referee_calls.CallData(
            situation=form.situation.data, hand=form.hand.data, called_by=posted_int(form.called_by.data),
            ruling=form.ruling.data or "", dead_hand_player_id=posted_int(form.dead_hand_player_id.data),
            penalty=penalty), current_user)

    return form_post(table_url(t, number, table) + "#calls", record,
                     lambda call: gettext("Call logged with its penalty.") if call.penalty_id else gettext("Call logged."),
                     form=form, invalid=gettext("Say what happened (at most 500 characters); a hand is 1 to 16."))
