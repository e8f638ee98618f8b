"""The staff's last activity (services.people.staff_activity): last login, API token use, score entry in this tournament."""

from __future__ import annotations

from datetime import datetime

from tests.helpers import make_tournament
from tournament.extensions import db
from tournament.models import ScoreAction, ScoreChange
from tournament.services.people import users as user_service
from tournament.services.people.staff_activity import staff_activity
from tournament.services.people.tournaments import add_staff


def test_activity_shows_login_token_use_and_score_entry_of_this_tournament_only(in_play, organiser, referee):
    add_staff(in_play, referee.email, "referee")
    db.session.commit()
    assert staff_activity(in_play)[referee.id].latest is None

    user_service.start_login(referee)
    _, plain = user_service.create_api_token(referee, "tablet")
    assert user_service.user_for_token(plain) is referee
    session = in_play.sessions[0]
    db.session.add(ScoreChange(session_id=session.id, table_number=1, hand_number=1, action=ScoreAction.HAND_ENTERED,
                               user_id=referee.id, at=datetime(2030, 1, 1, 12, 0)))
    # Score entry in another tournament is not this one's activity.
    other = make_tournament(organiser, name="Other Open")
    db.session.commit()

    seen = staff_activity(in_play)[referee.id]
    assert seen.last_login is not None and seen.last_token_use is not None
    assert seen.last_score_entry == datetime(2030, 1, 1, 12, 0) == seen.latest
    assert staff_activity(in_play)[organiser.id].last_score_entry is None
    assert referee.id not in staff_activity(other)
