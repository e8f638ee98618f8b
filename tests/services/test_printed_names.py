"""The PDFs write each name in its own order (issue 35 item 9): a Chinese name in Chinese characters as 张伟,
a Hungarian player as Kovács János, a Finn as Aino-Maija Järvinen-Öhman, never broken inside a word; the
alphabetical lists still sort by family name."""

from __future__ import annotations

import io

import pypdf

from tests.helpers import add_players, make_tournament
from tournament.extensions import db
from tournament.models import Player, PlayerStatus
from tournament.models._common import utcnow
from tournament.services.documents import exports
from tournament.services.seating import draws as draw_service

PEOPLE = [("伟", "张", "CN"), ("János", "Kovács", "HU"), ("Aino-Maija", "Järvinen-Öhman", "FI"),
          ("Taro", "Yamada", "JP")]


def text_of(document) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(document.data)).pages)


def seated(organiser):
    t = make_tournament(organiser, name="Names Open", session_count=2)
    for first, last, country in PEOPLE:
        db.session.add(Player(tournament_id=t.id, first_name=first, last_name=last, country=country,
                              status=PlayerStatus.PRESENT, checked_in_at=utcnow()))
    add_players(t, 4)
    draw_service.draw_next(t, seed=1)
    db.session.commit()
    return t


def test_each_pdf_writes_names_in_their_order(organiser):
    t = seated(organiser)
    for document in (exports.seating_pdf(t, 1), exports.score_sheets_pdf(t, 1), exports.schedule_cards_pdf(t),
                     exports.standings_pdf(t), exports.player_links_pdf(t, lambda token: f"https://x.org/p/{token}")):
        text = text_of(document)
        assert "张伟" in text and "伟 张" not in text, document.filename
        assert "Kovács János" in text.replace("\n", " ") and "János Kovács" not in text, document.filename
        assert "Yamada Taro" in text.replace("\n", " "), document.filename
        assert "Järvinen-Öhman" in text, document.filename  # never cut inside
        assert "P000 Player000" in text.replace("\n", " "), document.filename  # a Finn: given name first


def test_the_alphabetical_list_still_sorts_by_family_name(organiser):
    t = seated(organiser)
    rows = exports.seat_rows(draw_service.get_session(t, 1))
    order = [r.name for r in sorted(rows, key=lambda r: r.sort_name)]
    assert order.index("Aino-Maija Järvinen-Öhman") < order.index("Kovács János")
    assert order.index("Kovács János") < order.index("Yamada Taro") < order.index("张伟")
