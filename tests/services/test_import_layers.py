"""Time calls have one module (services.time_calls): score entry no longer imports the clock, whose actions
call score entry (the clock <-> scoring import circle is gone)."""

from __future__ import annotations

import subprocess
import sys


def loaded_after(module: str) -> set[str]:
    code = f"import sys, {module}; print(' '.join(m for m in sys.modules if m.startswith('tournament.services')))"
    return set(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split())


def test_scoring_does_not_import_the_clock():
    loaded = loaded_after("tournament.services.scoring")
    assert "tournament.services.time_calls" in loaded
    assert "tournament.services.clock" not in loaded


def test_the_clock_imports_scoring_at_the_top():
    assert "tournament.services.scoring" in loaded_after("tournament.services.clock")
