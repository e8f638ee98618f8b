import re
from datetime import date

import pytest
from flask_babel import force_locale
from sqlalchemy import select

from tests.helpers import csrf_token, form_fields, login, make_tournament, make_user, post_form
from tournament.extensions import db
from tournament.models import Tournament
from tournament.services.people.tournaments import list_tournaments, tournaments_for
from tournament.web.hands.penalties import foul_choices

VALID = {
    "name": "Nordic MCR Championship",
    "venue": "Stockholm",
    "start_date": "2027-05-01",
    "end_date": "2027-05-02",
    "ruleset": "ema",
    "session_count": "7",
    "session_minutes": "120",
    "end_rule": "finish_hand",
    "false_mahjong_under_minimum": "10",
    "false_mahjong_not_winning": "20",
    "points_first": "4",
    "points_second": "2",
    "points_third": "1",
    "points_fourth": "0",
    "tie_break_1": "firsts",
    "tie_break_2": "best_session",
    "tie_break_3": "",
}


def create(client, **changes):
    return post_form(client, "/manage/tournaments/new", {**VALID, **changes})


def test_organiser_creates_a_tournament(organiser_client, app_ctx):
    response = create(organiser_client)
    assert response.status_code == 302
    t = db.session.scalar(select(Tournament))
    assert t.name == "Nordic MCR Championship"
    assert t.table_points_list == [4, 2, 1, 0]
    assert t.tie_break_list == ["firsts", "best_session"]
    assert t.staff[0].role == "organiser"
    page = organiser_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Nordic MCR Championship" in page
    assert "4-2-1-0" in page


def test_empty_name_is_refused_next_to_the_field(organiser_client, app_ctx):
    response = create(organiser_client, name="  ")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert re.search(r'id="name-error"[^>]*>The tournament needs a name', html)
    assert db.session.scalar(select(Tournament)) is None


def test_zero_sessions_is_refused(organiser_client, app_ctx):
    response = create(organiser_client, session_count="0")
    assert response.status_code == 400
    assert "From 1 to 30." in response.get_data(as_text=True)
    assert db.session.scalar(select(Tournament)) is None


def test_non_numeric_and_inconsistent_values_are_refused(organiser_client, app_ctx):
    assert create(organiser_client, session_minutes="lots").status_code == 400
    response = create(organiser_client, end_date="2027-04-01")
    assert response.status_code == 400
    assert "cannot be before the first day" in response.get_data(as_text=True)
    response = create(organiser_client, points_first="1", points_second="2")
    assert "must not increase" in response.get_data(as_text=True)
    response = create(organiser_client, tie_break_2="firsts")
    assert "used once" in response.get_data(as_text=True)
    assert create(organiser_client, ruleset="riichi").status_code == 400
    assert db.session.scalar(select(Tournament)) is None


def test_referee_cannot_open_organiser_pages(referee_client, tournament):
    assert referee_client.get("/manage/tournaments/new").status_code == 403
    assert referee_client.get(f"/manage/tournaments/{tournament.id}/edit").status_code == 403
    response = post_form(referee_client, "/manage/tournaments/new", VALID, form_url="/manage")
    assert response.status_code == 403


def test_anonymous_user_is_sent_to_login(client, tournament):
    response = client.get(f"/manage/tournaments/{tournament.id}/edit")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


def test_other_organiser_cannot_edit(client, tournament, app_ctx):
    make_user("other@example.org", "organiser")
    login(client, "other@example.org")
    assert client.get(f"/manage/tournaments/{tournament.id}/edit").status_code == 403
    assert client.get(f"/manage/tournaments/{tournament.id}").status_code == 403


def test_edit_saves_changes(organiser_client, tournament, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/edit"
    response = post_form(organiser_client, url, {**VALID, "name": "Renamed Open", "version": str(tournament.version)})
    assert response.status_code == 302
    db.session.refresh(tournament)
    assert tournament.name == "Renamed Open"
    assert tournament.version == 2


def test_stale_edit_does_not_overwrite_a_newer_one(organiser_client, tournament, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/edit"
    stale_version = str(tournament.version)
    assert post_form(organiser_client, url, {**VALID, "name": "First edit", "version": stale_version}).status_code == 302
    response = post_form(organiser_client, url, {**VALID, "name": "Second edit", "version": stale_version})
    assert response.status_code == 409
    assert "changed by someone else" in response.get_data(as_text=True)
    db.session.refresh(tournament)
    assert tournament.name == "First edit"


def test_adding_staff_invites_and_the_referee_sees_the_tournament_once_accepted(app, organiser_client, tournament,
                                                                                 referee, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/staff"
    response = post_form(organiser_client, url, {"email": referee.email, "role": "referee"},
                         form_url=f"/manage/tournaments/{tournament.id}")
    assert response.status_code == 200 and "Invitation for rafael@example.org created" in response.get_data(as_text=True)
    db.session.refresh(tournament)
    assert {m.user.email for m in tournament.staff} == {"olivia@example.org"}  # not before its owner accepts
    from tournament.services.people import invitations
    invitations.accept(invitations.pending_for(referee)[0].id, referee)
    db.session.commit()
    db.session.refresh(tournament)
    assert {m.user.email for m in tournament.staff} == {"olivia@example.org", referee.email}
    # A referee account cannot be made an organiser.
    bad = post_form(organiser_client, url, {"email": referee.email, "role": "organiser"},
                    form_url=f"/manage/tournaments/{tournament.id}")
    assert bad.status_code == 400


def test_an_address_without_an_account_is_invited_too(organiser_client, tournament):
    url = f"/manage/tournaments/{tournament.id}/staff"
    response = post_form(organiser_client, url, {"email": "ghost@example.org", "role": "referee"},
                         form_url=f"/manage/tournaments/{tournament.id}")
    assert response.status_code == 200
    assert "Invitation for ghost@example.org created" in response.get_data(as_text=True)


def test_last_organiser_cannot_be_removed(organiser_client, tournament, app_ctx):
    member = tournament.staff[0]
    token = csrf_token(organiser_client, f"/manage/tournaments/{tournament.id}")
    response = organiser_client.post(
        f"/manage/tournaments/{tournament.id}/staff/{member.id}/remove", data={"csrf_token": token}, follow_redirects=True
    )
    assert "at least one organiser" in response.get_data(as_text=True)
    db.session.refresh(tournament)
    assert len(tournament.staff) == 1


def test_public_home_lists_tournaments_without_login(client, tournament):
    html = client.get("/").get_data(as_text=True)
    assert "Helsinki Open" in html
    assert client.get(f"/t/{tournament.id}").status_code == 200


def test_unknown_pages_are_404_not_500(client):
    assert client.get("/t/999999").status_code == 404
    assert client.get("/no/such/page").status_code == 404


def test_edit_without_its_version_is_refused_and_writes_nothing(organiser_client, tournament, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/edit"
    response = post_form(organiser_client, url, {**VALID, "name": "No version"})
    assert response.status_code == 400
    assert "did not say which version" in response.get_data(as_text=True)
    db.session.expire_all()
    fresh = db.session.get(Tournament, tournament.id)
    assert (fresh.name, fresh.version) == ("Helsinki Open", 1)


@pytest.mark.postgres
def test_settings_are_stored_as_lists(organiser_client, tournament, app_ctx):
    url = f"/manage/tournaments/{tournament.id}/edit"
    data = {**VALID, "points_first": "8", "points_second": "4", "points_third": "2", "points_fourth": "0",
            "tie_break_1": "seconds", "tie_break_2": "", "tie_break_3": "", "version": str(tournament.version)}
    assert post_form(organiser_client, url, data).status_code == 302
    db.session.expire_all()
    fresh = db.session.get(Tournament, tournament.id)
    assert (fresh.table_points, fresh.tie_breaks) == ([8, 4, 2, 0], ["seconds"])
    assert (fresh.table_points_list, fresh.tie_break_list) == ([8, 4, 2, 0], ["seconds"])


@pytest.mark.postgres
def test_the_lists_put_the_latest_first_and_the_tournaments_without_dates_last(client, organiser):
    """A descending order puts NULLs first on PostgreSQL and last on SQLite: the lists say NULLS LAST."""
    for name, start in (("Dated 2026", date(2026, 5, 1)), ("No dates yet", None), ("Dated 2027", date(2027, 1, 1))):
        make_tournament(organiser, name=name, start_date=start)
    expected = ["Dated 2027", "Dated 2026", "No dates yet"]
    assert [t.name for t in list_tournaments()] == expected
    assert [t.name for t in tournaments_for(organiser)] == expected
    page = client.get("/").get_data(as_text=True)
    assert [page.index(name) for name in expected] == sorted(page.index(name) for name in expected)


def test_default_foul_types_are_worded_for_each_reader_and_kept_as_keys(app, organiser_client, tournament, app_ctx):
    """A Finnish organiser's settings show the default fouls in Finnish; saving them unchanged keeps the English
    keys, so a Swedish penalty form shows them in Swedish. A foul type the organiser adds stays as typed."""
    url = f"/manage/tournaments/{tournament.id}/edit?lang=fi"
    fields = form_fields(organiser_client, url)
    assert [line for line in fields["foul_types"].splitlines() if line][:2] == ["Myöhästyminen", "Hidas pelaaminen"]
    fields["foul_types"] += "\nPuhelin soi"
    assert organiser_client.post(url, data=fields).status_code == 302
    db.session.refresh(tournament)
    assert tournament.foul_types[:2] == ["Late arrival", "Slow play"] and tournament.foul_types[-1] == "Puhelin soi"
    with app.test_request_context("/"), force_locale("sv"):
        options = [label for _key, label in foul_choices(tournament)]
    assert "Sen ankomst" in options and "Puhelin soi" in options and "Myöhästyminen" not in options, options
