"""PDFs of the project, all in one style (`tournament.pdf.style`), and where they are saved.

`save_export` writes a generated file under the EXPORT_DIR setting (default `exports/`).
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,150}$")


def save_export(export_dir: str | os.PathLike[str], filename: str, data: bytes) -> Path:
    """Write `data` to export_dir/filename and return the path.

    The name must be a plain file name (letters, digits, '.', '_', '-'): never a path, so nothing
    is written outside the export folder. The file is replaced atomically: a reader downloading
    the previous version never gets half a file.
    """
    if not SAFE_NAME.match(filename) or ".." in filename:
        raise ValueError(f"Not a safe export file name: {filename!r}")
    folder = Path(export_dir)
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        target = folder / filename
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target
