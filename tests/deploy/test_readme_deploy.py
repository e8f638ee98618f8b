"""The README documents one way to run the app, the shipped one (issue 22 item 15): every gunicorn command
in README.md and deploy/ reads deploy/gunicorn.conf.py (threaded workers behind nginx), none runs bare sync
workers that a few half-sent requests freeze."""

from __future__ import annotations

import re

from tests.deploy import servers

ROOT, DEPLOY = servers.ROOT, servers.DEPLOY
# A command line that starts gunicorn (not prose about it): the executable followed by its arguments.
GUNICORN_COMMAND = re.compile(r"(?:^|[\s/\"'])gunicorn\s+(-\S.*|\S+:app.*)$", re.MULTILINE)


def commands(text: str) -> list[str]:
    return [m.group(0).strip() for m in GUNICORN_COMMAND.finditer(text)]


def test_every_documented_or_shipped_gunicorn_command_uses_the_shipped_settings():
    found = {}
    for path in [ROOT / "README.md", *sorted(p for p in DEPLOY.iterdir() if p.name != "gunicorn.conf.py")]:
        for command in commands(path.read_text()):
            found.setdefault(path.name, []).append(command)
    assert "README.md" in found, "the README no longer shows how to start gunicorn"
    assert {"Dockerfile", "mcr-tournament.service"} <= found.keys()
    for name, lines in found.items():
        for command in lines:
            assert "-c deploy/gunicorn.conf.py" in command, f"{name}: {command}"
            assert not re.search(r"--(workers|bind|worker-class|threads)\b|\s-[wbk]\s", command), (
                f"{name}: settings belong in deploy/gunicorn.conf.py: {command}")


def test_the_shipped_settings_are_threaded_workers_on_loopback():
    settings = (DEPLOY / "gunicorn.conf.py").read_text()
    assert 'worker_class = "gthread"' in settings
    assert '"GUNICORN_BIND", "127.0.0.1:8000"' in settings
    assert "server 127.0.0.1:8000;" in (DEPLOY / "nginx-site.conf").read_text()


def test_every_documented_make_target_exists_and_install_has_no_dev_tools():
    """deploy/README.md told admins to `make install`, which the Makefile lacked."""
    import subprocess

    makefile = (ROOT / "Makefile").read_text()
    targets = set(re.findall(r"^([a-z][a-z-]*):", makefile, re.MULTILINE))
    for path in (ROOT / "README.md", DEPLOY / "README.md", ROOT / "ARCHITECTURE.md"):
        for target in re.findall(r"\bmake ([a-z][a-z-]*)", path.read_text()):
            assert target in targets, f"{path.name} documents `make {target}`, which the Makefile lacks"
    plan = subprocess.run(["make", "--no-print-directory", "-n", "-B", "install"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert "pip install" in plan.stdout and "[dev]" not in plan.stdout, plan.stdout
    assert plan.stdout.rstrip().endswith("db upgrade"), plan.stdout
