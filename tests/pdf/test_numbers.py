"""Issue 32 item 5: the numbers of a PDF in the document's language, as its pages write them (one helper for
both, tournament.text.local_number): the Finnish standings PDF writes 1,5 where it wrote 1.5, and a Swedish
penalty list groups the digits of 1 200."""

from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal
from fractions import Fraction

import pypdf
import pytest
from flask_babel import force_locale

from tournament import i18n
from tournament.extensions import db
from tournament.pdf.penalties import PenaltyRow, PenaltyWords, build_penalties_pdf
from tournament.pdf.style import PdfWords
from tournament.services.documents import exports
from tournament.text import local_number, local_points

LANGUAGES = ("en", "fi", "sv", "es", "zh")


def text_of(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(data)).pages)


def test_one_number_format_for_pages_and_documents():
    assert local_points(Fraction(23, 2), "fi") == "11,5" and local_points(Fraction(23, 2), "en") == "11.5"
    assert local_points(Fraction(7, 3), "sv") == "2,33" and local_points(3, "zh") == "3"
    assert local_number(Decimal("-280.5"), "es") == "-280,5" and local_number(-280, "en") == "-280"
    assert local_number(1234, "sv") == "1\u00a0234" and local_number(1234, "en") == "1,234"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_standings_pdf_writes_numbers_as_the_pages_do(played, language):
    # `played`: table 2's tie for second shares 2 + 1 table points, 1.5 each; the scores are negative.
    played.language = language
    db.session.commit()
    text = text_of(exports.standings_pdf(played).data)
    with force_locale(language):
        half, minus_fifteen = i18n.table_points(Fraction(3, 2)), i18n.score(-15)
    assert half in text and minus_fifteen in text
    if language in ("fi", "sv", "es"):
        assert half == "1,5" and "1.5" not in text


def test_the_penalty_list_groups_digits_in_its_language():
    row = PenaltyRow(session=1, table=2, hand=3, player="Aino Järvinen", amount=1200, reason="Kurinpito",
                     given_at=datetime(2026, 5, 16, 10))
    finnish = text_of(build_penalties_pdf("T", "S", [row], datetime(2026, 5, 16, 11),
                                          PenaltyWords(page=PdfWords(language="fi"))))
    english = text_of(build_penalties_pdf("T", "S", [row], datetime(2026, 5, 16, 11)))
    # (pypdf reads the no-break space as a space)
    assert "\u22121 200" in finnish.replace("\u00a0", " ") and "\u22121,200" in english
