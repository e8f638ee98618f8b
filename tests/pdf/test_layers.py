"""pdf/ draws documents from plain rows: it imports no service, model, database or Flask code."""

from __future__ import annotations

import subprocess
import sys


def test_pdf_imports_no_service_model_or_flask():
    code = ("import sys, tournament.pdf.cards, tournament.pdf.penalties, tournament.pdf.score_sheets, "
            "tournament.pdf.seating, tournament.pdf.standings; "
            "print(' '.join(sorted(m for m in sys.modules if m.startswith(('tournament.services', "
            "'tournament.models', 'tournament.web', 'flask', 'sqlalchemy')))))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert loaded == []
