"""Issue 13, "races that lose or double data": real concurrent requests against a live threaded server on
PostgreSQL, released together by a barrier and repeated for several rounds. Each race once lost or doubled
data (or answered 500); the database now decides (unique keys, row locks, idempotency keys).
"""

from __future__ import annotations

import os
import time
from functools import partial

import pytest
from sqlalchemy import func, select

from tests.helpers import add_players, make_user
from tests.web.race_harness import (
    POSTGRES_ONLY,
    ROUNDS,
    Browser,
    hidden_fields,
    live_server,
    statuses,
    together,
)
from tournament.extensions import db
from tournament.models import Player, PlayerStatus, Role, TournamentSession, TournamentStaff
from tournament.models.account_links import Invitation
from tournament.services.people import tournaments as tournament_service
from tournament.services.seating import draws as draw_service

pytestmark = [pytest.mark.postgres, POSTGRES_ONLY]


def organisers(t) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(TournamentStaff).where(
        TournamentStaff.tournament_id == t.id, TournamentStaff.role == Role.ORGANISER))


def player_count(t) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(Player).where(Player.tournament_id == t.id))


def member_id(t, user) -> int:
    return db.session.scalar(select(TournamentStaff.id).where(
        TournamentStaff.tournament_id == t.id, TournamentStaff.user_id == user.id))


# ----------------------------------------------------------------------------- 1. the last organiser


def test_two_organisers_removing_each_other_leave_one(app, tournament, organiser):
    other = make_user("oscar@example.org", "organiser", "Oscar Organiser")
    base = f"/manage/tournaments/{tournament.id}"
    with live_server(app) as url:
        olivia, oscar = Browser(url).login(organiser.email), Browser(url).login(other.email)
        for _ in range(ROUNDS):
            for user in (organiser, other):
                if member_id(tournament, user) is None:
                    tournament_service.add_staff(tournament, user.email, "organiser")
            db.session.commit()
            assert organisers(tournament) == 2
            mine, theirs = member_id(tournament, organiser), member_id(tournament, other)
            csrf_a, csrf_b = olivia.csrf(base), oscar.csrf(base)
            answers = together(partial(olivia.post, f"{base}/staff/{theirs}/remove", {"csrf_token": csrf_a}),
                               partial(oscar.post, f"{base}/staff/{mine}/remove", {"csrf_token": csrf_b}))
            # The loser is refused ("keeps at least one organiser"), or 403 once they are off the staff.
            assert all(a.status in (302, 403) for a in answers), statuses(answers)
            assert organisers(tournament) == 1


# ----------------------------------------------------------------------------- 2. CSV import confirmed twice

CSV = "first_name,last_name,country\n" + "".join(f"Ida{i},Import{i},FI\n" for i in range(12))


def _preview(browser: Browser, base: str) -> dict[str, str]:
    page = browser.post(f"{base}/players/import", {"csrf_token": browser.csrf(f"{base}/players/import"), "text": CSV})
    assert page.status == 200, page.status
    return hidden_fields(page.body, "/players/import/confirm")


def test_csv_import_confirmed_twice_at_once_is_stored_once(app, tournament, organiser):
    base = f"/manage/tournaments/{tournament.id}"
    with live_server(app) as url:
        tab_a, tab_b = Browser(url).login(organiser.email), Browser(url).login(organiser.email)
        for round_number in range(ROUNDS):
            db.session.execute(Player.__table__.delete().where(Player.tournament_id == tournament.id))
            db.session.commit()
            if round_number % 2 == 0:
                # A double click: the same previewed form sent twice; both answers are the import's.
                form = _preview(tab_a, base)
                assert form.get("idempotency_key")
                answers = together(partial(tab_a.post, f"{base}/players/import/confirm", form),
                                   partial(tab_a.post, f"{base}/players/import/confirm", form))
                assert statuses(answers) == [302, 302]
                assert answers[0].location == answers[1].location
            else:
                # Two tabs, each with its own preview: one imports, the other is told why not.
                form_a, form_b = _preview(tab_a, base), _preview(tab_b, base)
                answers = together(partial(tab_a.post, f"{base}/players/import/confirm", form_a),
                                   partial(tab_b.post, f"{base}/players/import/confirm", form_b))
                # Refused with 409 when both imports overlapped, 400 when the second previewed the first's rows.
                assert statuses(answers) in ([302, 400], [302, 409]), statuses(answers)
                loser = next(a for a in answers if a.status != 302)
                assert "already registered" in loser.body or "at the same moment" in loser.body
            assert player_count(tournament) == 12


# ----------------------------------------------------------------------------- 3. add player twice


def test_add_player_twice_at_once_stores_one_player(app, tournament, organiser):
    base = f"/manage/tournaments/{tournament.id}"
    with live_server(app) as url:
        tab_a, tab_b = Browser(url).login(organiser.email), Browser(url).login(organiser.email)
        for round_number in range(ROUNDS):
            name = {"first_name": f"Aino{round_number}", "last_name": "Doublesubmit", "country": "FI"}
            form_a, form_b = tab_a.form(f"{base}/players/new"), tab_b.form(f"{base}/players/new")
            assert form_a["idempotency_key"] != form_b["idempotency_key"]
            before = player_count(tournament)
            if round_number % 2 == 0:  # a double click on one form
                answers = together(partial(tab_a.post, f"{base}/players/new", {**form_a, **name}),
                                   partial(tab_a.post, f"{base}/players/new", {**form_a, **name}))
                assert statuses(answers) == [302, 302]
            else:  # the same person typed in two tabs (two forms): the second is told
                # The same name in another case and spacing is the same person.
                twin = {**name, "first_name": f" aino{round_number} ", "last_name": "DOUBLESUBMIT"}
                answers = together(partial(tab_a.post, f"{base}/players/new", {**form_a, **name}),
                                   partial(tab_b.post, f"{base}/players/new", {**form_b, **twin}))
                assert statuses(answers)[0] in (302, 400, 409) and 302 in statuses(answers), statuses(answers)
                loser = next(a for a in answers if a.status != 302)
                assert "already registered" in loser.body
            assert player_count(tournament) == before + 1


# ----------------------------------------------------------------------------- 4. draws and staff


def test_draw_next_twice_at_once_one_session_and_a_clear_409(app, tournament, organiser):
    add_players(tournament, 16)
    base = f"/manage/tournaments/{tournament.id}/draws"
    with live_server(app) as url:
        tab_a, tab_b = Browser(url).login(organiser.email), Browser(url).login(organiser.email)
        for round_number in range(ROUNDS):
            form_a, form_b = tab_a.form(base, "/draws/next"), tab_b.form(base, "/draws/next")
            answers = together(partial(tab_a.post, f"{base}/next", form_a), partial(tab_b.post, f"{base}/next", form_b))
            assert statuses(answers) == [302, 409], statuses(answers)
            loser = next(a for a in answers if a.status == 409)
            assert "drawn by someone else" in loser.body
            db.session.expire_all()
            numbers = db.session.scalars(select(TournamentSession.number).where(
                TournamentSession.tournament_id == tournament.id).order_by(TournamentSession.number)).all()
            assert numbers == list(range(1, round_number + 2))


def test_draw_next_double_click_answers_the_first_draw_twice(app, tournament, organiser):
    add_players(tournament, 16)
    base = f"/manage/tournaments/{tournament.id}/draws"
    with live_server(app) as url:
        tab = Browser(url).login(organiser.email)
        for round_number in range(3):
            form = tab.form(base, "/draws/next")
            answers = together(partial(tab.post, f"{base}/next", form), partial(tab.post, f"{base}/next", form))
            assert statuses(answers) == [302, 302]
            assert answers[0].location == answers[1].location
            assert answers[0].location.endswith(f"/draws/{round_number + 1}")
            assert len(draw_service.drawn_sessions(tournament)) == round_number + 1


LATE_SEED = "7"


@pytest.mark.parametrize("late", [False, True], ids=["together", "second one late"])
def test_two_redraws_with_the_same_version_one_wins_the_other_a_conflict_page(app, tournament, organiser,
                                                                             monkeypatch, late):
    if late and os.environ.get("RACE_SERVER") == "gunicorn":
        pytest.skip("the delay is injected into this process, not into gunicorn's workers")
    if late:
        # The second request loads the page's session, then the first commits its redraw (a new row under the
        # same number), then the second redraws: it must not redraw the winner's seating.
        redraw = draw_service.redraw

        def late_redraw(t, session, expected_version, seed=None, **kwargs):
            if str(seed) == LATE_SEED:
                time.sleep(0.5)
            return redraw(t, session, expected_version, seed=seed, **kwargs)

        monkeypatch.setattr(draw_service, "redraw", late_redraw)
    add_players(tournament, 16)
    draw_service.draw_next(tournament, seed=1)
    db.session.commit()
    page = f"/manage/tournaments/{tournament.id}/draws/1"
    with live_server(app) as url:
        tab_a, tab_b = Browser(url).login(organiser.email), Browser(url).login(organiser.email)
        for _ in range(ROUNDS):
            form_a, form_b = tab_a.form(page, "/draws/1/redraw"), tab_b.form(page, "/draws/1/redraw")
            form_b["seed"] = LATE_SEED
            form_a["replace"] = form_b["replace"] = "y"  # the redraw's confirmation (issue 32)
            assert form_a["version"] == form_b["version"]
            answers = together(partial(tab_a.post, f"{page}/redraw", form_a),
                               partial(tab_b.post, f"{page}/redraw", form_b))
            assert statuses(answers) == [302, 409], statuses(answers)
            conflict = next(a for a in answers if a.status == 409)
            assert "changed by someone else" in conflict.body or "drawn by someone else" in conflict.body
            assert "Table 1" in conflict.body  # the page shows the seating that won
            assert len(draw_service.drawn_sessions(tournament)) == 1


def test_adding_the_same_account_twice_at_once_leaves_one_open_invitation(app, tournament, organiser):
    """Adding staff is an invitation the account's owner accepts: two tabs inviting one address at once
    both succeed, and one invitation (the later one's link) stays open; nobody joins the staff by it."""
    base = f"/manage/tournaments/{tournament.id}"
    with live_server(app) as url:
        tab_a, tab_b = Browser(url).login(organiser.email), Browser(url).login(organiser.email)
        for round_number in range(ROUNDS):
            email = f"ref{round_number}@example.org"
            make_user(email, "referee")
            form_a, form_b = tab_a.form(base, "/invitations"), tab_b.form(base, "/invitations")
            data = {"email": email, "role": "referee"}
            answers = together(partial(tab_a.post, f"{base}/staff", {**form_a, **data}),
                               partial(tab_b.post, f"{base}/staff", {**form_b, **data}))
            assert statuses(answers) == [200, 200], statuses(answers)
            db.session.expire_all()
            assert db.session.scalar(select(func.count()).select_from(Invitation).where(
                Invitation.email == email, Invitation.accepted_at.is_(None))) == 1
            assert db.session.scalar(select(func.count()).select_from(TournamentStaff).where(
                TournamentStaff.tournament_id == tournament.id)) == 1


# ----------------------------------------------------------------------------- 5. check-in desks


@pytest.mark.parametrize("as_json", [True, False], ids=["fetch", "form"])
def test_two_desks_checking_in_the_same_player_both_succeed(app, tournament, organiser, referee, as_json):
    tournament_service.add_staff(tournament, referee.email, "referee")
    players = add_players(tournament, ROUNDS, status=PlayerStatus.REGISTERED)
    base = f"/manage/tournaments/{tournament.id}/checkin"
    headers = {"Accept": "application/json"} if as_json else {}
    with live_server(app) as url:
        desk_a, desk_b = Browser(url).login(organiser.email), Browser(url).login(referee.email)
        for player in players:
            csrf_a, csrf_b = desk_a.csrf(base), desk_b.csrf(base)

            def mark(desk: Browser, csrf: str, pid: int = player.id):
                return desk.request("POST", f"{base}/{pid}", f"csrf_token={csrf}".encode(),
                                    {"Content-Type": "application/x-www-form-urlencoded", **headers})

            answers = together(partial(mark, desk_a, csrf_a), partial(mark, desk_b, csrf_b))
            assert statuses(answers) == ([200, 200] if as_json else [302, 302]), [a.body for a in answers]
            if as_json:
                assert all(a.json()["player"]["status"] == "present" for a in answers)
            else:
                for desk in (desk_a, desk_b):
                    page = desk.get(base).body
                    assert "is checked in" in page and "someone else" not in page
            db.session.expire_all()
            assert db.session.get(Player, player.id).status == PlayerStatus.PRESENT
