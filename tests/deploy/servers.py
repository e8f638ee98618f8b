"""The app served as deployed, for the deploy tests: gunicorn with deploy/gunicorn.conf.py on a free loopback
port, started with the environment a test gives and stopped at the end."""

from __future__ import annotations

import http.client
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
GUNICORN = Path(sys.executable).with_name("gunicorn")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def answers(port: int, path: str = "/login") -> bool:
    """Whether something answers HTTP on the port (any status)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", path)
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def wait_until_up(port: int, process: subprocess.Popen, what: str, log: Path | None = None) -> None:
    deadline = time.monotonic() + 30
    while not answers(port):
        if time.monotonic() > deadline or process.poll() is not None:
            tail = log.read_text()[-2000:] if log and log.exists() else ""
            raise RuntimeError(f"{what} did not start. {tail}")
        time.sleep(0.2)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@contextmanager
def gunicorn(env: dict[str, str], log: Path | None = None) -> Iterator[tuple[int, subprocess.Popen]]:
    """gunicorn with the shipped settings and `env` added to this environment (DATABASE_URL, SECRET_KEY,
    GUNICORN_WORKERS ...); its own log goes to `log` (or nowhere). Yields (port, master process) once it
    answers."""
    port = free_port()
    stderr: IO | int = log.open("w") if log else subprocess.DEVNULL
    try:
        process = subprocess.Popen(
            [str(GUNICORN), "-c", str(DEPLOY / "gunicorn.conf.py"), "--bind", f"127.0.0.1:{port}", "app:app"],
            cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=stderr)
    finally:
        if log:
            stderr.close()  # type: ignore[union-attr]
    try:
        wait_until_up(port, process, "gunicorn", log)
        yield port, process
    finally:
        stop(process)
