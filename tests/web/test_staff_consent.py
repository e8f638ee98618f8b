"""Staff by consent (issue 31, the takeover between tournaments): adding an existing account to a staff is an
invitation its owner accepts or declines; until then it sees none of the tournament's staff pages; and no
organiser is ever shown a password link for an account that has logged in, used a token, is on another
tournament's staff, or organises."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from sqlalchemy import func, select

from tests.helpers import PASSWORD, OtherBrowser, csrf_token, make_tournament, make_user, post_form, token_for
from tournament.extensions import db
from tournament.models import TournamentStaff
from tournament.models.account_links import Invitation, PasswordReset
from tournament.services.core.errors import NotFound
from tournament.services.people import invitations, password_resets
from tournament.services.people.tournaments import add_staff, staff_role

LINK_RE = re.compile(r'id="new-link-url"[^>]*value="([^"]+)"')


def overview(t) -> str:
    return f"/manage/tournaments/{t.id}"


def on_staff(t, user) -> bool:
    db.session.expire_all()
    return db.session.scalar(select(func.count()).select_from(TournamentStaff).where(
        TournamentStaff.tournament_id == t.id, TournamentStaff.user_id == user.id)) == 1


def other_event(referee_email: str = "bruno@example.org"):
    """Tournament B: its own organiser and a referee who uses their account (logged in once)."""
    owner = make_user("otto@example.org", "organiser")
    t = make_tournament(owner, name="Other Open")
    referee = make_user(referee_email, "referee")
    add_staff(t, referee.email, "referee")
    db.session.commit()
    return t, referee


def test_the_takeover_replayed_end_to_end_is_refused(app, organiser_client, tournament):
    """Organiser A adds B's referee, makes a password link for them, sets a password and enters a hand in B as
    that referee: each step of it now fails, and B's referee keeps their password."""
    other, bruno = other_event()
    bruno_browser = OtherBrowser(app)
    assert bruno_browser.post_form("/login", {"email": bruno.email, "password": PASSWORD}).status_code == 302

    # 1. "Add to staff" no longer adds: it invites, and the account is not on A's staff.
    added = post_form(organiser_client, f"{overview(tournament)}/staff", {"email": bruno.email, "role": "referee"},
                      form_url=overview(tournament))
    assert added.status_code == 200
    assert "Invitation for bruno@example.org created" in added.get_data(as_text=True)
    assert not on_staff(tournament, bruno)
    # 2. So there is no staff place to make a password link for ...
    ids = db.session.scalars(select(TournamentStaff.id).where(TournamentStaff.user_id == bruno.id)).all()
    for member_id in ids:  # B's place: another tournament's, refused
        response = post_form(organiser_client, f"{overview(tournament)}/staff/{member_id}/reset-link", {},
                             form_url=overview(tournament))
        assert response.status_code == 404
    # 3. ... and the invitation link itself asks for the account's own password.
    path = urlsplit(LINK_RE.search(added.get_data(as_text=True)).group(1)).path
    stranger = OtherBrowser(app)
    page = stranger.get(path).get_data(as_text=True)
    assert "Choose a password" not in page and 'name="password"' in page
    wrong = stranger.post_form(path, {"password": "not-brunos-password"})
    assert wrong.status_code == 401 and not on_staff(tournament, bruno)
    # 4. Had Bruno accepted, A still may not be shown a link for an account that has logged in.
    invitation = invitations.pending_for(bruno)[0]
    invitations.accept(invitation.id, bruno)
    db.session.commit()
    member = next(m for m in tournament.staff if m.user_id == bruno.id)
    response = post_form(organiser_client, f"{overview(tournament)}/staff/{member.id}/reset-link", {},
                         form_url=overview(tournament))
    assert response.status_code == 403
    assert "has logged in to their account before" in response.get_data(as_text=True)
    assert LINK_RE.search(response.get_data(as_text=True)) is None
    assert db.session.scalar(select(func.count()).select_from(PasswordReset)) == 0
    # Bruno's password is his; his login in B goes on.
    assert bruno_browser.get(overview(other)).status_code == 200


def test_an_invited_account_sees_no_staff_page_until_it_accepts_on_its_dashboard(app, organiser_client, tournament,
                                                                                   referee):
    post_form(organiser_client, f"{overview(tournament)}/staff", {"email": referee.email, "role": "referee"},
              form_url=overview(tournament))
    rafael = OtherBrowser(app)
    rafael.post_form("/login", {"email": referee.email, "password": PASSWORD})
    assert rafael.get(overview(tournament)).status_code in (403, 404)
    assert rafael.get(f"{overview(tournament)}/checkin").status_code in (403, 404)
    dashboard = rafael.get("/manage").get_data(as_text=True)
    assert "Helsinki Open invites you as referee" in dashboard
    invitation = db.session.scalar(select(Invitation).where(Invitation.email == referee.email))
    accepted = rafael.post_form(f"/manage/invitations/{invitation.id}/accept", {}, form_url="/manage")
    assert accepted.status_code == 302
    assert on_staff(tournament, referee)
    assert rafael.get(overview(tournament)).status_code == 200
    assert "invites you" not in rafael.get("/manage").get_data(as_text=True)
    # The organiser's list of open invitations is empty again.
    assert "Open invitations" not in organiser_client.get(overview(tournament)).get_data(as_text=True)


def test_a_declined_invitation_is_gone_and_its_link_with_it(app, organiser_client, tournament, referee):
    added = post_form(organiser_client, f"{overview(tournament)}/staff", {"email": referee.email, "role": "referee"},
                      form_url=overview(tournament))
    path = urlsplit(LINK_RE.search(added.get_data(as_text=True)).group(1)).path
    invitation = db.session.scalar(select(Invitation).where(Invitation.email == referee.email))
    rafael = OtherBrowser(app)
    rafael.post_form("/login", {"email": referee.email, "password": PASSWORD})
    declined = rafael.post_form(f"/manage/invitations/{invitation.id}/decline", {}, form_url="/manage")
    assert declined.status_code == 302
    assert "You declined the invitation to Helsinki Open." in rafael.get("/manage").get_data(as_text=True)
    assert not on_staff(tournament, referee)
    assert db.session.scalar(select(func.count()).select_from(Invitation)) == 0
    assert rafael.get(path).status_code == 404


def test_nobody_answers_an_invitation_addressed_to_someone_else(app, tournament, referee):
    invitation, _ = invitations.invite(tournament, referee.email, "referee", None)
    intruder = make_user("ivan@example.org", "organiser")
    db.session.commit()
    browser = OtherBrowser(app)
    browser.post_form("/login", {"email": intruder.email, "password": PASSWORD})
    assert "invites you" not in browser.get("/manage").get_data(as_text=True)
    for answer in ("accept", "decline"):
        response = browser.post_form(f"/manage/invitations/{invitation.id}/{answer}", {}, form_url="/manage")
        assert response.status_code == 404 and "No such invitation." in response.get_data(as_text=True)
    assert browser.post_form("/manage/invitations/999999/accept", {}, form_url="/manage").status_code == 404
    assert not on_staff(tournament, intruder) and not on_staff(tournament, referee)
    try:
        invitations.accept(invitation.id, intruder)
    except NotFound:
        pass
    else:
        raise AssertionError("another account accepted the invitation")


def test_accepting_needs_the_forms_token(app, tournament, referee):
    invitation, _ = invitations.invite(tournament, referee.email, "referee", None)
    db.session.commit()
    browser = OtherBrowser(app)
    browser.post_form("/login", {"email": referee.email, "password": PASSWORD})
    with app.app_context():
        response = browser.client.post(f"/manage/invitations/{invitation.id}/accept", data={})
    assert response.status_code == 400
    assert not on_staff(tournament, referee)


def test_two_organisers_adding_one_address_leave_one_open_invitation(tournament, referee):
    invitations.invite(tournament, referee.email, "referee", None)
    invitations.invite(tournament, referee.email, "referee", None)
    db.session.commit()
    assert len(invitations.pending_for(referee)) == 1


def test_a_shown_password_link_only_for_an_account_this_tournament_alone_has_used(app_ctx, tournament, referee):
    member = add_staff(tournament, referee.email, "referee")
    db.session.commit()
    assert password_resets.link_may_be_shown(tournament, member) is None  # made for this event, never used

    referee.last_login_at = db.func.now()
    db.session.commit()
    assert "has logged in" in str(password_resets.link_may_be_shown(tournament, member))

    referee.last_login_at = None
    db.session.commit()
    api = token_for(referee)
    assert api
    from tournament.models import ApiToken  # the token used once, through the API
    db.session.execute(ApiToken.__table__.update().values(last_used_at=db.func.now()))
    db.session.commit()
    assert "has logged in" in str(password_resets.link_may_be_shown(tournament, member))

    db.session.execute(ApiToken.__table__.update().values(last_used_at=None))
    other = make_tournament(make_user("otto@example.org", "organiser"), name="Other Open")
    add_staff(other, referee.email, "referee")
    db.session.commit()
    assert "another tournament" in str(password_resets.link_may_be_shown(tournament, member))


def test_the_password_link_button_is_offered_only_where_it_may_be_used(app, organiser_client, tournament, referee):
    fresh = make_user("fresh@example.org", "referee")
    add_staff(tournament, fresh.email, "referee")
    add_staff(tournament, referee.email, "referee")
    db.session.commit()
    browser = OtherBrowser(app)
    browser.post_form("/login", {"email": referee.email, "password": PASSWORD})  # Rafael has logged in
    html = organiser_client.get(overview(tournament)).get_data(as_text=True)
    member_of = {m.user.email: m.id for m in tournament.staff}
    assert f"/staff/{member_of[fresh.email]}/reset-link" in html
    assert f"/staff/{member_of[referee.email]}/reset-link" not in html
    assert staff_role(referee, tournament) == "referee"
    assert csrf_token(organiser_client, overview(tournament))
