"""The wheel runs anywhere (issue 35 item 3): built from this checkout, installed alone in a fresh virtualenv
(its dependencies from requirements.lock, no checkout on its path), its console script migrates a new SQLite
database and its gunicorn serves the home page, the static files, the version and a PDF, all from the files
the wheel carries."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from tests.deploy import servers

ROOT = servers.ROOT
pytestmark = pytest.mark.slow


def run(command: list[str], env: dict[str, str], cwd: Path, timeout: int = 600) -> str:
    done = subprocess.run(command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(command)}\n{done.stdout}\n{done.stderr}"
    return done.stdout


def get(url: str, token: str | None = None) -> tuple[int, str, bytes]:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return answer.status, answer.headers.get("Content-Type", ""), answer.read()


def test_the_wheel_alone_migrates_and_serves_pages_and_pdfs(tmp_path):
    from tournament import __version__

    dist = tmp_path / "dist"
    started = time.monotonic()
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(dist), str(ROOT)],
        dict(os.environ), tmp_path)
    [wheel] = dist.glob("mcr_tournament-*.whl")
    built = time.monotonic() - started
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("tournament/_bundled/templates/base.html", "tournament/_bundled/static/css/app.css",
                   "tournament/_bundled/static/img/favicon.ico", "tournament/_bundled/migrations/env.py",
                   "tournament/_bundled/migrations/alembic.ini",
                   "tournament/translations/fi/LC_MESSAGES/messages.mo", "tournament/mcr/data/fans.csv"):
        assert needed in names, needed
    assert any(n.startswith("tournament/_bundled/migrations/versions/") for n in names)
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "mcr-tournament = tournament.__main__:main" in zipfile.ZipFile(wheel).read(entry_points).decode()

    # A fresh virtualenv, from the interpreter's base (not this one's .venv), with nothing of the checkout.
    venv = tmp_path / "venv"
    base_python = getattr(sys, "_base_executable", sys.executable)
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV", "DATABASE_URL", "SECRET_KEY", "INSTANCE_PATH", "EXPORT_DIR",
                          "FLASK_APP", "PUBLIC_URL", "TEST_DATABASE_URL")}
    started = time.monotonic()
    run([base_python, "-m", "venv", str(venv)], env, away)
    python = venv / "bin" / "python"
    run([str(python), "-m", "pip", "install", "--quiet", "--require-hashes", "-r", str(ROOT / "requirements.lock")],
        env, away)
    run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", str(wheel)], env, away)
    installed = time.monotonic() - started
    where = run([str(python), "-c", "import tournament; print(tournament.__file__)"], env, away).strip()
    assert where.startswith(str(venv)) and not where.startswith(str(ROOT)), where

    cli = str(venv / "bin" / "mcr-tournament")
    assert run([cli, "--version"], env, away).strip() == f"mcr-tournament {__version__}"
    database = tmp_path / "wheel.db"
    env = {**env, "DATABASE_URL": f"sqlite:///{database}"}
    run([cli, "db", "upgrade"], env, away)
    heads = run([cli, "db", "heads"], env, away).split()[0]
    assert run([cli, "db", "current"], env, away).split()[0] == heads  # migrated to the newest revision
    run([cli, "users", "create", "organiser@example.org", "--role", "organiser", "--password", "a long password 1"],
        env, away)
    token = run([cli, "users", "token", "organiser@example.org"], env, away).strip().splitlines()[-1]
    run([cli, "demo", "--players", "8", "--owner", "organiser@example.org"], env, away)
    # No SECRET_KEY: the key was made once in Flask's instance folder of the virtualenv, not in site-packages.
    assert (venv / "var" / "tournament-instance" / "secret_key").is_file()

    port = servers.free_port()
    server = subprocess.Popen(
        [str(venv / "bin" / "gunicorn"), "--bind", f"127.0.0.1:{port}", "--workers", "1", "tournament:create_app()"],
        env=env, cwd=away, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        servers.wait_until_up(port, server, "the wheel's gunicorn")
        base = f"http://127.0.0.1:{port}"
        status, kind, page = get(base + "/")
        assert status == 200 and kind.startswith("text/html")
        text = page.decode()
        assert f'<span class="app-version" translate="no">{__version__}</span>' in text
        css = text.split('href="/static/css/app.css?v=', 1)[1].split('"', 1)[0]
        status, kind, body = get(f"{base}/static/css/app.css?v={css}")
        assert status == 200 and body == (ROOT / "static" / "css" / "app.css").read_bytes()
        assert get(base + "/favicon.ico")[2] == (ROOT / "static" / "img" / "favicon.ico").read_bytes()
        status, kind, body = get(base + "/api/v1/version")
        assert body.decode().replace(" ", "").find(f'"version":"{__version__}"') >= 0
        status, kind, pdf = get(base + "/api/v1/tournaments/1/standings.pdf", token)
        assert status == 200 and kind == "application/pdf" and pdf.startswith(b"%PDF-")
        status, kind, pdf = get(base + "/api/v1/tournaments/1/sessions/1/seating.pdf", token)
        assert status == 200 and pdf.startswith(b"%PDF-")
    finally:
        servers.stop(server)
    print(f"wheel {wheel.stat().st_size:,} bytes, built in {built:.0f} s; fresh virtualenv with the lock's "
          f"dependencies and the wheel in {installed:.0f} s")
