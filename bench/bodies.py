"""What a refused body costs a worker: gunicorn (the shipped settings, one worker) on PostgreSQL, sent the
bodies of issue 22's first finding, each answer's status and time, and the worker's peak resident memory
(VmHWM) before and after each.

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/bench python bench/bodies.py [--mb 256]

The database's schema is dropped and made anew. Bodies are streamed from a generator: the client holds
one chunk at a time.
"""

from __future__ import annotations

import argparse
import http.client
import os
import pathlib
import sys
import tempfile
import time
from collections.abc import Iterator

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from load import _processes, free_port, prepare_database, start_gunicorn  # noqa: E402

CHUNK = 1024 * 1024


def tiny_values(megabytes: int) -> Iterator[bytes]:
    """`[[0],[0],...]` of about `megabytes` MB: the most memory per byte once parsed."""
    piece = b"[0]," * (CHUNK // 4)
    yield b"["
    for _ in range(megabytes - 1):
        yield piece
    yield piece[:-1] + b"]"


def padded_json(megabytes: int) -> Iterator[bytes]:
    yield b'{"pad": "'
    for _ in range(megabytes):
        yield b"x" * CHUNK
    yield b'"}'


def worker_peak_kb(master: int) -> int:
    """The worker's peak resident memory so far (one worker)."""
    for pid, _, parent in _processes():
        if parent == master:
            status = pathlib.Path(f"/proc/{pid}/status").read_text()
            return next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:"))
    raise SystemExit("no gunicorn worker found")


def send(port: int, method: str, path: str, body: Iterator[bytes], length: int,
         headers: dict[str, str]) -> tuple[int, float, str]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    began = time.perf_counter()
    try:
        connection.putrequest(method, path)
        for name, value in {"Content-Type": "application/json", "Content-Length": str(length), **headers}.items():
            connection.putheader(name, value)
        connection.endheaders()
        try:
            for chunk in body:
                connection.send(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before the end of the body: what a refusal may do
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        return response.status, time.perf_counter() - began, text[:120].replace("\n", " ")
    finally:
        connection.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mb", type=int, default=255,
                        help="size of the large bodies in MB (default 255: within the import's 256 MB limit)")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (its schema is dropped)")
    token, secret = prepare_database(url)
    port = free_port()
    os.environ["GUNICORN_WORKERS"] = "1"
    log = pathlib.Path(tempfile.mkdtemp()) / "gunicorn.log"
    master = start_gunicorn(port, url, secret, log)
    cases = [
        ("import, no token", "POST", "/api/v1/tournaments/import", lambda: tiny_values(args.mb), {}),
        ("import, unknown token", "POST", "/api/v1/tournaments/import", lambda: tiny_values(args.mb),
         {"Authorization": "Bearer mcr_unknown"}),
        ("import, organiser's token", "POST", "/api/v1/tournaments/import", lambda: tiny_values(args.mb),
         {"Authorization": f"Bearer {token}"}),
        ("GET standings with a 4 MB body", "GET", "/t/1/standings", lambda: padded_json(4), {}),
    ]
    try:
        time.sleep(1)
        for _ in range(3):  # warm the worker (imports, the pool, templates) so the figures are the bodies'
            send(port, "GET", "/api/v1/me", iter(()), 0, {"Authorization": f"Bearer {token}"})
            send(port, "GET", "/t/1/standings", iter(()), 0, {})
        print(f"gunicorn, 1 worker, {args.mb} MB bodies of [[0],[0],...]")
        print(f"{'case':34} {'status':>6} {'seconds':>8} {'peak MB before':>15} {'after':>7}  answer")
        for name, method, path, body, headers in cases:
            before = worker_peak_kb(master.pid)
            length = sum(len(chunk) for chunk in body())
            status, seconds, text = send(port, method, path, body(), length, headers)
            after = worker_peak_kb(master.pid)
            print(f"{name:34} {status:>6} {seconds:>8.2f} {before / 1024:>15.0f} {after / 1024:>7.0f}  {text}")
    finally:
        master.terminate()
        master.wait(30)


if __name__ == "__main__":
    main()
