"""Reproducible installs (issue 35 item 2): requirements.lock (the app) and requirements-dev.lock (the app, the
tests, the tools) pin every package with its hashes, satisfy pyproject.toml, agree with each other, and are
what every install reads: `make install`/`make run`, `make test` (so CI's .ci/run), the Dockerfile; `make lock`
writes them again."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
LOCK, DEV_LOCK = ROOT / "requirements.lock", ROOT / "requirements-dev.lock"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def pins(path: Path) -> dict[str, tuple[str, str | None, list[str]]]:
    """name -> (version, marker or None, hashes) of a lock file written by uv pip compile --generate-hashes."""
    found = {}
    for entry in re.split(r"\n(?=[A-Za-z0-9])", path.read_text()):
        head = entry.split("\\", 1)[0].strip()
        if not head or head.startswith("#"):
            continue
        requirement, _, marker = head.partition(";")
        name, _, version = requirement.strip().partition("==")
        assert version, f"{path.name}: {head!r} is not pinned with =="
        found[canonicalize_name(name)] = (version.strip(), marker.strip() or None,
                                          re.findall(r"--hash=sha256:([0-9a-f]{64})", entry))
    return found


def check_satisfied(requirements: list[str], locked: dict, where: str) -> None:
    for line in requirements:
        requirement = Requirement(line)
        if requirement.marker and not requirement.marker.evaluate({"extra": ""}):
            continue
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{where}: {requirement.name} is not in the lock: `make lock`"
        version = locked[name][0]
        assert requirement.specifier.contains(version, prereleases=True), (
            f"{where}: the lock's {requirement.name}=={version} does not satisfy {requirement.specifier}: `make lock`")


def test_every_package_is_pinned_with_its_hashes():
    for path in (LOCK, DEV_LOCK):
        locked = pins(path)
        assert len(locked) > 20
        for name, (_version, marker, hashes) in locked.items():
            assert hashes, f"{path.name}: {name} has no hash"
            if marker:
                Marker(marker)  # a valid environment marker (uv writes one lock for every platform)
        assert "make lock" in path.read_text().split("\n", 3)[1], "the lock no longer says how to refresh it"


def test_the_locks_satisfy_pyproject_and_agree():
    runtime, dev = pins(LOCK), pins(DEV_LOCK)
    check_satisfied(PROJECT["dependencies"], runtime, LOCK.name)
    check_satisfied(PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"], dev, DEV_LOCK.name)
    for name, (version, *_rest) in runtime.items():
        assert dev.get(name, (None,))[0] == version, f"{name}: {version} in {LOCK.name}, not in {DEV_LOCK.name}"
    # The app's lock holds no test tool.
    for tool in ("pytest", "playwright", "ruff", "schemathesis", "uv"):
        assert tool not in runtime, tool


def test_pycountry_is_gone():
    """Babel's territory names serve the countries (issue 35 item 7): no pycountry in the project or a lock."""
    assert not any(canonicalize_name(Requirement(line).name) == "pycountry" for line in PROJECT["dependencies"])
    assert "pycountry" not in pins(LOCK) and "pycountry" not in pins(DEV_LOCK)


def test_every_requirement_has_an_upper_bound():
    """A new major version (Flask 4, SQLAlchemy 3, Babel 3 ...) is taken on purpose, never by a fresh install."""
    for line in PROJECT["dependencies"] + PROJECT["optional-dependencies"]["dev"]:
        requirement = Requirement(line)
        assert any(spec.operator in ("<", "==", "~=") for spec in requirement.specifier), (
            f"{line}: no upper bound")


def make_plan(target: str) -> str:
    return subprocess.run(["make", "--no-print-directory", "-n", "-B", target], cwd=ROOT, capture_output=True,
                          text=True, check=True).stdout


@pytest.mark.parametrize("target", ["install", "run", "test"])
def test_every_install_reads_the_lock(target):
    plan = make_plan(target)
    installs = [line for line in plan.splitlines() if "pip install" in line and "--upgrade pip" not in line]
    assert installs, plan
    for line in installs:  # the dependencies from a lock with its hashes, the app itself without any
        assert ("--require-hashes -r requirements" in line) or ("--no-deps" in line), line
    if target != "test":
        assert "requirements-dev.lock" not in plan
    else:
        assert "--require-hashes -r requirements-dev.lock" in plan


def test_the_dockerfile_and_ci_install_from_the_lock():
    dockerfile = (ROOT / "deploy" / "Dockerfile").read_text()
    assert "--require-hashes -r requirements.lock" in dockerfile
    assert re.search(r"pip install [^\n]*--no-deps", dockerfile)
    assert "make test" in (ROOT / ".ci" / "run").read_text()  # make test installs from requirements-dev.lock


def test_make_lock_writes_both_files_with_uv():
    plan = make_plan("lock")
    assert re.search(r"uv pip compile pyproject.toml .*--generate-hashes.* -o requirements.lock", plan)
    assert re.search(r"uv pip compile pyproject.toml .*--extra dev -c requirements.lock -o requirements-dev.lock",
                     plan)
    assert "--universal" in plan  # one lock for every platform and Python the project takes
