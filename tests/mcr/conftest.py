"""Make the harness modules (handgen, reference) importable by the tests of this folder,
whether pytest imports them as rootless modules or as a package."""

import sys
from pathlib import Path

_HERE = str(Path(__file__).resolve().parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
