"""Schedule cards and the penalty list, read back with pypdf."""

import io
import re
from datetime import datetime

import pypdf

from tournament.pdf.cards import CardEntry, ScheduleCard, build_cards_pdf
from tournament.pdf.penalties import PenaltyRow, build_penalties_pdf

GENERATED = datetime(2026, 5, 2, 9, 15)
WINDS = {"E": "East", "S": "South", "W": "West", "N": "North"}


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def test_one_card_per_player_alphabetically_with_every_session():
    cards = []
    for i in range(30):
        entries = [CardEntry(s, (i + 3 * s) % 8 + 1, "ESWN"[(i + s) % 4]) for s in (1, 2, 3) if not (i == 5 and s == 2)]
        cards.append(ScheduleCard(i, f"First{i:02d} Last{29 - i:02d}", f"Last{29 - i:02d}, First{i:02d}", "FI",
                                  entries))
    pdf = build_cards_pdf("Helsinki Open: schedule cards", "Your seats", cards, [1, 2, 3, 4], GENERATED)
    pages = pages_text(pdf)
    assert len(pages) >= 3  # six cards or so to a page
    for number, text in enumerate(pages, start=1):
        assert "Helsinki Open: schedule cards" in text and f"Page {number} of {len(pages)}" in text
        assert "Generated 2026-05-02 09:15 UTC" in text
    text = "\n".join(pages)
    names = re.findall(r"First\d{2} Last\d{2}", text)
    assert names == [c.name for c in sorted(cards, key=lambda c: c.sort_name)]  # each once, by last name
    # a card reads: name (country), header, then session / table / seat for sessions 1-4
    for card in (cards[0], cards[5], cards[17]):
        start = text.index(card.name)
        block = [line.strip() for line in text[start:].split("\n")]
        assert block[0] == f"{card.name} (FI)" and block[1:4] == ["Session", "Table", "Seat"]
        cells = block[4:4 + 12]
        by_session = {e.session: e for e in card.entries}
        expected = []
        for s in (1, 2, 3, 4):
            e = by_session.get(s)
            expected += [str(s), str(e.table), WINDS[e.wind]] if e else [str(s), "–", "–"]
        assert cells == expected, card.name


def test_penalty_list_with_cancelled_penalties():
    rows = [PenaltyRow(2, 3, 7, "Zoë Łukasz", 10, "Slow play after two warnings", datetime(2026, 5, 1, 10, 5),
                       "Rafael Referee"),
            PenaltyRow(1, 1, None, "王 小明", 30, "Showing tiles", datetime(2026, 5, 1, 9, 0), "Olivia",
                       cancelled=True, cancel_reason="given to the wrong player")]
    pages = pages_text(build_penalties_pdf("Cup: penalties", "1 active, 1 cancelled", rows, GENERATED))
    assert len(pages) == 1
    text = pages[0]
    for heading in ("Session", "Table", "Hand", "Player", "Points", "Reason", "Given", "Status"):
        assert heading in text
    assert text.index("王 小明") < text.index("Zoë Łukasz")  # by session
    assert "−30" in text and "−10" in text
    assert "cancelled: given to the wrong player" in text.replace("\n", " ")
    assert "2026-05-01 10:05 UTC by Rafael Referee" in text.replace("\n", " ")  # a naive time is UTC
