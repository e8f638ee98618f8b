import io
import re

from sqlalchemy import func, select

from tests.helpers import csrf_token, login, make_user, post_form
from tournament.extensions import db
from tournament.models import Player, PlayerImport
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData

VALID = {
    "first_name": "Aino",
    "last_name": "Virtanen",
    "country": "Finland",
    "club": "Helsinki MC",
    "team": "Team FI",
    "ema_number": "04000123",
    "status": "registered",
    "notes": "",
}


def url(tournament, path=""):
    return f"/manage/tournaments/{tournament.id}/players{path}"


def player_count() -> int:
    return db.session.scalar(select(func.count(Player.id)))


def add(tournament, first="Aino", last="Virtanen", **kwargs):
    return reg.add_player(tournament, PlayerData(first_name=first, last_name=last, **kwargs))


def test_organiser_adds_a_player(organiser_client, tournament, app_ctx):
    response = post_form(organiser_client, url(tournament, "/new"), {**VALID, "is_substitute": "y"})
    assert response.status_code == 302
    p = db.session.scalar(select(Player))
    assert (p.full_name, p.country, p.ema_number, p.team, p.is_substitute) == (
        "Aino Virtanen", "FI", "04000123", "Team FI", True
    )
    html = organiser_client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Aino Virtanen is registered." in html
    assert "Virtanen, Aino" in html


def test_unknown_country_and_bad_ema_number_are_shown_next_to_the_fields(organiser_client, tournament, app_ctx):
    response = post_form(organiser_client, url(tournament, "/new"), {**VALID, "country": "Atlantis", "ema_number": "12"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert re.search(r'id="country-error"[^>]*>Unknown country &#39;Atlantis&#39;', html)
    assert re.search(r'id="ema_number-error"[^>]*>The EMA number must be exactly 8 digits', html)
    assert 'aria-describedby="country-hint country-error"' in html
    assert player_count() == 0


def test_duplicate_player_is_refused_with_the_existing_name(organiser_client, tournament, app_ctx):
    add(tournament, ema_number="04000123")
    response = post_form(organiser_client, url(tournament, "/new"), {**VALID, "first_name": "AINO"})
    assert response.status_code == 400
    assert "Aino Virtanen with EMA number 04000123 is already registered" in response.get_data(as_text=True)
    assert player_count() == 1


def test_edit_saves_and_a_stale_edit_is_refused(organiser_client, tournament, app_ctx):
    p = add(tournament)
    edit_url = url(tournament, f"/{p.id}/edit")
    form_html = organiser_client.get(edit_url).get_data(as_text=True)
    assert re.search(r'name="version"[^>]*value="1"', form_html)
    stale = str(p.version)
    response = post_form(organiser_client, edit_url, {**VALID, "club": "First edit", "version": stale})
    assert response.status_code == 302
    response = post_form(organiser_client, edit_url, {**VALID, "club": "Second edit", "version": stale})
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "changed by someone else" in html
    assert 'value="First edit"' in html  # the form now shows the current values
    db.session.expire_all()
    assert db.session.get(Player, p.id).club == "First edit"


def test_list_filters_by_status_and_search(organiser_client, tournament, app_ctx):
    add(tournament, "Aino", "Virtanen")
    mikko = add(tournament, "Mikko", "Korhonen", club="Tampere")
    add(tournament, "Sanna", "Aalto", is_substitute=True)
    reg.check_in(mikko)
    html = organiser_client.get(url(tournament)).get_data(as_text=True)
    assert html.index("Korhonen, Mikko") < html.index("Virtanen, Aino")
    assert html.index("Virtanen, Aino") < html.index("Aalto, Sanna")  # substitutes in their own table
    html = organiser_client.get(url(tournament, "?status=present")).get_data(as_text=True)
    assert "Korhonen, Mikko" in html and "Virtanen, Aino" not in html
    html = organiser_client.get(url(tournament, "?q=tampere")).get_data(as_text=True)
    assert "Korhonen, Mikko" in html and "Virtanen, Aino" not in html
    assert organiser_client.get(url(tournament, "?status=bogus")).status_code == 200


def test_status_actions(organiser_client, tournament, app_ctx):
    p = add(tournament)
    form_url = url(tournament)

    def act(action, **data):
        return post_form(organiser_client, url(tournament, f"/{p.id}/{action}"), data, form_url=form_url)

    assert act("check-in").status_code == 302
    db.session.expire_all()
    assert p.status == "present"
    act("withdraw", note="family emergency")
    db.session.expire_all()
    assert (p.status, p.notes) == ("withdrawn", "Withdrawn: family emergency")
    response = act("check-in")
    assert "reinstate them before check-in" in organiser_client.get(response.headers["Location"]).get_data(as_text=True)
    act("reinstate")
    act("disqualify")
    db.session.expire_all()
    assert p.status == "disqualified"
    assert act("explode").status_code == 404
    # The CSRF token is required.
    response = organiser_client.post(url(tournament, f"/{p.id}/reinstate"))
    assert response.status_code == 400
    db.session.expire_all()
    assert p.status == "disqualified"


def test_status_action_goes_back_only_to_this_site(organiser_client, tournament, app_ctx):
    p = add(tournament)
    response = post_form(organiser_client, url(tournament, f"/{p.id}/check-in"), {"next": "https://evil.example/"},
                         form_url=url(tournament))
    assert response.headers["Location"] == url(tournament)


def test_referee_cannot_edit_players(referee_client, referee, tournament, app_ctx):
    from tournament.services.people.tournaments import add_staff

    add_staff(tournament, referee.email, "referee")
    p = add(tournament)
    assert referee_client.get(url(tournament)).status_code == 403
    assert referee_client.get(url(tournament, f"/{p.id}/edit")).status_code == 403
    assert referee_client.get(url(tournament, "/import")).status_code == 403
    assert referee_client.get(url(tournament, "/export.csv")).status_code == 403
    token = csrf_token(referee_client, f"/manage/tournaments/{tournament.id}/checkin")
    response = referee_client.post(url(tournament, f"/{p.id}/edit"), data={**VALID, "last_name": "Hacked", "csrf_token": token})
    assert response.status_code == 403
    response = referee_client.post(url(tournament, f"/{p.id}/withdraw"), data={"csrf_token": token})
    assert response.status_code == 403
    db.session.expire_all()
    assert (p.last_name, p.status) == ("Virtanen", "registered")


def test_other_organiser_cannot_see_the_players(client, tournament, app_ctx):
    add(tournament)
    make_user("other@example.org", "organiser")
    login(client, "other@example.org")
    assert client.get(url(tournament)).status_code == 403


def test_anonymous_user_is_sent_to_login(client, tournament, app_ctx):
    p = add(tournament)
    for path in ("", "/new", f"/{p.id}/edit", "/import", "/export.csv", "/teams"):
        response = client.get(url(tournament, path))
        assert response.status_code == 302, path
        assert "/login" in response.headers["Location"]


def test_player_of_another_tournament_is_404(organiser_client, organiser, tournament, app_ctx):
    from tournament.services.people.tournaments import TournamentData, create_tournament

    other = create_tournament(organiser, TournamentData(name="Other Open"))
    p = add(other)
    assert organiser_client.get(url(tournament, f"/{p.id}/edit")).status_code == 404


# --- CSV -------------------------------------------------------------------------------------

BAD_CSV = (
    "first_name,last_name,country,ema_number\n"
    "Aino,Virtanen,FI,04000123\n"
    "Mikko,Korhonen,Narnia,\n"
    "Jonas,Lindqvist,SE,12ab\n"
    ",Dubois,FR,\n"
    "Aino,Virtanen,FI,04000123\n"
)
GOOD_CSV = "first_name,last_name,country,team\nAino,Virtanen,FI,Team FI\nMikko,Korhonen,FIN,Team FI\n"


def test_import_preview_lists_every_bad_row_and_saves_nothing(organiser_client, tournament, app_ctx):
    response = post_form(organiser_client, url(tournament, "/import"), {"text": BAD_CSV})
    assert response.status_code == 200  # row 2 is fine: importing it alone is offered (issue 21 item 10)
    html = response.get_data(as_text=True)
    assert "Nothing was imported" in html
    assert "Row 3</a>: Unknown country &#39;Narnia&#39;" in html
    assert "Row 4</a>: The EMA number must be exactly 8 digits" in html
    assert "Row 5</a>: The first name is required." in html
    assert "Row 6</a>: Aino Virtanen with EMA number 04000123 is already registered on row 2." in html
    assert html.count('class="row-error"') == 4
    # The only import button leaves the bad rows out, and says so.
    assert html.split("Preview another file")[0].count("/import/confirm") == 1
    assert "Import the 1 good row, skip the 4 bad ones" in html
    assert player_count() == 0
    # Without that choice the kept file is still all or nothing.
    kept = db.session.scalar(select(PlayerImport.id))
    response = post_form(organiser_client, url(tournament, "/import/confirm"), {"import_id": str(kept)},
                         form_url=url(tournament, "/import"))
    assert response.status_code == 400 and "nothing was imported" in response.get_data(as_text=True)
    assert player_count() == 0


def test_import_upload_preview_then_confirm(organiser_client, tournament, app_ctx):
    token = csrf_token(organiser_client, url(tournament, "/import"))
    upload = ("\ufeff" + GOOD_CSV.replace(",", ";")).encode("utf-8")
    response = organiser_client.post(
        url(tournament, "/import"),
        data={"csrf_token": token, "file": (io.BytesIO(upload), "players.csv"), "text": ""},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Import 2 players" in html
    assert player_count() == 0
    hidden = re.search(r'name="import_id" type="hidden" value="(\d+)"', html) or re.search(
        r'type="hidden" name="import_id" value="(\d+)"', html
    )
    assert hidden, "the confirm form names the kept file"
    assert "Korhonen" not in html.split("Preview another file")[1]  # the uploaded file is not copied into the page
    response = post_form(organiser_client, url(tournament, "/import/confirm"), {"import_id": hidden.group(1)},
                         form_url=url(tournament, "/import"))
    assert response.status_code == 302
    assert sorted(p.full_name for p in reg.list_players(tournament)) == ["Aino Virtanen", "Mikko Korhonen"]
    assert {p.team for p in reg.list_players(tournament)} == {"Team FI"}


def test_upload_that_is_not_utf8_gets_a_clear_message(organiser_client, tournament, app_ctx):
    token = csrf_token(organiser_client, url(tournament, "/import"))
    response = organiser_client.post(
        url(tournament, "/import"),
        data={"csrf_token": token, "file": (io.BytesIO("Jos\xe9".encode("latin-1")), "p.csv")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    assert "not UTF-8" in response.get_data(as_text=True)


def test_empty_import_is_refused(organiser_client, tournament):
    response = post_form(organiser_client, url(tournament, "/import"), {"text": "  "})
    assert response.status_code == 400
    assert "Choose a CSV file or paste the rows." in response.get_data(as_text=True)


def test_export_downloads_csv(organiser_client, tournament, app_ctx):
    add(tournament, "Élodie", "Dubois", country="FR", ema_number="04000123", notes="secret")
    response = organiser_client.get(url(tournament, "/export.csv"))
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="helsinki-open-players.csv"'
    text = response.data.decode("utf-8-sig")
    assert text.splitlines() == [
        "first_name,last_name,country,club,team,ema_number,substitute,notes",
        "Élodie,Dubois,FR,,,04000123,no,secret",
    ]


def test_teams_page(organiser_client, tournament, app_ctx):
    add(tournament, "Aino", "Virtanen", team="Team FI")
    add(tournament, "Mikko", "Korhonen", team="Team FI")
    add(tournament, "Lars", "Berg", team="Stockholm")
    add(tournament, "Solo", "Player")
    html = organiser_client.get(url(tournament, "/teams")).get_data(as_text=True)
    assert html.index("Stockholm") < html.index("Team FI")
    assert "2 members" in html and "1 member " in html
    assert "1 player without a team" in html


def test_subnav_marks_the_current_page(organiser_client, tournament):
    html = organiser_client.get(url(tournament)).get_data(as_text=True)
    assert re.search(r'<a href="[^"]*/players" aria-current="page">Players</a>', html)
    assert re.search(r'<a href="[^"]*/checkin">Check-in</a>', html)
    overview = organiser_client.get(f"/manage/tournaments/{tournament.id}").get_data(as_text=True)
    assert re.search(r'aria-current="page">Overview</a>', overview)


def test_public_player_list(client, tournament, app_ctx):
    add(tournament, "Aino", "Virtanen", country="FI", club="Helsinki MC", ema_number="04000123", notes="Private note")
    gone = add(tournament, "Mikko", "Korhonen")
    reg.withdraw(gone)
    add(tournament, "Sanna", "Aalto", is_substitute=True)
    response = client.get(f"/t/{tournament.id}/players")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Virtanen, Aino" in html and "Finland" in html and "04000123" in html
    assert "Private note" not in html
    assert "Korhonen" not in html
    assert html.index("Virtanen, Aino") < html.index("Substitutes") < html.index("Aalto, Sanna")
    assert 'aria-current="page">Players</a>' in html
    assert client.get("/t/99999/players").status_code == 404


def test_edit_form_cannot_move_a_disqualified_player_straight_to_present(organiser_client, tournament, app_ctx):
    p = add(tournament)
    reg.disqualify(p, "cheating")
    db.session.commit()
    edit_url = url(tournament, f"/{p.id}/edit")
    response = post_form(organiser_client, edit_url,
                         {**VALID, "club": "Sneaky", "status": "present", "version": str(p.version)})
    assert response.status_code == 400
    assert "reinstate them" in response.get_data(as_text=True)
    db.session.expire_all()
    fresh = db.session.get(Player, p.id)
    assert (fresh.status, fresh.club, fresh.version) == ("disqualified", "", 2)


def test_edit_without_its_version_is_refused_and_writes_nothing(organiser_client, tournament, app_ctx):
    p = add(tournament)
    db.session.commit()
    response = post_form(organiser_client, url(tournament, f"/{p.id}/edit"), {**VALID, "club": "No version"})
    assert response.status_code == 400
    assert "did not say which version" in response.get_data(as_text=True)
    db.session.expire_all()
    fresh = db.session.get(Player, p.id)
    assert (fresh.club, fresh.version) == ("", 1)
