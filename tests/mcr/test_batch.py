"""``--jsonl --jobs N``: worker processes, and the same bytes as one process, in the same order."""

import io
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from handgen import CONTEXT_KEYS, random_hands

from tests.helpers import BAD_JSON_LINES, mixed_lines
from tournament.mcr import batch
from tournament.mcr.__main__ import _LINE_RE, answer, run_jsonl

ROOT = Path(__file__).resolve().parents[2]
def run(*args, stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tournament.mcr", *args],
                          input=stdin, capture_output=True, cwd=ROOT, timeout=timeout)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["ema", "chinese"])
def test_jobs_give_the_same_bytes(payload, ruleset):
    n_in = payload.count(b"\n") + 1
    outs = {}
    for jobs in (None, "1", "2", "0"):
        if jobs == "0" and ruleset == "chinese":
            continue  # one ruleset is enough for the cpu count
        p = run("--jsonl", "--ruleset", ruleset, *(("--jobs", jobs) if jobs else ()), stdin=payload)
        assert p.returncode == 0, p.stderr
        outs[jobs] = p.stdout
    base = outs.pop(None)
    assert base.count(b"\n") == n_in and base.endswith(b"\n")
    for jobs, out in outs.items():
        assert out == base, f"--jobs {jobs} differs from the single process"
    # and the bad lines got their error lines in their places
    results = [json.loads(x) for x in base.decode().splitlines()]
    lines = payload.decode().split("\n")
    for line, r in zip(lines, results, strict=True):
        if line in BAD_JSON_LINES:
            assert r["ok"] is False


def test_bad_jobs_values_and_misuse():
    for bad in ("-1", "x", "1.5", ""):
        p = run("--jsonl", "--jobs", bad)
        assert p.returncode == 2 and b"--jobs" in p.stderr, bad
    p = run("123456789m123s5p5p", "--jobs", "2")
    assert p.returncode == 2 and b"--jobs" in p.stderr and not p.stdout
    assert run("--jobs", "2").returncode == 2


def test_tiny_inputs_with_jobs():
    assert run("--jsonl", "--jobs", "2").stdout == b""
    good = json.dumps({"hand": "123456789m123s5p5p"}).encode()
    for stdin in (good, good + b"\n", b"\n" + good + b"\n{\n"):
        p = run("--jsonl", "--jobs", "2", stdin=stdin)
        assert p.returncode == 0 and p.stdout == run("--jsonl", stdin=stdin).stdout
    assert json.loads(p.stdout.splitlines()[1])["fan_points"] == 22


def _serial(lines, ruleset="ema") -> str:
    out = io.StringIO()
    run_jsonl(ruleset, lines, out)
    return out.getvalue()


def test_run_parallel_chunk_boundaries():
    lines = [x + "\n" for x in mixed_lines(300, 9)]
    want = _serial(lines)
    for jobs, chunk in ((2, 1), (2, 7), (3, 50), (2, len(lines) - 1), (2, len(lines)), (1, 5)):
        out = io.StringIO()
        assert batch.run_parallel("ema", iter(lines), out, jobs, chunk, answer=answer) == 0
        assert out.getvalue() == want, (jobs, chunk)
    assert multiprocessing.active_children() == []
    with pytest.raises(ValueError):
        batch.run_parallel("ema", [], io.StringIO(), 0, answer=answer)


def test_a_dying_worker_loses_nothing(tmp_path):
    lines = [x + "\n" for x in mixed_lines(400, 11)]
    lines[123] = lines[321] = "DIE\n"
    parent = os.getpid()
    flag = tmp_path / "died"

    def dies_once(line, ruleset):  # the first worker to meet DIE dies; after that, all is well
        if line == "DIE\n" and os.getpid() != parent and not flag.exists():
            flag.touch()
            os._exit(3)
        return answer(line, ruleset)

    def always_dies(line, ruleset):  # every pool breaks: the rest is scored in this process
        if line == "DIE\n" and os.getpid() != parent:
            os._exit(3)
        return answer(line, ruleset)

    want = _serial(lines)
    for fn in (dies_once, always_dies):
        out = io.StringIO()
        batch.run_parallel("ema", lines, out, 2, 20, answer=fn)
        assert out.getvalue() == want, fn.__name__
        assert multiprocessing.active_children() == []
    assert flag.exists()


def _children(pid: int) -> list[int]:
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(d))
    return kids


def _alive(pids: list[int]) -> list[int]:
    out = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.append(pid)
    return out


def _wait_for(cond, timeout: float = 10):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if v := cond():
            return v
        time.sleep(0.02)
    return cond()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_workers_end_with_the_parent(sig):
    # stdin stays open after two chunks: the pool is running and the parent waits for input
    good = json.dumps({"hand": "123456789m123s5p5p"}) + "\n"
    proc = subprocess.Popen([sys.executable, "-m", "tournament.mcr", "--jsonl", "--jobs", "2"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        proc.stdin.write((good * (2 * batch.CHUNK + 10)).encode())
        proc.stdin.flush()
        kids = _wait_for(lambda: len(_children(proc.pid)) >= 2 and _children(proc.pid))
        assert kids, "no workers started"
        proc.send_signal(sig)
        assert proc.wait(timeout=10) != 0
        assert _wait_for(lambda: not _alive(kids)), "workers outlived the parent"
    finally:
        proc.kill()
        proc.communicate()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_reader_going_away_ends_everything():
    good = (json.dumps({"hand": "123456789m123s5p5p"}) + "\n").encode()
    proc = subprocess.Popen([sys.executable, "-m", "tournament.mcr", "--jsonl", "--jobs", "2"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

    def feed():
        try:
            for _ in range(200):
                proc.stdin.write(good * 1000)
            proc.stdin.close()
        except (BrokenPipeError, ValueError):
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        assert proc.stdout.readline().startswith(b'{"ok": true')
        kids = _children(proc.pid)
        proc.stdout.close()
        assert proc.wait(timeout=20) == 1
        assert _wait_for(lambda: not _alive(kids))
    finally:
        proc.kill()
        proc.wait()


# ------------------------------------------------------------------ reading standard input

HAND = '{"hand": "123456789m123s5p5p", "self_drawn": true}'


def test_each_line_is_answered_before_the_next_is_awaited():
    """A caller that sends one line and waits for its answer is answered, line by line, even with
    Python's output buffered (no PYTHONUNBUFFERED)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    proc = subprocess.Popen([sys.executable, "-m", "tournament.mcr", "--jsonl"], cwd=ROOT, env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    watchdog = threading.Timer(30, proc.kill)  # an unanswered line would block readline forever
    watchdog.start()
    try:
        answers = []
        for line in (HAND, "{", HAND):
            proc.stdin.write(line.encode() + b"\n")
            proc.stdin.flush()
            answers.append(proc.stdout.readline())  # the next line is only sent once this arrives
        proc.stdin.close()
        assert proc.wait(30) == 0
    finally:
        watchdog.cancel()
        proc.kill()
        proc.stdout.close()
    assert [json.loads(a)["ok"] for a in answers] == [True, False, True]


def test_bytes_that_are_not_utf8_get_an_error_line_and_the_batch_goes_on():
    lines = [HAND.encode(), b'{"hand": "12\xff3m"}', b"\xfe\xff", HAND.encode()]
    p = run("--jsonl", stdin=b"\n".join(lines) + b"\n")
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [o["ok"] for o in out] == [True, False, False, True]
    assert out[1]["code"] == "unknown_character" and out[2]["code"] == "bad_json"


def test_line_endings_and_a_last_line_without_newline():
    data = (HAND + "\r\n" + "\n" + HAND).encode()  # CRLF, an empty line, no final newline
    p = run("--jsonl", stdin=data)
    assert p.returncode == 0, p.stderr
    out = [json.loads(x) for x in p.stdout.decode().split("\n") if x]
    assert [o["ok"] for o in out] == [True, False, True]
    assert out[1]["error"] == "empty line"


def test_lines_longer_than_one_read_arrive_whole():
    long_line = '{"hand": "123456789m123s5p5p"' + " " * (3 * batch.READ_SIZE) + "}"  # JSON's own white space
    p = run("--jsonl", stdin=(HAND + "\n" + long_line + "\n" + HAND + "\n").encode())
    out = [json.loads(x) for x in p.stdout.decode().splitlines()]
    assert [o["ok"] for o in out] == [True, True, True]


def _through_json_loads(line: str) -> str:
    """The same JSON object written so that answer() cannot take its one-match reading of the usual
    line (other separators): it goes through json.loads."""
    return json.dumps(json.loads(line), separators=(",", ":"))


@pytest.mark.parametrize("ruleset", ["ema", "chinese"])
def test_usual_lines_read_by_one_match_as_json_loads_reads_them(ruleset):
    lines = [json.dumps({k: c[k] for k in CONTEXT_KEYS}) for c in random_hands(400, 11)]
    hand = "123456789m123s5p5p"
    usual = {"hand": hand, "self_drawn": False, "last_tile": False, "wall_last": False, "kong": False,
             "seat_wind": "E", "prevalent_wind": "E", "flowers": 0}
    # values the match accepts but make_context refuses, or that are not what they look like
    odd = [{"seat_wind": "true"}, {"prevalent_wind": ""}, {"seat_wind": "é"}, {"hand": "é\u007f"},
           {"hand": "\udc80"}, {"hand": " 123456789m 123s5p 5p"}, {"flowers": 8}, {"kong": True},
           {"self_drawn": True, "kong": True}, {"last_tile": True}, {"hand": "[123m]456789m123s5p5p"}]
    lines += [json.dumps({**usual, **o}, ensure_ascii=False) for o in odd]
    # values the match does not read: these lines go to json.loads, so the answer cannot differ, but
    # they must not be taken for usual lines
    lines += [json.dumps({**usual, **o}) for o in ({"flowers": 9}, {"flowers": None}, {"kong": None},
                                                    {"hand": 'a"b'}, {"hand": "a\\b"}, {"hand": "é"})]
    assert all(_LINE_RE.fullmatch(line) for line in lines[:400 + len(odd)])  # the one-match reading is used
    for line in lines:
        for end in ("\n", ""):
            assert answer(line + end, ruleset) == answer(_through_json_loads(line), ruleset), line
