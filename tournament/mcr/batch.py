"""``--jsonl --jobs N``: a batch scored on N worker processes, with the output of one process.

Input is read in chunks of ``chunk`` lines; each chunk goes to a worker, which answers every line
with the same function as the single-process path (``answer(line, ruleset) -> output line``), and
the answers are written strictly in input order, each chunk as soon as it and every chunk before it
are done. At most ``2 * jobs`` chunks are in flight, so memory stays bounded on any input and output
starts long before a large input ends. An input that ends within its first chunk is scored in this
process, with no workers at all.

Workers are forked (they inherit the imported engine and its settings). Ctrl-C is left to this
process, which then cancels the chunks not started and lets each worker finish the one it holds
before the pool shuts down; on Linux a worker also ends when this process dies. If a
worker dies (killed, out of memory), the chunks it took down are scored again here, in their place,
and a new pool takes the rest; after ``MAX_POOLS`` broken pools the rest of the batch is scored
here. So the output is always the single-process output: one line per input line, in order.

Standard library only, no Flask or database.
"""

from __future__ import annotations

import codecs
import io
import os
import signal
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice, repeat

CHUNK = 256  # lines per task: about 10 ms of scoring, against well under 1 ms of passing it around
MAX_POOLS = 3

Answer = Callable[[str, str], str]
READ_SIZE = 1 << 16


def stdin_batches() -> Iterator[list[str]]:
    """The lines of this process's standard input (each with its ``"\n"``, the last one perhaps
    without), a batch at a time: every line that has arrived, read with one ``os.read``, which waits
    only when nothing has. Answering a batch before reading the next keeps a caller that sends one
    line and waits for its answer going, while a file or a busy pipe gives batches of hundreds of
    lines, so the answers go out in a few large writes even when Python's output is unbuffered
    (PYTHONUNBUFFERED would otherwise cost one system call per line).

    Lines split at ``"\n"`` only, as ``sys.stdin`` does on POSIX, and are decoded with its encoding;
    bytes that are not valid in it decode to lone surrogates ("surrogateescape"), so such a line is
    answered with an error instead of stopping the batch. Nothing else may read standard input."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError, io.UnsupportedOperation):  # replaced or closed
        for line in sys.stdin or ():
            yield [line]
        return
    decoder = codecs.getincrementaldecoder(sys.stdin.encoding or "utf-8")("surrogateescape")
    start: list[str] = []  # the beginning of a line still arriving
    while True:
        data = os.read(fd, READ_SIZE)
        text = decoder.decode(data, final=not data)
        if "\n" in text:
            lines = text.split("\n")
            if start:
                start.append(lines[0])
                lines[0] = "".join(start)
            rest = lines.pop()
            start = [rest] if rest else []
            yield [line + "\n" for line in lines]
        elif text:
            start.append(text)
        if not data:
            if start:
                yield ["".join(start)]
            return


# the job of a worker process, set once by _init
_answer: Answer | None = None
_ruleset = ""


def _score_chunk(answer: Answer, ruleset: str, lines: list[str]) -> str:
    return "".join(map(answer, lines, repeat(ruleset)))


def _work(lines: list[str]) -> str:
    """A worker's task: the output lines of a chunk of input lines, as one text."""
    return _score_chunk(_answer, _ruleset, lines)


def _init(answer: Answer, ruleset: str, parent: int, prctl) -> None:
    """Start of a worker (forked: its arguments are inherited, not pickled)."""
    global _answer, _ruleset
    _answer, _ruleset = answer, ruleset
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C goes to the whole group; the parent handles it
    if prctl is not None:
        prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: be ended when the parent dies, even by SIGKILL
    if os.getppid() != parent:  # the parent died before that took effect
        os._exit(1)


def _fork_context():
    import multiprocessing

    try:
        return multiprocessing.get_context("fork")
    except ValueError:  # no fork on this platform
        return None


def _prctl():
    try:
        import ctypes

        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):  # not Linux
        return None


def _run_pool(jobs: int, answer: Answer, ruleset: str, ctx, streams, chunks, pending: deque, write) -> None:
    """One pool of ``jobs`` workers through ``chunks`` (see :func:`_pump`); its workers are gone
    when this returns or raises."""
    from concurrent.futures import ProcessPoolExecutor

    # a forked worker flushes, when it exits, whatever this process had buffered at the fork: flush first
    for s in streams:
        if s is not None:
            s.flush()
    pool = ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init,
                               initargs=(answer, ruleset, os.getpid(), _prctl()))
    try:
        _pump(pool, chunks, pending, write, 2 * jobs)
    finally:
        # on Ctrl-C, a reader gone or a broken pool too: the chunks not started are cancelled and the
        # workers finish the one they hold (a few milliseconds each). Terminating them instead could
        # cut a result off halfway into the pipe, and the pool's manager thread would then wait for
        # its end forever.
        pool.shutdown(wait=True, cancel_futures=True)


def _chunks(lines: Iterator[str], size: int) -> Iterator[list[str]]:
    while chunk := list(islice(lines, size)):
        yield chunk


def _pump(pool, chunks: Iterable[list[str]], pending: deque, write, depth: int) -> None:
    """Submit every chunk and write the answers in order. ``pending`` holds (chunk, future) in input
    order, and a chunk leaves it only once its answer is written, so a broken pool loses none."""
    from concurrent.futures.process import BrokenProcessPool

    for lines in chunks:
        try:
            fut = pool.submit(_work, lines)
        except BrokenProcessPool:
            pending.append((lines, None))
            raise
        pending.append((lines, fut))
        while pending and (len(pending) >= depth or pending[0][1].done()):
            write(pending[0][1].result())
            pending.popleft()
    while pending:
        write(pending[0][1].result())
        pending.popleft()


def _salvage(pending: deque, write, answer: Answer, ruleset: str) -> None:
    """After a broken pool: the pending chunks' answers in order, from their futures where those
    finished, else scored here."""
    for lines, fut in pending:
        if fut is not None and fut.done() and not fut.cancelled() and fut.exception() is None:
            write(fut.result())
        else:
            write(_score_chunk(answer, ruleset, lines))
    pending.clear()


def run_parallel(ruleset: str, stdin: Iterable[str], stdout, jobs: int, chunk: int = CHUNK, *,
                 answer: Answer) -> int:
    """Write ``answer(line, ruleset)`` for every line of ``stdin`` to ``stdout``, in order, scoring
    chunks of ``chunk`` lines on ``jobs`` worker processes; the workers are gone when it returns or
    raises. ``jobs == 1``, no fork on the platform, or an input of at most one chunk: all in this
    process. Returns 0."""
    if jobs < 1 or chunk < 1:
        raise ValueError(f"jobs and chunk must be at least 1, not {jobs} and {chunk}")
    write = stdout.write
    lines = iter(stdin)
    first = list(islice(lines, chunk + 1)) if jobs > 1 else []
    if len(first) <= chunk or (ctx := _fork_context()) is None:
        for line in chain(first, lines):
            write(answer(line, ruleset))
        stdout.flush()
        return 0
    from concurrent.futures.process import BrokenProcessPool

    chunks = _chunks(chain(first, lines), chunk)
    pending: deque = deque()
    streams = (stdout, sys.stdout, sys.stderr)
    for _ in range(MAX_POOLS):
        try:
            _run_pool(jobs, answer, ruleset, ctx, streams, chunks, pending, write)
            break
        except BrokenProcessPool:
            _salvage(pending, write, answer, ruleset)
    else:  # workers keep dying: the rest here
        for lines_ in chunks:
            write(_score_chunk(answer, ruleset, lines_))
    stdout.flush()
    return 0
