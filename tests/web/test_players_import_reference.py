"""The players CSV import keeps the previewed file on the server; the confirm form sends only its id."""

import io
import re
from datetime import timedelta
from functools import partial

import pytest
from sqlalchemy import func, select

from tests.helpers import csrf_token, post_form
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
from tournament.models import Player, PlayerImport
from tournament.models._common import utcnow
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData

pytestmark = pytest.mark.postgres

GOOD_CSV = "first_name,last_name,country\nAino,Virtanen,FI\nMikko,Korhonen,FI\n"


def url(tournament, path: str = "") -> str:
    return f"/manage/tournaments/{tournament.id}/players{path}"


def player_count(tournament) -> int:
    return db.session.scalar(select(func.count()).select_from(Player).where(Player.tournament_id == tournament.id))


def import_id_of(html: str) -> str:
    found = re.search(r'name="import_id" type="hidden" value="(\d+)"', html) or re.search(
        r'type="hidden" name="import_id" value="(\d+)"', html)
    assert found, "no confirm form on the page"
    return found.group(1)


def preview(client, tournament, text: str) -> str:
    response = post_form(client, url(tournament, "/import"), {"text": text})
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return import_id_of(response.get_data(as_text=True))


def confirm(client, tournament, import_id: str):
    return post_form(client, url(tournament, "/import/confirm"), {"import_id": import_id},
                     form_url=url(tournament, "/import"))


def big_csv() -> str:
    """About 1.5 MB: 2,000 players (the most one file may hold) with long notes."""
    rows = [f"Player{i},Longfile{i},FI,{'note about the player ' * 34}{i}\n" for i in range(2000)]
    text = "first_name,last_name,country,notes\n" + "".join(rows)
    assert len(text.encode()) > 1_500_000
    return text


@pytest.mark.slow
def test_a_1_5_mb_paste_previews_and_confirms_every_row_once(organiser_client, tournament, app_ctx):
    text = big_csv()
    import_id = preview(organiser_client, tournament, text)
    assert player_count(tournament) == 0
    response = confirm(organiser_client, tournament, import_id)
    assert response.status_code == 302
    assert player_count(tournament) == 2000
    names = db.session.scalars(select(Player.last_name).where(Player.tournament_id == tournament.id)).all()
    assert len(set(names)) == 2000


@pytest.mark.slow
def test_a_1_5_mb_upload_previews_and_confirms(organiser_client, tournament, app_ctx):
    token = csrf_token(organiser_client, url(tournament, "/import"))
    response = organiser_client.post(
        url(tournament, "/import"),
        data={"csrf_token": token, "file": (io.BytesIO(big_csv().encode()), "players.csv"), "text": ""},
        content_type="multipart/form-data",
    )
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # The confirm form is small: the file is not re-posted.
    confirm_form = html.split('action="/manage/tournaments/')[1].split("</form>")[0]
    assert len(confirm_form) < 2000
    assert confirm(organiser_client, tournament, import_id_of(html)).status_code == 302
    assert player_count(tournament) == 2000


def test_a_body_over_the_limit_gets_a_clear_413(organiser_client, tournament, app_ctx):
    response = post_form(organiser_client, url(tournament, "/import"), {"text": "x" * (5 * 1024 * 1024)})
    assert response.status_code == 413
    assert db.session.scalar(select(func.count()).select_from(PlayerImport)) == 0


def test_confirmed_twice_stores_the_rows_once_and_says_why(organiser_client, tournament, app_ctx):
    import_id = preview(organiser_client, tournament, GOOD_CSV)
    assert confirm(organiser_client, tournament, import_id).status_code == 302
    again = confirm(organiser_client, tournament, import_id)
    assert again.status_code == 409
    assert "already imported" in again.get_data(as_text=True)
    assert player_count(tournament) == 2
    assert db.session.get(PlayerImport, int(import_id)).confirmed_at is not None


def test_confirm_imports_the_previewed_file_not_a_later_one(organiser_client, tournament, app_ctx):
    first = preview(organiser_client, tournament, GOOD_CSV)
    preview(organiser_client, tournament, "first_name,last_name\nOther,Person\n")
    # A csv text sent along is ignored: only the kept file is imported.
    response = post_form(organiser_client, url(tournament, "/import/confirm"),
                         {"import_id": first, "csv_text": "first_name,last_name\nSneaky,Extra\n"},
                         form_url=url(tournament, "/import"))
    assert response.status_code == 302
    assert sorted(p.full_name for p in reg.list_players(tournament)) == ["Aino Virtanen", "Mikko Korhonen"]


def test_unknown_or_foreign_import_is_404_and_junk_id_is_400(organiser, organiser_client, tournament, app_ctx):
    from tournament.services.people.tournaments import TournamentData, create_tournament

    other = create_tournament(organiser, TournamentData(name="Other Open"))
    db.session.commit()
    foreign = preview(organiser_client, other, GOOD_CSV)
    assert confirm(organiser_client, tournament, foreign).status_code == 404
    assert confirm(organiser_client, tournament, "999999").status_code == 404
    assert confirm(organiser_client, tournament, "abc").status_code == 400
    assert confirm(organiser_client, tournament, str(2**40)).status_code == 400
    assert player_count(tournament) == 0
    assert player_count(other) == 0
    assert db.session.get(PlayerImport, int(foreign)).confirmed_at is None


def test_rows_registered_since_the_preview_refuse_the_import(organiser_client, tournament, app_ctx):
    import_id = preview(organiser_client, tournament, GOOD_CSV)
    reg.add_player(tournament, PlayerData(first_name="Aino", last_name="Virtanen", country="FI"))
    db.session.commit()
    response = confirm(organiser_client, tournament, import_id)
    assert response.status_code == 400
    assert "already registered" in response.get_data(as_text=True)
    assert player_count(tournament) == 1
    db.session.expire_all()
    assert db.session.get(PlayerImport, int(import_id)).confirmed_at is None  # the failed try is rolled back


def test_imports_older_than_a_day_are_purged_on_the_next_preview(organiser_client, tournament, app_ctx):
    stale, done = preview(organiser_client, tournament, GOOD_CSV), preview(organiser_client, tournament, GOOD_CSV)
    assert confirm(organiser_client, tournament, done).status_code == 302
    recent = preview(organiser_client, tournament, "first_name,last_name\nRecent,Person\n")
    for kept in db.session.scalars(select(PlayerImport).where(PlayerImport.id != int(recent))):
        kept.created_at = utcnow() - timedelta(days=2)
    db.session.commit()
    preview(organiser_client, tournament, "first_name,last_name\nNew,Person\n")
    db.session.expire_all()
    assert db.session.get(PlayerImport, int(stale)) is None
    assert db.session.get(PlayerImport, int(done)) is None
    assert confirm(organiser_client, tournament, stale).status_code == 404
    assert confirm(organiser_client, tournament, recent).status_code == 302  # a day old at most: kept


@POSTGRES_ONLY
def test_one_import_confirmed_from_two_tabs_at_once_is_stored_once(app, tournament, organiser):
    """The same kept file confirmed by two requests with different idempotency keys (two tabs on one
    preview): the conditional UPDATE lets one import; the other waits on the row, then is told."""
    base = f"/manage/tournaments/{tournament.id}"
    text = "first_name,last_name\n" + "".join(f"Tab{i},Twice{i}\n" for i in range(12))
    with live_server(app) as address:
        tab_a, tab_b = Browser(address).login(organiser.email), Browser(address).login(organiser.email)
        for round_number in range(ROUNDS):
            db.session.execute(Player.__table__.delete().where(Player.tournament_id == tournament.id))
            db.session.commit()
            page = tab_a.post(f"{base}/players/import", {"csrf_token": tab_a.csrf(f"{base}/players/import"),
                                                         "text": text})
            assert page.status == 200, page.status
            form_a = hidden_fields(page.body, "/players/import/confirm")
            form_b = {**form_a, "csrf_token": tab_b.csrf(f"{base}/players/import"), "idempotency_key": f"tab-b-{round_number}"}
            form_a["idempotency_key"] = f"tab-a-{round_number}"
            answers = together(partial(tab_a.post, f"{base}/players/import/confirm", form_a),
                               partial(tab_b.post, f"{base}/players/import/confirm", form_b))
            assert sorted(statuses(answers)) == [302, 409], statuses(answers)
            loser = next(a for a in answers if a.status == 409)
            assert "already imported" in loser.body
            assert player_count(tournament) == 12
