"""A deploy a club volunteer can follow (issue 21 item 14): no forced Secure cookies on the port-80 site, a
.dockerignore that keeps the secret key and the virtualenv out of the image, deploy/README.md's Debian steps,
and the hourly backup (pg_dump and each tournament's export.json) run for real in a throwaway directory."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from tests.deploy import servers

ROOT, DEPLOY = servers.ROOT, servers.DEPLOY


def test_the_port_80_site_does_not_force_secure_cookies():
    site = (DEPLOY / "nginx-site.conf").read_text()
    unit = (DEPLOY / "mcr-tournament.service").read_text()
    assert re.search(r"^\s*listen 80;", site, re.MULTILINE) and "ssl" not in site
    # Forced Secure cookies over plain HTTP: the browser drops them and every login is "400 Form expired".
    assert not re.search(r"^Environment=SECURE_COOKIES=1", unit, re.MULTILINE)
    assert "Environment=TRUSTED_PROXIES=1" in unit  # so X-Forwarded-Proto decides
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site


def test_dockerignore_keeps_the_secret_and_the_clutter_out_of_the_image():
    patterns = {line.strip().rstrip("/").removeprefix("**/") for line in (ROOT / ".dockerignore").read_text().splitlines()
                if line.strip() and not line.startswith("#")}
    for needed in (".venv", ".git", "instance", "exports", "__pycache__", ".pytest_cache", "node_modules"):
        assert needed in patterns, needed
    assert "COPY . ." in (DEPLOY / "Dockerfile").read_text()  # what the file protects


def test_the_readme_walks_through_every_step():
    text = (DEPLOY / "README.md").read_text()
    for step in ("createuser --pwprompt mcr", "createdb --owner mcr", "/etc/mcr-tournament.env", "chmod 600",
                 "make install", "certbot --nginx", "mcr-backup.timer", "pg_dump", "flask backup", "git pull",
                 "journalctl -u mcr-tournament", "pg_restore"):
        assert step in text, step
    for name in re.findall(r"(?<![\w/])deploy/([\w.-]+)", text):  # every file it copies is shipped
        assert (DEPLOY / name).exists() or name == ".env", name  # .env: compose-env.sh writes it
    timer = (DEPLOY / "mcr-backup.timer").read_text()
    assert "OnCalendar=hourly" in timer and "Persistent=true" in timer
    assert "ExecStart=/srv/mcr-tournament/deploy/mcr-backup.sh" in (DEPLOY / "mcr-backup.service").read_text()
    assert os.access(DEPLOY / "mcr-backup.sh", os.X_OK)


@pytest.mark.postgres
def test_the_backup_script_writes_the_dump_and_every_tournaments_json(database_url, tournament, tmp_path):
    env = {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x", "APP_DIR": str(ROOT),
           "BACKUP_DIR": str(tmp_path / "backups"), "INSTANCE_PATH": str(tmp_path / "instance"),
           "EXPORT_DIR": str(tmp_path / "exports")}
    postgres = database_url.startswith("postgresql")
    if postgres and not shutil.which("pg_dump"):
        pytest.skip("pg_dump is not installed")
    if postgres:
        env["DATABASE_URL"] = database_url.replace("postgresql+psycopg://", "postgresql://")
    else:  # no PostgreSQL here: a stand-in pg_dump that records how it was called
        bin_dir = tmp_path / "bin"
        bin_dir.mkdir()
        fake = bin_dir / "pg_dump"
        fake.write_text('#!/bin/sh\necho "$@" > "$(dirname "$0")/args"\n'
                        'for a in "$@"; do case $a in --file=*) echo dump > "${a#--file=}";; esac; done\n')
        fake.chmod(0o755)
        env["PATH"] = f"{bin_dir}:{env['PATH']}"
    old = tmp_path / "backups" / "20000101-000000"
    old.mkdir(parents=True)
    os.utime(old, (0, 0))  # older than KEEP_DAYS: removed
    done = subprocess.run([str(DEPLOY / "mcr-backup.sh")], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    [folder] = (tmp_path / "backups").iterdir()
    assert folder.name != old.name
    document = json.loads((folder / "json" / f"tournament-{tournament.id}.json").read_text())
    assert tournament.name in json.dumps(document)
    dump = folder / "database.dump"
    assert dump.stat().st_size > 0
    if postgres and shutil.which("pg_restore"):
        listing = subprocess.run(["pg_restore", "--list", str(dump)], capture_output=True, text=True, check=True)
        assert "TABLE public tournaments" in listing.stdout
    elif not postgres:
        args = (tmp_path / "bin" / "args").read_text()
        assert "--format=custom" in args and database_url in args
