"""Command line: score one hand, or a batch of JSON lines.

    python -m tournament.mcr "HAND" [--self-drawn] [--last-tile] [--wall-last] [--kong]
        [--seat E] [--prevalent E] [--flowers N] [--ruleset ema|chinese] [--json]
    python -m tournament.mcr --jsonl [--ruleset ema|chinese] [--jobs N]   < hands.jsonl > results.jsonl

In ``--jsonl`` mode every input line (a blank one included) gets exactly one output line, in order.
``--jobs N`` scores the batch on N worker processes (``0``: one per CPU; default 1, this process,
line by line), reading it in chunks of a few hundred lines; the output is identical, in the same order.

A line is an object with ``"hand"`` and the context's keys (``CONTEXT_KEYS``), which may also be given
as an object under ``"flags"`` (the same names; a key given both ways is refused). A key the engine does
not know is never dropped silently: that line is answered with an ``unknown_key`` error naming it, the
others are scored, and the command exits with status 1 at the end (0 otherwise: other errors are the
lines' answers).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import signal
import sys
from itertools import chain

from .api import WinContext, score_hand
from .batch import stdin_batches
from .calculator import make_context, score_parsed
from .errors import MCRError
from .notation import parse_hand
from .result import dumps, result_json
from .rulesets import BY_NAME as RULESET_BY_NAME
from .rulesets import RULESETS
from .rulesets import get as get_ruleset
from .tiles import WIND_INDEX
from .wincontext import known_context

CONTEXT_KEYS = ("self_drawn", "last_tile", "wall_last", "kong", "seat_wind", "prevalent_wind", "flowers")
_DEFAULTS = (False, False, False, False, "E", "E", 0)  # make_context's defaults, in that order
FLAGS = "flags"  # the context's keys may come as an object under this key
_KNOWN = frozenset(("hand", *CONTEXT_KEYS, FLAGS))
_FLAG_KEYS = frozenset(CONTEXT_KEYS)
UNKNOWN_KEY = "unknown_key"
_KEYS_TEXT = ", ".join(("hand", *CONTEXT_KEYS))
# An answer that refused an unknown key holds this (a JSON string's quotes: in a message they are escaped).
_UNKNOWN_MARK = f'"{UNKNOWN_KEY}"'

# json.loads's own decoder pieces (see _score)
_scan = json.JSONDecoder().scan_once
_ws = json.decoder.WHITESPACE.match

# The line every batch writer sends (json.dumps of the keys in CONTEXT_KEYS order, "hand" first), read
# with one match instead of the JSON scanner: strings without escapes or control characters, plain
# true/false and a one-digit flower count, then a newline or nothing. Such a line means exactly what
# json.loads makes of it; any other line (other order, spacing, escapes, nulls) goes to json.loads.
_STR = r'"([^"\\\x00-\x1f]*)"'
_BOOL = r"(true|false)"
_LINE_RE = re.compile(
    rf'\{{"hand": {_STR}, "self_drawn": {_BOOL}, "last_tile": {_BOOL}, "wall_last": {_BOOL}, '
    rf'"kong": {_BOOL}, "seat_wind": {_STR}, "prevalent_wind": {_STR}, "flowers": ([0-8])\}}\n?')
# the fast path's values straight to what known_context takes: winds as tiles, the flower digit as a number
_WIND_TILE = {wind: 27 + i for wind, i in WIND_INDEX.items()}.get
_FLOWERS = {str(n): n for n in range(9)}

_dumps = dumps  # the encoder of the output lines (ok results are written by result_json in its format)


def _error(code: str, message: str) -> dict:
    return {"ok": False, "code": code, "error": message}


def _error_line(code: str, message: str) -> str:
    return _dumps(_error(code, message)) + "\n"


def answer(line: str, ruleset: str) -> str:
    """One ``--jsonl`` input line -> its output line, newline included (never raises for bad input).
    The one per-line function of both ``--jsonl`` paths: this process, and the ``--jobs`` workers.
    Same checks, in the same order, as :func:`score_hand` behind ``WinContext``, minus the objects."""
    m = _LINE_RE.fullmatch(line)
    if m is not None:
        hand, sd, lt, wl, kg, seat, prevalent, flowers = m.groups()
        seat_t = _WIND_TILE(seat)
        prevalent_t = _WIND_TILE(prevalent)
        if seat_t is not None and prevalent_t is not None:  # else make_context says which wind is wrong
            # the flags matched true|false and the flowers one digit 0-8: valid, as make_context would find
            values = (sd == "true", lt == "true", wl == "true", kg == "true", seat_t, prevalent_t, _FLOWERS[flowers])
            return _answer_values(hand, values, ruleset, known_context)
        values = (sd == "true", lt == "true", wl == "true", kg == "true", seat, prevalent, _FLOWERS[flowers])
        return _answer_values(hand, values, ruleset)
    try:
        # json.loads(line) without its layers of calls: the same C scanner, after the same leading
        # whitespace; anything out of the ordinary (no value, extra data, a BOM, an error) is left to
        # json.loads itself, so its result or its error is exactly json.loads's
        try:
            obj, end = _scan(line, _ws(line, 0).end())
            if _ws(line, end).end() != len(line):
                obj = json.loads(line)
        except Exception:
            obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        if not line.strip():  # a blank line is no JSON either
            return _error_line("bad_json", "empty line")
        return _error_line("bad_json", f"not a JSON line: {e}")
    if not isinstance(obj, dict):
        return _error_line("bad_input", "each line must be a JSON object with a 'hand' key")
    if not _KNOWN.issuperset(obj):
        return _unknown_keys([key for key in obj if key not in _KNOWN])
    hand = obj.get("hand")
    if not isinstance(hand, str):
        return _error_line("bad_input", "the 'hand' key must be a text")
    flags = obj.get(FLAGS)
    if flags is not None:
        if not isinstance(flags, dict):
            return _error_line("bad_input", f"the '{FLAGS}' key must be an object of the flags ({', '.join(CONTEXT_KEYS)})")
        if not _FLAG_KEYS.issuperset(flags):
            return _unknown_keys([f"{FLAGS}.{key}" for key in flags if key not in _FLAG_KEYS])
        if twice := [key for key in flags if key in obj]:
            return _error_line("bad_input", f"'{twice[0]}' is given twice: at the top level and under '{FLAGS}'")
        obj = {**obj, **flags}
    values = list(map(obj.get, CONTEXT_KEYS))  # in make_context's order; absent or null = default
    if None in values:
        values = [_DEFAULTS[i] if v is None else v for i, v in enumerate(values)]
    return _answer_values(hand, values, ruleset)


def _unknown_keys(keys: list[str]) -> str:
    named = ", ".join(repr(key) for key in keys)
    return _error_line(UNKNOWN_KEY, f"unknown key{'s' if len(keys) > 1 else ''} {named}: a line holds {_KEYS_TEXT} "
                                    f"and '{FLAGS}' (an object of the same flags)")


class _Watched:
    """The output stream, noting whether an answer refused an unknown key (the exit status says so)."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.unknown_key = False

    def write(self, text: str) -> int:
        if not self.unknown_key and _UNKNOWN_MARK in text:
            self.unknown_key = True
        return self.stream.write(text)

    def flush(self) -> None:
        self.stream.flush()


def _answer_values(hand: str, values, ruleset: str, context=make_context) -> str:
    """:func:`answer` once the line is read: ``values`` in the order ``context`` (make_context, or
    known_context for values known to be valid) takes them after the hand."""
    try:
        try:
            rs = RULESET_BY_NAME[ruleset]  # get_ruleset without its call when the name is known
        except (KeyError, TypeError):
            rs = get_ruleset(ruleset)  # which says what is wrong
        p = parse_hand(hand)
        ctx = context(p, *values)
        fan_points, fans, _ = score_parsed(p, ctx, rs)
    except MCRError as e:
        return _error_line(e.code, str(e))
    except Exception as e:  # a bad line never stops the batch
        return _error_line("internal_error", f"{type(e).__name__}: {e}")
    return result_json(fan_points, fans, ctx.flowers)


def run_jsonl(ruleset: str, stdin=None, stdout=None) -> int:
    """Every input line gets exactly one output line (a blank line gets a ``bad_json`` error), so
    output line i always answers input line i. Without ``stdin``, this process's standard input is
    read: the lines that have arrived are answered together, in one write, before more input is
    awaited (see :func:`batch.stdin_batches`). Returns 1 when a line had a key the engine does not know,
    else 0."""
    batches = stdin_batches() if stdin is None else ([line] for line in stdin)
    out = _Watched(stdout or sys.stdout)
    write = out.write
    for lines in batches:
        write("".join([answer(line, ruleset) for line in lines]))
        out.flush()
    return 1 if out.unknown_key else 0


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be 0 (one per CPU) or more, not {n}")
    return n


def _breakdown(hand: str, r) -> str:
    out = [f"Hand: {hand}   ({r.form.replace('_', ' ')}, ruleset {r.ruleset})"]
    width = max([len(f.name) for f in r.fans] + [len("Flower Tiles")])
    for f in r.fans:
        times = f"{f.points:>3} x{f.count}" if f.count > 1 else f"{f.points:>3}   "
        sets = " ".join(f.sets)
        out.append(f"  {f.name:<{width}} {times} = {f.points * f.count:>3}   {sets}".rstrip())
    if r.flower_points:
        out.append(f"  {'Flower Tiles':<{width}} {1:>3} x{r.flower_points} = {r.flower_points:>3}")
    verdict = "meets the 8-point minimum" if r.meets_minimum else "UNDER the 8-point minimum (false mahjong)"
    out.append(f"Fan points: {r.fan_points}   Flower points: {r.flower_points}   Total: {r.total}   ({verdict})")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tournament.mcr", description="MCR hand scoring")
    ap.add_argument("hand", nargs="?", help="hand in the text notation, e.g. '[123m][555p]{EEEE}789sPP'")
    ap.add_argument("--jsonl", action="store_true", help="read JSON lines from stdin, write one result per line")
    ap.add_argument("--self-drawn", action="store_true")
    ap.add_argument("--last-tile", action="store_true")
    ap.add_argument("--wall-last", action="store_true")
    ap.add_argument("--kong", action="store_true")
    ap.add_argument("--seat", default="E", help="seat wind E S W N")
    ap.add_argument("--prevalent", default="E", help="prevalent wind E S W N")
    ap.add_argument("--flowers", type=int, default=0)
    ap.add_argument("--ruleset", default="ema", choices=RULESETS)
    ap.add_argument("--json", action="store_true", help="print the result as JSON")
    ap.add_argument("--jobs", type=_jobs, metavar="N",
                    help="with --jsonl: score on N worker processes, 0 = one per CPU (default 1: this "
                         "process); the output is identical, in the same order")
    args = ap.parse_args(argv)
    if args.jsonl:
        if args.hand is not None:
            ap.error("--jsonl reads hands from stdin; do not give a hand argument")
        # a batch's caches keep what they compute, so the tracked objects only grow while they fill,
        # and every young collection scans what they added: collecting the young generation every
        # 200,000 net allocations instead of 700 leaves a batch of 5,000 hands with no collection at
        # all (the engine creates no reference cycles, and its caches are bounded); this process only, and
        # the --jobs workers forked from it
        gc.set_threshold(200_000, *gc.get_threshold()[1:])
        jobs = 1 if args.jobs is None else args.jobs or os.cpu_count() or 1
        if jobs == 1:
            return run_jsonl(args.ruleset)
        from .batch import run_parallel  # its workers are gone when it returns

        # Ctrl-C ends a parallel batch at once: the workers follow the parent (PR_SET_PDEATHSIG). Waiting for
        # them, or flushing into an output pipe nobody reads any more, could hang (seen once in CI).
        signal.signal(signal.SIGINT, _interrupted)
        out = _Watched(sys.stdout)
        run_parallel(args.ruleset, chain.from_iterable(stdin_batches()), out, jobs, answer=answer)
        return 1 if out.unknown_key else 0
    if args.jobs is not None:
        ap.error("--jobs applies to --jsonl only")
    if args.hand is None:
        ap.error("give a hand, or --jsonl")
    ctx = WinContext(
        self_drawn=args.self_drawn,
        last_tile=args.last_tile,
        wall_last=args.wall_last,
        kong=args.kong,
        seat_wind=args.seat,
        prevalent_wind=args.prevalent,
        flowers=args.flowers,
    )
    try:
        r = score_hand(args.hand, ctx, args.ruleset)
    except MCRError as e:
        if args.json:
            print(json.dumps(_error(e.code, str(e)), ensure_ascii=False))
        else:
            print(f"error ({e.code}): {e}", file=sys.stderr)
        return 1
    if args.json:
        print(_dumps(r.to_dict()))
    else:
        print(_breakdown(args.hand, r))
    return 0


def _interrupted(signum: int, frame: object) -> None:
    os._exit(128 + signum)


def _exit(code: int) -> None:
    """Leave without the interpreter's teardown: after a batch the caches hold hundreds of thousands
    of objects, and freeing them one by one took 25 ms after 5,000 hands (what 700 hands take to
    score). The output is flushed first; a reader that went away gets exit status 1, as with sys.exit."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        code = 1
    os._exit(code)


if __name__ == "__main__":
    _exit(main())
