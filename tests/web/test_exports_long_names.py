"""The staff PDFs of a tournament whose players have the longest names the forms accept (80 + 80
characters) in eight scripts: each answers 200 with a PDF (the score sheets were a LayoutError and a 500
for the whole session), and every name is printed."""

from __future__ import annotations

import re

import pytest

from tests.helpers import SCRIPTS, Api, fill, longest_name, pdf_text, token_for
from tournament.extensions import db
from tournament.models import Player
from tournament.services.play import penalties
from tournament.services.play import session as play

pytestmark = pytest.mark.postgres


def lengthen_names(t) -> dict[int, str]:
    """Every player of `t` renamed to the longest name in another script; their printed names by id."""
    names = {}
    players = sorted(db.session.scalars(db.select(Player).where(Player.tournament_id == t.id)), key=lambda p: p.id)
    for player, script in zip(players, SCRIPTS, strict=True):
        first, last = longest_name(script).rsplit(" ", 1)
        player.first_name, player.last_name = first, last
        names[player.id] = player.full_name
    t.name = fill("Wolfeschlegelsteinhausen", 120)
    first = play.table_players(play.get_session(t, 1), 1)[0].player_id
    penalties.give_penalty(t, player_id=first, session_number=1, amount=10, reason=fill("Щербаковская", 500),
                           user=None)
    db.session.commit()
    return names


def test_every_staff_pdf_prints_the_longest_names_in_every_script(organiser_client, played):  # noqa: F811
    t = played
    names = lengthen_names(t)
    assert all(len(first) == len(last) == 80 for first, last in (n.rsplit(" ", 1) for n in names.values()))
    base = f"/manage/tournaments/{t.id}/exports"
    for url in (f"{base}/sessions/1/score-sheets.pdf", f"{base}/sessions/1/seating.pdf",
                f"{base}/schedule-cards.pdf", f"{base}/penalties.pdf", f"/manage/tournaments/{t.id}/standings.pdf"):
        response = organiser_client.get(url)
        assert response.status_code == 200, url
        assert response.mimetype == "application/pdf"
        pages = pdf_text(response.data)
        if url.endswith("score-sheets.pdf"):
            assert len(pages) == 2  # a page per table, every name in its column
            flat = re.sub(r"\s+", "", "".join(pages))
            latin = next(n for n in names.values() if n.startswith("Wolfe"))
            assert re.sub(r"\s+", "", latin) in flat


def test_api_score_sheets_with_the_longest_names(client, organiser, played):  # noqa: F811
    lengthen_names(played)
    api = Api(client, token_for(organiser))
    sheets = api.get(f"/tournaments/{played.id}/sessions/1/score-sheets.pdf", expect=200)
    assert len(pdf_text(sheets.data)) == 2
