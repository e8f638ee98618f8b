"""The compose stack for a volunteer (issue 35 item 1): nginx in a container of its own reaching the app by its
service name, health checks, a daily backup service, the secrets in deploy/.env written once, and the README's
steps to restore and to upgrade.

Where docker can start the stack (a CI runner with the compose plugin and the images), the last test starts
it, restarts the app under nginx and takes a backup. Elsewhere (this project's machines have no Docker Hub)
every file of it is run here for real: the compose file read and checked; compose-env.sh writing the env file
once; nginx -t, then the site serving the app, on what compose-nginx.sh renders; the backup script against
PostgreSQL and its dump restored with the README's command; the upgrade's migration and restart keeping every
login."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.deploy import servers

ROOT, DEPLOY = servers.ROOT, servers.DEPLOY
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
SERVICES = COMPOSE["services"]
README = (DEPLOY / "README.md").read_text()
COMPOSE_STEPS = README.split("## Docker compose, step by step", 1)[1]


# --- the compose file -----------------------------------------------------------------------------------------


def test_nginx_has_a_container_of_its_own_and_reaches_the_app_by_name():
    assert set(SERVICES) == {"db", "app", "nginx", "backup"}
    nginx, app = SERVICES["nginx"], SERVICES["app"]
    assert "network_mode" not in nginx and "network_mode" not in app  # restarting the app no longer cuts nginx off
    assert nginx["ports"] == ["${HTTP_PORT:-8080}:80"] and "ports" not in app  # only nginx is published
    assert app["expose"] == ["8000"] and app["environment"]["FORWARDED_ALLOW_IPS"] == "*"
    assert app["image"] == SERVICES["backup"]["image"] and app["build"] == SERVICES["backup"]["build"]
    # nginx follows the app: waits for it to be healthy, and compose restarts nginx with it.
    assert nginx["depends_on"]["app"] == {"condition": "service_healthy", "restart": True}
    # The image must know `server app:8000 resolve` (nginx 1.27.3 or later).
    tag = nginx["image"].split(":", 1)[1]
    major, minor = (int(n) for n in re.match(r"(\d+)\.(\d+)", tag).groups())
    assert (major, minor) >= (1, 28), tag


def test_every_service_has_a_health_check_and_waits_for_what_it_needs():
    for name, service in SERVICES.items():
        assert service.get("healthcheck", {}).get("test"), f"{name} has no health check"
        assert service.get("restart") == "unless-stopped", name
    assert SERVICES["app"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert SERVICES["backup"]["depends_on"] == {"db": {"condition": "service_healthy"},
                                                "app": {"condition": "service_healthy"}}
    app_check = " ".join(SERVICES["app"]["healthcheck"]["test"])
    assert "http://127.0.0.1:8000/api/v1/version" in app_check  # the image's python, no curl in it


def test_the_secrets_come_from_the_env_file_only():
    app_env, db_env = SERVICES["app"]["environment"], SERVICES["db"]["environment"]
    # No default secret: without deploy/.env compose refuses to start and says what to run.
    assert app_env["SECRET_KEY"] == "${SECRET_KEY:?run deploy/compose-env.sh first}"
    assert db_env["POSTGRES_PASSWORD"] == "${POSTGRES_PASSWORD:?run deploy/compose-env.sh first}"
    assert "${POSTGRES_PASSWORD:?" in app_env["DATABASE_URL"]
    assert "SECRET_KEY" not in SERVICES["nginx"]["environment"]
    assert "deploy/.env" in (ROOT / ".gitignore").read_text().splitlines()  # git pull never touches it
    assert "deploy/.env" in (ROOT / ".dockerignore").read_text().splitlines()  # never in an image


def test_the_backup_service_keeps_fourteen_days():
    backup = SERVICES["backup"]
    assert backup["command"] == ["sh", "deploy/compose-backup.sh"]
    assert backup["environment"]["KEEP_DAYS"] == "14"
    assert backup["volumes"] == ["backups:/var/backups/mcr-tournament"]
    assert set(COMPOSE["volumes"]) == {"pgdata", "appdata", "backups"}
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "postgresql-client-16" in dockerfile and SERVICES["db"]["image"] == "postgres:16"  # pg_dump = server


# --- deploy/compose-env.sh ------------------------------------------------------------------------------------


def env_script(tmp_path: Path, *args: str, docker_volume: bool = False) -> subprocess.CompletedProcess:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    docker = bin_dir / "docker"  # a stand-in: does the database volume exist?
    docker.write_text(f"#!/bin/sh\nexit {0 if docker_volume else 1}\n")
    docker.chmod(0o755)
    env = {**os.environ, "ENV_FILE": str(tmp_path / ".env"), "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    return subprocess.run(["sh", str(DEPLOY / "compose-env.sh"), *args], env=env, capture_output=True, text=True)


def read_env(path: Path) -> dict[str, str]:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if line and not line.startswith("#"))


def test_the_env_file_is_written_once_and_kept(tmp_path):
    done = env_script(tmp_path, "http://192.168.1.10:8080/")
    assert done.returncode == 0, done.stderr
    env_file = tmp_path / ".env"
    values = read_env(env_file)
    assert values["PUBLIC_URL"] == "http://192.168.1.10:8080" and values["HTTP_PORT"] == "8080"
    assert re.fullmatch(r"[0-9a-f]{64}", values["SECRET_KEY"])
    assert re.fullmatch(r"[0-9a-f]{48}", values["POSTGRES_PASSWORD"])
    assert stat.S_IMODE(env_file.stat().st_mode) == 0o600
    before = env_file.read_bytes()
    # An upgrade, or someone running it again with another address: the file, and so every login, stays.
    again = env_script(tmp_path, "http://10.0.0.5:9000")
    assert again.returncode == 0 and "kept" in again.stdout
    assert env_file.read_bytes() == before


@pytest.mark.parametrize(("url", "port"), [("http://tournament.example.org", "80"),
                                           ("https://tournament.example.org", "8080"),
                                           ("http://[fd00::2]:8081", "8081"), (None, "8080")])
def test_the_published_port_is_the_addresses(tmp_path, url, port):
    done = env_script(tmp_path, *([url] if url else []))
    assert done.returncode == 0, done.stderr
    assert read_env(tmp_path / ".env")["HTTP_PORT"] == port


@pytest.mark.parametrize("url", ["192.168.1.10:8080", "http://host/path", "http://host:eighty", "ftp://host"])
def test_a_wrong_address_writes_nothing(tmp_path, url):
    done = env_script(tmp_path, url)
    assert done.returncode == 2 and "PUBLIC_URL" in done.stderr
    assert not (tmp_path / ".env").exists()


def test_a_stack_started_before_the_env_file_keeps_its_database_password(tmp_path):
    done = env_script(tmp_path, "http://localhost:8080", docker_volume=True)
    assert done.returncode == 0, done.stderr
    assert read_env(tmp_path / ".env")["POSTGRES_PASSWORD"] == "mcr"  # the old compose file's default


# --- deploy/compose-nginx.sh ----------------------------------------------------------------------------------


def compose_site(public_url: str, ipv6: bool = True) -> str:
    env = {**os.environ, "SITE": str(DEPLOY / "nginx-site.conf"), "PUBLIC_URL": public_url}
    command = ["sh", str(DEPLOY / "compose-nginx.sh"), "render"]
    if not ipv6:  # as in a container without IPv6: /proc/net/if_inet6 is missing
        script = (DEPLOY / "compose-nginx.sh").read_text().replace("/proc/net/if_inet6", "/nonexistent/if_inet6")
        command = ["sh", "-c", script, "compose-nginx.sh", "render"]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return done.stdout


def test_the_compose_site_names_the_app_by_its_service():
    site = compose_site("http://192.168.1.10:8080")
    assert site.count("server app:8000 resolve;") == 2  # the app, and the live pages (no live gunicorn here)
    assert "zone mcr_tournament_app 64k;" in site and "zone mcr_tournament_live 64k;" in site
    assert "127.0.0.1:8000" not in site.replace("Gunicorn listens on 127.0.0.1:8000", "")
    assert "127.0.0.1:8001" not in re.sub(r"(?m)^#.*$", "", site)
    assert re.search(r"(?m)^resolver 127\.0\.0\.11 valid=10s", site)  # Docker's DNS, asked again every 10 s
    assert "server_name 192.168.1.10;" in site and "listen [::]:80;" in site
    assert "listen [::]" not in compose_site("http://192.168.1.10:8080", ipv6=False)


@pytest.mark.parametrize(("public_url", "name"), [("http://localhost:8080", "localhost"),
                                                  ("https://Mahjong.example.org", "Mahjong.example.org"),
                                                  ("http://[fd00::2]:8080", "[fd00::2]")])
def test_the_compose_site_takes_public_urls_host_as_its_name(public_url, name):
    assert f"server_name {name};" in compose_site(public_url)


def for_this_machine(site: str, app_port: int, port: int, tmp_path: Path) -> str:
    """The rendered site with this machine's addresses: the app on loopback instead of `app:8000 resolve`
    (Debian's nginx 1.22 has no `resolve`, and there is no Docker DNS here), loopback listens, this checkout's
    static files, the cache and logs in tmp_path."""
    v6 = f"listen [::1]:{port}" if servers.ipv6_loopback() else f"# listen [::1]:{port}"
    for compose_value, here in (("server app:8000 resolve;", f"server 127.0.0.1:{app_port};"),
                                ("listen 80 default_server;", f"listen 127.0.0.1:{port} default_server;"),
                                ("listen [::]:80 default_server;", f"{v6} default_server;"),
                                ("listen 80;", f"listen 127.0.0.1:{port};"), ("listen [::]:80;", f"{v6};"),
                                ("alias /srv/mcr-tournament/static/;", f"alias {ROOT / 'static'}/;"),
                                ("/var/cache/nginx-mcr-live", str(tmp_path / "cache")),
                                ("/var/log/nginx/access.log", str(tmp_path / "access.log"))):
        assert compose_value in site, compose_value
        site = site.replace(compose_value, here)
    return site


@pytest.mark.skipif(servers.NGINX is None, reason="nginx is not installed (make browser-deps)")
def test_the_compose_site_passes_nginx_t_and_serves_the_app(app, tmp_path, live_tournament):
    port = servers.free_port()
    prefix = tmp_path / "nginx"
    prefix.mkdir()
    with servers.app_gunicorn(app, tmp_path) as (app_url, _log):
        app_port = int(app_url.rsplit(":", 1)[1])
        (prefix / "site.conf").write_text(for_this_machine(compose_site("http://127.0.0.1:8080"), app_port, port,
                                                           tmp_path))
        temp_paths = "".join(f"    {kind}_temp_path {prefix / kind};\n"
                             for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;\n" if os.geteuid() == 0 else ""
        (prefix / "nginx.conf").write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {prefix / 'nginx.pid'};\n"
            f"error_log {prefix / 'error.log'} warn;\nevents {{ worker_connections 64; }}\n"
            f"http {{\n    include /etc/nginx/mime.types;\n{temp_paths}    include {prefix / 'site.conf'};\n}}\n")
        command = [servers.NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")]
        check = subprocess.run([*command, "-t"], capture_output=True, text=True)
        assert check.returncode == 0, check.stderr
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            servers.wait_until_up(port, process, "nginx")
            request = urllib.request.Request(f"http://127.0.0.1:{port}/t/{live_tournament.id}/standings",
                                             headers={"Host": "127.0.0.1"})
            with urllib.request.urlopen(request, timeout=10) as answer:
                assert answer.status == 200 and live_tournament.name in answer.read().decode()
            # The container's health check, pointed at this nginx.
            if shutil.which("wget"):
                health = subprocess.run(["sh", str(DEPLOY / "compose-nginx.sh"), "health"], capture_output=True,
                                        env={**os.environ, "PUBLIC_URL": "http://127.0.0.1:8080",
                                             "NGINX_PORT": str(port)})
                assert health.returncode == 0, health.stderr
        finally:
            servers.stop(process)


# --- the backups ----------------------------------------------------------------------------------------------


def fake_pg_dump(tmp_path: Path) -> str:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "pg_dump"
    fake.write_text('#!/bin/sh\nfor a in "$@"; do case $a in --file=*) echo dump > "${a#--file=}";; esac; done\n')
    fake.chmod(0o755)
    return f"{bin_dir}:{os.environ['PATH']}"


def backup_env(tmp_path: Path, database_url: str) -> dict[str, str]:
    return {**os.environ, "DATABASE_URL": database_url, "SECRET_KEY": "x", "APP_DIR": str(ROOT),
            "BACKUP_DIR": str(tmp_path / "backups"), "INSTANCE_PATH": str(tmp_path / "instance"),
            "EXPORT_DIR": str(tmp_path / "exports")}


def aged(path: Path, days: float) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    moment = time.time() - days * 24 * 3600
    os.utime(path, (moment, moment))
    return path


def test_the_backup_keeps_fourteen_days_and_only_whole_backups(app, database_url, tournament, tmp_path):
    backups = tmp_path / "backups"
    backups.mkdir()
    kept = aged(backups / "20261122-030000", 13.9)
    gone = aged(backups / "20261120-030000", 14.1)
    stopped = aged(backups / "20261204-030000.partial", 1.5)
    other = aged(backups / "lost+found", 30)  # not a backup: left alone
    env = backup_env(tmp_path, database_url)
    if not database_url.startswith("postgresql"):
        env["PATH"] = fake_pg_dump(tmp_path)
    else:
        env["DATABASE_URL"] = database_url.replace("postgresql+psycopg://", "postgresql://")
    done = subprocess.run([str(DEPLOY / "mcr-backup.sh")], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    left = {p.name for p in backups.iterdir()}
    assert kept.name in left and other.name in left and gone.name not in left and stopped.name not in left
    [new] = left - {kept.name, other.name}
    assert re.fullmatch(r"\d{8}-\d{6}", new)  # renamed from .partial once whole
    assert (backups / new / "database.dump").stat().st_size > 0
    assert (backups / new / "json" / f"tournament-{tournament.id}.json").is_file()


def backup_loop(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    script = tmp_path / "fake-backup.sh"  # stands for mcr-backup.sh: a folder named as it names them
    script.write_text('#!/bin/sh\nmkdir -p "$BACKUP_DIR/$(date +%Y%m%d-%H%M%S)"; echo ran >> "$BACKUP_DIR/../runs"\n')
    script.chmod(0o755)
    env = {**os.environ, "BACKUP_DIR": str(tmp_path / "backups"), "BACKUP_SCRIPT": str(script)}
    return subprocess.run(["sh", str(DEPLOY / "compose-backup.sh"), *args], env=env, capture_output=True, text=True,
                          timeout=30)


def runs(tmp_path: Path) -> int:
    return len((tmp_path / "runs").read_text().split()) if (tmp_path / "runs").exists() else 0


def test_the_backup_service_catches_up_once_and_checks_its_age(tmp_path):
    (tmp_path / "backups").mkdir()
    assert backup_loop(tmp_path, "--check").returncode != 0  # unhealthy: no backup yet
    assert backup_loop(tmp_path, "--once").returncode == 0 and runs(tmp_path) == 1
    assert backup_loop(tmp_path, "--check").returncode == 0
    assert backup_loop(tmp_path, "--once").returncode == 0 and runs(tmp_path) == 1  # a restart: none again
    for folder in (tmp_path / "backups").iterdir():
        aged(folder, 1.05)  # the stack was down over night: 25 hours
    assert backup_loop(tmp_path, "--check").returncode == 0  # 26 hours of grace
    assert backup_loop(tmp_path, "--once").returncode == 0 and runs(tmp_path) == 2


@pytest.mark.postgres
def test_the_readme_restores_a_dump_of_the_backup_script(app, database_url, demo_tournament, tmp_path):
    """The backup script's pg_dump, restored with the README's pg_restore line into another database: the same
    tournaments, the same accounts, the schema at the same revision."""
    if not database_url.startswith("postgresql"):
        pytest.skip("a dump needs PostgreSQL (TEST_DATABASE_URL)")
    if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip("pg_dump and pg_restore are not installed")
    from sqlalchemy import create_engine, make_url, text

    libpq = database_url.replace("postgresql+psycopg://", "postgresql://")
    env = {**backup_env(tmp_path, libpq)}
    done = subprocess.run([str(DEPLOY / "mcr-backup.sh")], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    [folder] = (tmp_path / "backups").iterdir()
    dump = folder / "database.dump"

    [line] = [line for line in COMPOSE_STEPS.splitlines() if "pg_restore" in line]
    restore = shlex.split(shlex.split(line)[-1])  # the command given to sh -c in the backup container
    assert restore[:5] == ["pg_restore", "--clean", "--if-exists", "--no-owner", "-d"]
    url = make_url(database_url)
    copy = f"{url.database}_restored"
    admin = create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{copy}"'))
        conn.execute(text(f'CREATE DATABASE "{copy}"'))
    target = url.set(database=copy)
    try:
        command = [*restore[:5], target.set(drivername="postgresql").render_as_string(hide_password=False),
                   str(dump)]
        restored = subprocess.run(command, capture_output=True, text=True, timeout=300)
        assert restored.returncode == 0, restored.stderr
        query = ("SELECT (SELECT count(*) FROM tournaments), (SELECT count(*) FROM users), "
                 "(SELECT count(*) FROM hands), (SELECT version_num FROM alembic_version)")
        source = create_engine(url)
        copied = create_engine(target)
        with source.connect() as a, copied.connect() as b:
            assert a.execute(text(query)).one() == b.execute(text(query)).one()
            assert b.execute(text("SELECT count(*) FROM hands")).scalar() > 0
        source.dispose()
        copied.dispose()
        # The tournaments' documents of the same backup read back as JSON.
        documents = list((folder / "json").glob("tournament-*.json"))
        assert documents and all(json.loads(d.read_text())["tournament"] for d in documents)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)'))
        admin.dispose()


# --- the README's steps ---------------------------------------------------------------------------------------


def compose_commands() -> list[list[str]]:
    prefix = "docker compose -f deploy/compose.yaml "
    lines = [line.split("  #")[0].strip() for line in COMPOSE_STEPS.splitlines() if line.startswith(prefix)]
    return [shlex.split(line)[4:] for line in lines]


def test_every_compose_command_of_the_readme_names_what_exists():
    from tournament.__main__ import command_line

    commands = compose_commands()
    verbs = [c[0] for c in commands]
    for needed in ("up", "ps", "exec", "run", "stop", "start", "build", "cp", "logs"):
        assert needed in verbs, needed
    from click.testing import CliRunner

    listing = CliRunner().invoke(command_line(), ["--help"]).output
    for command in commands:
        verb, rest = command[0], [a for a in command[1:] if not a.startswith("-")]
        if verb in ("exec", "run", "stop", "start", "logs"):
            assert rest[0] in SERVICES, command
        if verb in ("exec", "run") and rest[1:]:
            program = rest[1]
            if program.startswith("deploy/"):
                assert os.access(ROOT / program, os.X_OK), program  # in the image: the project's files
            elif program == "mcr-tournament":
                assert re.search(rf"^\s+{rest[2]}\b", listing, re.MULTILINE), command
        if verb == "cp":
            assert any(part.startswith("backup:/var/backups/mcr-tournament") for part in rest), command
    # The upgrade: a backup, pull, build, migrate, restart, in that order.
    upgrade = COMPOSE_STEPS.split("### 5. Upgrades", 1)[1].split("###", 1)[0]
    order = [upgrade.index(step) for step in ("deploy/mcr-backup.sh", "git pull", "compose.yaml build",
                                              "mcr-tournament db upgrade", "compose.yaml up -d")]
    assert order == sorted(order)
    assert "deploy/compose-env.sh http://192.168.1.10:8080" in COMPOSE_STEPS


def test_an_upgrade_migrates_and_keeps_every_login(tmp_path, scratch_url):
    """The upgrade's steps without Docker: the env file run again (kept), the database of the version before
    (one migration behind) migrated by `db upgrade`, the app started again: the login made before the upgrade
    is still good, the data still there."""
    from alembic.script import ScriptDirectory
    from flask_migrate import upgrade

    from tests.helpers import PASSWORD, login, make_user
    from tournament import create_app
    from tournament.extensions import db

    assert env_script(tmp_path, "http://127.0.0.1:8080").returncode == 0
    values = read_env(tmp_path / ".env")
    settings = {"SQLALCHEMY_DATABASE_URI": scratch_url, "SECRET_KEY": values["SECRET_KEY"],
                "PUBLIC_URL": values["PUBLIC_URL"], "TESTING": True}
    before = create_app(settings)
    with before.app_context():
        script = ScriptDirectory.from_config(before.extensions["migrate"].migrate.get_config())
        previous = script.get_revision(script.get_current_head()).down_revision
        upgrade(revision=previous)  # the version before this one
        make_user("organiser@example.org", "organiser")
        client = before.test_client()
        login(client, "organiser@example.org", PASSWORD)
        cookie = client.get_cookie("session")
        assert client.get("/manage").status_code == 200
        db.session.remove()
        db.engine.dispose()

    assert env_script(tmp_path, "http://127.0.0.1:8080").returncode == 0  # the upgrade leaves it as it was
    assert read_env(tmp_path / ".env") == values
    after = create_app(settings)  # the new version started with the same env file
    with after.app_context():
        upgrade()
        current = db.session.execute(db.text("SELECT version_num FROM alembic_version")).scalar()
        assert current == script.get_current_head()
        client = after.test_client()
        client.set_cookie("session", cookie.value)
        assert client.get("/manage").status_code == 200  # still logged in
        db.session.remove()
        db.engine.dispose()


# --- the stack itself, where Docker can start it ----------------------------------------------------------------


def docker_compose_works() -> bool:
    if shutil.which("docker") is None:
        return False
    for command in (["docker", "compose", "version"], ["docker", "info"]):
        if subprocess.run(command, capture_output=True, timeout=30).returncode != 0:
            return False
    return True


@pytest.mark.skipif(not docker_compose_works(), reason="no docker daemon with the compose plugin here: every file "
                                                        "of the stack is checked by the tests above")
def test_the_stack_starts_survives_an_app_restart_and_backs_up(tmp_path):
    project = f"mcr-test-{os.getpid()}"
    env_file = tmp_path / "stack.env"
    port = servers.free_port()
    assert env_script(tmp_path, f"http://127.0.0.1:{port}").returncode == 0
    env_file.write_text((tmp_path / ".env").read_text())
    base = ["docker", "compose", "-p", project, "--env-file", str(env_file), "-f", str(DEPLOY / "compose.yaml")]

    def compose(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
        return subprocess.run([*base, *args], capture_output=True, text=True, timeout=timeout)

    def healthy(service: str) -> bool:
        done = compose("ps", "--format", "json", service)
        return '"Health":"healthy"' in done.stdout.replace(" ", "")

    def wait_healthy(*services: str) -> None:
        deadline = time.monotonic() + 300
        while not all(healthy(s) for s in services):
            assert time.monotonic() < deadline, compose("ps").stdout + compose("logs").stdout[-4000:]
            time.sleep(3)

    pulled = compose("pull", "db", "nginx")
    if pulled.returncode != 0:
        pytest.skip(f"the images cannot be pulled here: {pulled.stderr[-300:]}")
    try:
        assert compose("up", "-d", "--build").returncode == 0
        wait_healthy("db", "app", "nginx")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/v1/version", timeout=10) as answer:
            assert answer.status == 200
        assert compose("restart", "app").returncode == 0
        wait_healthy("app", "nginx")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/login", timeout=10) as answer:
            assert answer.status == 200  # nginx found the restarted app
        done = compose("exec", "-T", "backup", "deploy/mcr-backup.sh")
        assert done.returncode == 0, done.stderr
        listing = compose("exec", "-T", "backup", "ls", "/var/backups/mcr-tournament").stdout.split()
        assert any(re.fullmatch(r"\d{8}-\d{6}", name) for name in listing)
    finally:
        compose("down", "-v", "--remove-orphans", timeout=300)
