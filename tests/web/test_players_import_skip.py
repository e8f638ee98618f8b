"""The players CSV import can leave out its bad rows (issue 21 item 10): the preview offers an explicit
"import the N good rows, skip the M bad ones"; without that choice it stays all or nothing, a file that
cannot be read offers no such choice, and a list that changed since the preview imports nothing."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from tests.helpers import csrf_token
from tournament.extensions import db
from tournament.models import Player
from tournament.services.people import registration as reg
from tournament.services.people.registration import PlayerData

MIXED_CSV = ("first_name,last_name,country,substitute\n"
             "Aino,Virtanen,FI,no\n"
             "Mikko,Korhonen,FI,maybe\n"   # row 3: substitute is not yes or no
             "Liisa,Mäkinen,FI,\n"
             "Aino,Virtanen,FI,no\n"       # row 5: the same player as row 2
             "Pekka,Nieminen,FI,yes\n")
SKIP_BUTTON = "Import the 3 good rows, skip the 2 bad ones"


def url(t, path: str = "") -> str:
    return f"/manage/tournaments/{t.id}/players{path}"


def players(t) -> list[str]:
    return sorted(db.session.scalars(select(Player.last_name).where(Player.tournament_id == t.id)))


def preview(client, t, text: str):
    return client.post(url(t, "/import"), data={"csrf_token": csrf_token(client, url(t, "/import")), "text": text})


def skip_form(html: str) -> dict[str, str]:
    """The hidden fields of the form whose button skips the bad rows, as the browser would send them."""
    form = next(f for f in re.findall(r"<form[^>]*>.*?</form>", html, re.S) if SKIP_BUTTON in f)
    return dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form)) | {
        name: value for value, name in re.findall(r'<input[^>]*value="([^"]*)"[^>]*name="([^"]+)"', form)}


def test_the_good_rows_go_in_when_the_organiser_chooses_to_skip_the_bad(organiser_client, tournament):
    page = preview(organiser_client, tournament, MIXED_CSV)
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Nothing was imported: 2 of 5 rows have problems" in html
    assert SKIP_BUTTON in html
    fields = skip_form(html)
    assert (fields["skip_bad_rows"], fields["good_rows"]) == ("2", "3")
    assert players(tournament) == []  # a preview saves nothing
    done = organiser_client.post(url(tournament, "/import/confirm"), data=fields, follow_redirects=True)
    assert done.status_code == 200
    assert "Imported 3 players. 2 rows with problems skipped." in done.get_data(as_text=True)
    assert players(tournament) == ["Mäkinen", "Nieminen", "Virtanen"]
    # Once: the same form sent again (a new key: not a replay) imports nothing more.
    again = organiser_client.post(url(tournament, "/import/confirm"),
                                  data={k: v for k, v in fields.items() if k != "idempotency_key"})
    assert again.status_code == 409 and len(players(tournament)) == 3


def test_a_list_changed_since_the_preview_imports_nothing(organiser_client, tournament):
    fields = skip_form(preview(organiser_client, tournament, MIXED_CSV).get_data(as_text=True))
    reg.add_player(tournament, PlayerData(first_name="Liisa", last_name="Mäkinen", country="FI"))  # row 4 now a duplicate
    db.session.commit()
    answer = organiser_client.post(url(tournament, "/import/confirm"), data=fields)
    assert answer.status_code == 409
    assert "The list changed since the preview: 2 rows are fine and 3 have problems now" in answer.get_data(as_text=True)
    assert players(tournament) == ["Mäkinen"]


def test_no_skip_offered_for_an_unreadable_file_or_a_clean_one(organiser_client, tournament):
    html = preview(organiser_client, tournament, "first_name,surname\nAino,Virtanen\n").get_data(as_text=True)
    assert "Unknown column" in html and "skip the" not in html
    clean = preview(organiser_client, tournament, "first_name,last_name\nAino,Virtanen\n")
    assert clean.status_code == 200 and "skip the" not in clean.get_data(as_text=True)
    # All bad: nothing to import, so no choice either.
    html = preview(organiser_client, tournament, "first_name,last_name,substitute\nAino,Virtanen,maybe\n")
    assert "skip the" not in html.get_data(as_text=True)
    assert db.session.scalar(select(func.count()).select_from(Player)) == 0
