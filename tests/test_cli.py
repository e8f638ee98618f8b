import json

from sqlalchemy import func, select

from tournament.extensions import db
from tournament.models import Player, ScoreAction, Tournament, User


def test_users_create_organiser(runner, app_ctx):
    result = runner.invoke(args=["users", "create", "Boss@Example.org", "--role", "organiser", "--password", "longenough1"])
    assert result.exit_code == 0, result.output
    user = db.session.scalar(select(User))
    assert user.email == "boss@example.org"
    assert user.role == "organiser"
    assert user.check_password("longenough1")
    assert user.password_hash != "longenough1"


def test_users_create_refuses_short_password_and_duplicates(runner, app_ctx):
    result = runner.invoke(args=["users", "create", "a@example.org", "--password", "short"])
    assert result.exit_code != 0
    assert "at least 8 characters" in result.output
    runner.invoke(args=["users", "create", "a@example.org", "--password", "longenough1"])
    again = runner.invoke(args=["users", "create", "A@example.org", "--password", "longenough1"])
    assert again.exit_code != 0
    assert "already exists" in again.output


def test_users_create_refuses_unknown_role(runner):
    result = runner.invoke(args=["users", "create", "a@example.org", "--role", "king", "--password", "longenough1"])
    assert result.exit_code != 0


def test_demo_loads_a_tournament_with_players(runner, app_ctx):
    result = runner.invoke(args=["demo", "--players", "32"])
    assert result.exit_code == 0, result.output
    assert "password" in result.output
    t = db.session.scalar(select(Tournament))
    assert t is not None
    count = db.session.scalar(select(func.count(Player.id)).where(Player.tournament_id == t.id))
    assert count == 34
    subs = db.session.scalar(select(func.count(Player.id)).where(Player.is_substitute))
    assert subs == 2
    from tournament.services.seating.draws import drawn_sessions

    sessions = drawn_sessions(t)
    assert len(sessions) == t.session_count
    assert [s.status for s in sessions[:3]] == ["finished", "in_play", "draft"]
    # Session 1 is played and closed, with a false mahjong, a penalty, a correction and a referee's call with
    # a warning; session 2 half-way.
    from tournament.models import FalseMahjong, Hand, Penalty, RefereeCall, ScoreChange
    from tournament.services.play import scoring

    assert scoring.session_problems(t, 1) == []
    assert db.session.scalar(select(func.count(Hand.id))) == 8 * 16 + 8 * 8
    assert db.session.scalar(select(func.count(FalseMahjong.id))) == 1
    assert sorted(db.session.scalars(select(Penalty.amount))) == [0, 10]  # the call's warning and a penalty
    assert db.session.scalar(select(func.count(RefereeCall.id))) == 1
    actions = set(db.session.scalars(select(ScoreChange.action)))
    assert {ScoreAction.HAND_ENTERED, ScoreAction.HAND_CORRECTED, ScoreAction.PENALTY_GIVEN} <= actions


def test_demo_with_an_odd_player_count_fills_the_tables(runner, app_ctx):
    result = runner.invoke(args=["demo", "--players", "29"])
    assert result.exit_code == 0, result.output
    assert "29 players and 3 substitutes" in result.output
    from tournament.services.seating.draws import drawn_sessions

    t = db.session.scalar(select(Tournament))
    assert all(len(s.seats) == 32 for s in drawn_sessions(t))


def test_backup_writes_each_tournaments_export_json(runner, played, tmp_path):
    # The systemd backup timer in deploy/README.md runs this beside pg_dump (issue 21 item 14).
    from tournament.services.documents.backup import export_tournament

    target = tmp_path / "json"
    result = runner.invoke(args=["backup", str(target)])
    assert result.exit_code == 0, result.output
    written = target / f"tournament-{played.id}.json"
    assert json.loads(written.read_text(encoding="utf-8")) == json.loads(
        runner.app.json.dumps(export_tournament(played)))
    assert [p.name for p in target.iterdir()] == [written.name]  # no partial file left behind
