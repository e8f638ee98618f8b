"""A session's life: drafted, published, in play, finished (and reopened). Every change of a session's
status goes through this module, which holds the one table of allowed moves.

- drafted by the draw (`services.seating.draws`), which alone changes the seating while the session is a draft;
- published: players see their seats (`set_status`, the organiser's publish and unpublish);
- in play: the seating is fixed and results are entered (`start_session`);
- finished: closed after the check of `scoring.session_problems` (`finish_session`), its clock stopped; the
  appeal window of `services.play.appeals` runs from `finished_at`;
- reopened: back in play to correct a result (`reopen_session`), with no appeal window until it is finished again.

The guard every score write calls, "is this session in play", is `play.require_in_play`.
"""

from __future__ import annotations

from sqlalchemy import select

from tournament.extensions import db
from tournament.messages import MessageList, msg, status_word
from tournament.models import SessionStatus, SessionTable, Tournament, TournamentSession
from tournament.models._common import utcnow
from tournament.services.core.db import changes
from tournament.services.core.errors import ConflictError, ServiceError
from tournament.services.play import clock, scoring
from tournament.services.play import session as play
from tournament.services.seating.draws import expect_session_version

# The moves a session may make, from each status.
ALLOWED_MOVES: dict[SessionStatus, frozenset[SessionStatus]] = {
    SessionStatus.DRAFT: frozenset({SessionStatus.PUBLISHED}),
    SessionStatus.PUBLISHED: frozenset({SessionStatus.DRAFT, SessionStatus.IN_PLAY}),
    SessionStatus.IN_PLAY: frozenset({SessionStatus.FINISHED}),
    SessionStatus.FINISHED: frozenset({SessionStatus.IN_PLAY}),
}


def set_status(session: TournamentSession, status: str, expected_version: int | None = None) -> TournamentSession:
    """Publish, unpublish, start play or finish a session: one move of `ALLOWED_MOVES`, else a refusal.
    `expected_version`: the version the organiser's page showed (a page's action on a session changed since
    is a conflict); code holding the current row (the demo, `start_session`) passes none."""
    if status not in {s.value for s in SessionStatus}:
        raise ServiceError(msg("Unknown session status %(status)r.", status=status))
    if status not in ALLOWED_MOVES[SessionStatus(session.status)]:
        raise ServiceError(msg("Session %(number)s is %(status)s; it cannot become %(new_status)s.", number=session.number,
                               status=status_word(session.status), new_status=status_word(status)))
    if expected_version is not None:
        expect_session_version(session, expected_version)
    with changes():
        session.status = status
        if status == SessionStatus.PUBLISHED and session.published_at is None:
            session.published_at = utcnow()
        if status == SessionStatus.DRAFT:
            session.published_at = None
        # When play ended: the appeal window (services.play.appeals) runs from here; a reopened session has none.
        session.finished_at = utcnow() if status == SessionStatus.FINISHED else None
    return session


def start_session(t: Tournament, number: int) -> TournamentSession:
    """Publish the session if needed and put it in play: from now on its seating is fixed.
    Starting a session already in play changes nothing."""
    session = play.get_session(t, number)
    # Two starts at once (two screens, a double click) take turns on the row: the second finds it in play.
    db.session.refresh(session, with_for_update=True)
    if session.status == SessionStatus.IN_PLAY:
        return session
    if session.status == SessionStatus.FINISHED:
        raise ConflictError(msg("Session %(number)s is finished; reopen it instead of starting it again.", number=number))
    if session.status == SessionStatus.DRAFT:
        set_status(session, SessionStatus.PUBLISHED)
    set_status(session, SessionStatus.IN_PLAY)
    with changes():
        existing = set(db.session.scalars(select(SessionTable.table_number).where(SessionTable.session_id == session.id)))
        for table_number in play.table_numbers(session):
            if table_number not in existing:
                db.session.add(SessionTable(session_id=session.id, table_number=table_number))
    return session


def finish_session(t: Tournament, session_number: int, *, force: bool = False) -> TournamentSession:
    """Close a session in play. Refused while the check finds problems, unless the organiser insists."""
    session = play.get_session(t, session_number)
    if session.status == SessionStatus.FINISHED:
        return session
    play.require_in_play(session)
    problems = scoring.session_problems(t, session_number)
    if problems and not force:
        listed = MessageList("; ", (msg("table %(table)s: %(problem)s", table=p.table, problem=p.message)
                                    for p in problems[:8]))
        raise ConflictError(msg("Session %(number)s is not complete (%(listed)s and %(more)s more).",
                                number=session_number, listed=listed, more=len(problems) - 8) if len(problems) > 8 else
                            msg("Session %(number)s is not complete (%(listed)s).", number=session_number, listed=listed))
    set_status(session, SessionStatus.FINISHED)
    # Its clock stops with it: the projector and the API no longer show it running (issue 32).
    clock.stop_with_session(t, session, session.finished_at)
    return session


def reopen_session(t: Tournament, session_number: int) -> TournamentSession:
    """Put a finished session back in play, for a correction the organisers decided."""
    session = play.get_session(t, session_number)
    if session.status != SessionStatus.FINISHED:
        raise ConflictError(msg("Session %(session_number)s is not finished.", session_number=session_number))
    return set_status(session, SessionStatus.IN_PLAY)
