"""Services flush and the edge commits: a failure late in a composite operation leaves nothing behind."""

from __future__ import annotations

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import Player, Tournament, TournamentSession, User
from tournament.services import ServiceError
from tournament.services import demo as demo_service
from tournament.services.db import commit


def counts() -> tuple[int, int, int, int]:
    return tuple(  # type: ignore[return-value]
        db.session.scalar(select(func.count()).select_from(model))
        for model in (User, Tournament, Player, TournamentSession)
    )


def test_demo_whose_draw_fails_late_leaves_nothing(app, runner, monkeypatch):
    from tournament.services import draws

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


def test_a_refused_request_rolls_back_what_it_flushed(organiser_client, tournament, monkeypatch):
    """A view whose second service call fails leaves the first call's changes unsaved."""
    from tournament.services import tournaments as tournament_service

    real_update = tournament_service.update_tournament

    def update_then_fail(t, data, expected_version=None):
        real_update(t, data, expected_version)
        raise ServiceError("refused after the change was flushed")

    monkeypatch.setattr(tournament_service, "update_tournament", update_then_fail)
    from tests.conftest import post_form

    url = f"/manage/tournaments/{tournament.id}/edit"
    response = post_form(organiser_client, url, {"name": "Renamed", "venue": "Tampere", "version": tournament.version,
                                                 "ruleset": "ema", "session_count": 7, "session_minutes": 120,
                                                 "end_rule": "finish_hand", "false_mahjong_under_minimum": 10,
                                                 "false_mahjong_not_winning": 20, "table_points": "4,2,1,0",
                                                 "tie_breaks": ["firsts"]})
    assert response.status_code in (200, 400, 409, 422)
    db.session.expire_all()
    assert db.session.get(Tournament, tournament.id).name == "Helsinki Open"
