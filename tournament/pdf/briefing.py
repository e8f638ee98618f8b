"""The rules briefing: a printable sheet of the readings a tournament plays by (its settings, MERS and the
engine's readings of unclear Green Book rules), for the players' briefing. Built from plain texts in the
document's language (`services.documents.briefing` chooses and words them)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, Paragraph, Spacer

from tournament.pdf.style import (
    ENGLISH,
    PdfWords,
    build_story_pdf,
    content_width,
    heading,
    lines_markup,
    paragraph_style,
)


@dataclass(frozen=True)
class BriefingSection:
    title: str
    points: Sequence[str]   # each a short paragraph, already in the document's language


def build_briefing_pdf(title: str, subtitle: str, sections: Sequence[BriefingSection], generated_at: datetime,
                       words: PdfWords = ENGLISH) -> bytes:
    width = content_width(False)
    story: list[Flowable] = []
    for section in sections:
        story += [heading(section.title, width=width), Spacer(1, 1 * mm)]
        for point in section.points:
            story.append(Paragraph(lines_markup(f"• {point}", width), paragraph_style()))
            story.append(Spacer(1, 1 * mm))
        story.append(Spacer(1, 3 * mm))
    return build_story_pdf(title, subtitle, generated_at, story, words=words)
