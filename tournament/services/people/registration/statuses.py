"""A player's status and the moves between statuses, in one table (as sessions have in draws).

registered -> present (check-in) -> registered (undo); either -> withdrawn or disqualified; withdrawn ->
disqualified; withdrawn or disqualified -> registered (reinstated: they check in again). Every change,
from the desk, the status buttons or the edit form, goes through `set_status`, which refuses any other.
"""

from __future__ import annotations

from tournament.extensions import db
from tournament.messages import Message, msg, status_word
from tournament.models import Player, PlayerStatus
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import ServiceError
from tournament.text import control_refusal

STATUS_LABELS = {
    PlayerStatus.REGISTERED: "Registered",
    PlayerStatus.PRESENT: "Present",
    PlayerStatus.WITHDRAWN: "Withdrawn",
    PlayerStatus.DISQUALIFIED: "Disqualified",
}

TRANSITIONS: dict[PlayerStatus, frozenset[PlayerStatus]] = {
    PlayerStatus.REGISTERED: frozenset({PlayerStatus.PRESENT, PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED}),
    PlayerStatus.PRESENT: frozenset({PlayerStatus.REGISTERED, PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED}),
    PlayerStatus.WITHDRAWN: frozenset({PlayerStatus.REGISTERED, PlayerStatus.DISQUALIFIED}),
    PlayerStatus.DISQUALIFIED: frozenset({PlayerStatus.REGISTERED}),
}

# The notes column's size: appended reasons keep the latest text.
NOTES_LIMIT: int = Player.__table__.c.notes.type.length


def known_status(status: str) -> PlayerStatus:
    try:
        return PlayerStatus(status)
    except ValueError:
        raise ServiceError(msg("Unknown status '%(status)s': use %(choices)s.", status=status, choices=", ".join(STATUS_LABELS)), field="status") from None


def can_move(current: PlayerStatus, status: PlayerStatus) -> bool:
    return status == current or status in TRANSITIONS[current]


def _refusal(player: Player, status: PlayerStatus) -> Message:
    name, current = player.full_name, status_word(player.status)
    if status == PlayerStatus.PRESENT:
        return msg("%(name)s is %(status)s: an organiser must reinstate them before check-in.", name=name,
                   status=current)
    if player.status == PlayerStatus.DISQUALIFIED:
        return msg("%(name)s is disqualified; reinstate them first.", name=name)
    return msg("%(name)s is %(status)s; they cannot become %(new_status)s from there.", name=name, status=current,
               new_status=status_word(status))


def _append_note(player: Player, note: str) -> None:
    note = " ".join((note or "").split())
    if note:
        combined = f"{player.notes}\n{note}" if player.notes else note
        player.notes = combined[-NOTES_LIMIT:]


def move(player: Player, status: str, field: str | None = None) -> None:
    """Change the status in memory (the caller flushes), keeping the check-in time consistent.
    `field` names the form field a refusal belongs to (the edit form's status select)."""
    target = known_status(status)
    if target == player.status:
        return
    if not can_move(player.status, target):
        raise ServiceError(_refusal(player, target), field=field)
    if target == PlayerStatus.PRESENT:
        player.checked_in_at = utcnow()
    elif target == PlayerStatus.REGISTERED:
        player.checked_in_at = None
    player.status = target


def set_status(player: Player, status: str, note: str = "") -> Player:
    """A status change allowed by TRANSITIONS; `note` is appended to the notes."""
    with changes():
        move(player, status)
        _append_note(player, note)
    return player


def _current(player: Player) -> None:
    """Read the player's row again under a row lock: two desks marking one player take turns, and the
    second sees the first's change (nothing to do) instead of a stale version (a conflict)."""
    db.session.refresh(player, with_for_update=True)


def _already(player: Player, status: PlayerStatus) -> bool:
    """The player has `status`, as loaded or once the row is read again under the lock (`_current`)."""
    if player.status == status:
        return True
    _current(player)
    return player.status == status


def check_in(player: Player) -> Player:
    """Mark the player present (idempotent). A withdrawn or disqualified player is refused: an organiser
    reinstates them first (`reinstate`), then checks them in."""
    if _already(player, PlayerStatus.PRESENT):
        return player
    return set_status(player, PlayerStatus.PRESENT)


def undo_check_in(player: Player) -> Player:
    if _already(player, PlayerStatus.REGISTERED):
        return player
    if player.status != PlayerStatus.PRESENT:
        raise ServiceError(msg("%(name)s is %(status)s, not checked in.", name=player.full_name,
                               status=status_word(player.status)))
    return set_status(player, PlayerStatus.REGISTERED)


def _leave(player: Player, status: PlayerStatus, already: Message, note: str) -> Player:
    """Withdraw or disqualify, the reason (if any) kept in the notes as "Withdrawn: ill"."""
    if player.status == status:
        raise ServiceError(already)
    _one_line(note, "note")
    return set_status(player, status, f"{STATUS_LABELS[status]}: {note}" if note.strip() else "")


def _one_line(reason: str, field: str) -> None:
    """A withdrawal's or a disqualification's reason is one line of the notes."""
    if problem := control_refusal(reason.strip(), msg("the reason")):
        raise ServiceError(problem, field=field)


def withdraw(player: Player, note: str = "") -> Player:
    return _leave(player, PlayerStatus.WITHDRAWN, msg("%(name)s has already withdrawn.", name=player.full_name), note)


def disqualify(player: Player, note: str = "") -> Player:
    return _leave(player, PlayerStatus.DISQUALIFIED, msg("%(name)s is already disqualified.", name=player.full_name),
                  note)


def withdraw_absent(players: list[Player], note: str = "Not checked in before the draw") -> list[Player]:
    """Withdraw every player of `players` (substitutes apart: no draw seats one who is absent) still registered
    but not checked in: before a draw, the no-shows. Returns those withdrawn. Each is read again under its row
    lock, so a player checked in at the desk meanwhile stays."""
    withdrawn = []
    for player in players:
        if player.status != PlayerStatus.REGISTERED or player.is_substitute:
            continue
        _current(player)
        if player.status == PlayerStatus.REGISTERED:
            withdrawn.append(withdraw(player, note))
    return withdrawn


def disqualify_player(player: Player, reason: str) -> Player:
    """Disqualify, once: a second request (a retry, a second referee) finds it done and changes nothing."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(msg("Say why the player is disqualified."), field="reason")
    _one_line(reason, "reason")
    _current(player)
    if player.status == PlayerStatus.DISQUALIFIED:
        return player
    return disqualify(player, reason)


def reinstate(player: Player) -> Player:
    """A withdrawn or disqualified player is registered again (and checks in again)."""
    if player.status not in (PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED):
        raise ServiceError(msg("%(name)s is %(status)s; there is nothing to reinstate.", name=player.full_name,
                               status=status_word(player.status)))
    return set_status(player, PlayerStatus.REGISTERED)


def leave_out_of_ema(player: Player, left_out: bool) -> Player:
    """MERS 4.3: a player who withdrew ill may be stripped from the EMA result by the head referee (the
    standings keep them, with the sessions they played). Only a withdrawn player; undone the same way."""
    if not isinstance(left_out, bool):
        raise ServiceError(msg("Say yes or no."), field="left_out")
    _current(player)
    if left_out and player.status != PlayerStatus.WITHDRAWN:
        raise ServiceError(msg("%(name)s is %(status)s: only a player who withdrew (ill, MERS 4.3) is left out of the EMA "
                               "results.", name=player.full_name, status=status_word(player.status)), field="left_out")
    with changes():
        player.left_out_of_ema = left_out
    return player
