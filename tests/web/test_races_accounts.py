"""Account links used twice at the same moment (PostgreSQL): an invitation makes one account and one place on
the staff, a password link sets one password; the other sending is told the link is spent (or the account
exists), never a 500."""

from __future__ import annotations

from functools import partial

import pytest
from sqlalchemy import func, select

from tests.web.race_harness import POSTGRES_ONLY, ROUNDS, Browser, live_server, statuses, together
from tournament.extensions import db
from tournament.models import TournamentStaff, User
from tournament.services.people import invitations, password_resets
from tournament.services.people import users as user_service

pytestmark = [pytest.mark.postgres, POSTGRES_ONLY]


def count(model, *where) -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(model).where(*where))


def test_an_invitation_accepted_twice_at_once_makes_one_account(app, tournament, organiser):
    with live_server(app) as url:
        for round_number in range(ROUNDS):
            email = f"rita{round_number}@example.org"
            _, token = invitations.invite(tournament, email, "referee", organiser)
            db.session.commit()
            path = f"/invitations/{token}"
            tab_a, tab_b = Browser(url), Browser(url)
            data = {"name": "Rita", "password": "violet-lantern-harbour", "confirm": "violet-lantern-harbour"}
            form_a, form_b = tab_a.form(path), tab_b.form(path)
            answers = together(partial(tab_a.post, path, {**form_a, **data}),
                               partial(tab_b.post, path, {**form_b, **data}))
            assert statuses(answers) in ([302, 409], [302, 410]), statuses(answers)
            assert count(User, User.email == email) == 1
            assert count(TournamentStaff, TournamentStaff.tournament_id == tournament.id) == round_number + 2


def test_a_password_link_used_twice_at_once_sets_one_password(app, referee):
    with live_server(app) as url:
        for round_number in range(ROUNDS):
            _, token = password_resets.requested(referee.email)
            db.session.commit()
            path = f"/reset-password/{token}"
            tab_a, tab_b = Browser(url), Browser(url)
            form_a, form_b = tab_a.form(path), tab_b.form(path)
            first, second = f"violet-lantern-{round_number}a", f"amber-harbour-{round_number}b"
            answers = together(partial(tab_a.post, path, {**form_a, "password": first, "confirm": first}),
                               partial(tab_b.post, path, {**form_b, "password": second, "confirm": second}))
            assert statuses(answers) == [302, 410], statuses(answers)
            winner = first if answers[0].status == 302 else second
            db.session.expire_all()
            assert user_service.authenticate(referee.email, winner) is not None
            # Three requests an hour at most: the test's own links come from the service, one per round.
            db.session.execute(password_resets.PasswordReset.__table__.delete())
            db.session.commit()
