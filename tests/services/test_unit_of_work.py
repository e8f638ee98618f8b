"""Services flush and the edge commits: a failure late in a composite operation leaves nothing behind."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

from tests.helpers import form_fields, post_form
from tournament.extensions import db
from tournament.models import Player, Tournament, TournamentSession, User
from tournament.services import ServiceError
from tournament.services.core.db import commit
from tournament.services.documents import demo as demo_service

pytestmark = pytest.mark.postgres


def counts() -> tuple[int, int, int, int]:
    return tuple(  # type: ignore[return-value]
        db.session.scalar(select(func.count()).select_from(model))
        for model in (User, Tournament, Player, TournamentSession)
    )


def test_demo_whose_draw_fails_late_leaves_nothing(app, runner, monkeypatch):
    from tournament.services.seating import draws

    def failing_plan(*args, **kwargs):
        raise ServiceError("the draw failed")

    monkeypatch.setattr(draws, "plan_all", failing_plan)
    result = runner.invoke(args=["demo", "--players", "8"])
    assert result.exit_code != 0 and "the draw failed" in result.output
    # The owner, the tournament and its players were flushed before the draw failed: all gone.
    with app.app_context():
        assert counts() == (0, 0, 0, 0)


def test_demo_command_commits_once(app, runner):
    result = runner.invoke(args=["demo", "--players", "8"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert counts()[:3] == (1, 1, 8 + demo_service.demo_substitutes(8))


def test_demo_is_one_unit_committed_by_the_caller(app_ctx):
    t, _ = demo_service.load_demo(players=8)
    assert t.id is not None
    db.session.rollback()  # nothing was committed inside the service
    assert counts() == (0, 0, 0, 0)
    demo_service.load_demo(players=8)
    commit()
    db.session.expire_all()
    users, tournaments, players, sessions = counts()
    assert (users, tournaments, players) == (1, 1, 8 + demo_service.demo_substitutes(8))
    assert sessions == 7


def test_a_failed_form_post_rolls_back_what_the_service_flushed(organiser_client, tournament, monkeypatch):
    """The service really runs (the form is the page's own, valid), flushes the new name, then refuses: the
    page is shown again with the refusal, and the flushed change is not committed."""
    from tournament.services.people import tournaments as tournament_service

    real_update, calls = tournament_service.update_tournament, []

    def update_then_fail(t, data, expected_version=None):
        real_update(t, data, expected_version)
        calls.append(t.name)
        raise ServiceError("refused after the change was flushed")

    monkeypatch.setattr(tournament_service, "update_tournament", update_then_fail)
    url = f"/manage/tournaments/{tournament.id}/edit"
    response = organiser_client.post(url, data={**form_fields(organiser_client, url), "name": "Renamed"})
    assert calls == ["Renamed"], "the service was not reached"
    assert "refused after the change was flushed" in response.get_data(as_text=True)
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).name == "Helsinki Open"


def test_a_refusal_answered_with_a_redirect_rolls_back_what_the_service_flushed(client, auth, referee, seated,
                                                                                 monkeypatch):
    """A flash-and-redirect form post answers a refusal with a 302, below 400: only the refusal flag keeps
    the flushed change (the penalty cancelled, its history line) out of the database."""
    from tournament.models import Penalty, ScoreChange
    from tournament.services.people.tournaments import add_staff
    from tournament.services.play import penalties

    t, ids = seated
    add_staff(t, referee.email, "referee")
    penalty = penalties.give_penalty(t, player_id=ids[0], session_number=1, amount=10, reason="slow play",
                                     user=None)
    db.session.commit()
    history = db.session.scalar(select(func.count()).select_from(ScoreChange))
    real_cancel, calls = penalties.cancel_penalty, []

    def cancel_then_fail(*args, **kwargs):
        calls.append(real_cancel(*args, **kwargs).is_cancelled)
        db.session.flush()
        raise ServiceError("refused after the cancellation was flushed")

    monkeypatch.setattr(penalties, "cancel_penalty", cancel_then_fail)
    auth.login(referee)
    url = f"/manage/tournaments/{t.id}/play/penalties"
    response = post_form(client, f"{url}/{penalty.id}/cancel", {"reason": "wrong table"}, form_url=url)
    assert response.status_code == 302 and calls == [True]
    db.session.expire_all()
    assert not db.session.get(Penalty, penalty.id).is_cancelled
    assert db.session.scalar(select(func.count()).select_from(ScoreChange)) == history
