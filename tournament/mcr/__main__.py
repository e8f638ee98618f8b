"""Command line: score one hand, or a batch of JSON lines.

    python -m tournament.mcr "HAND" [--self-drawn] [--last-tile] [--wall-last] [--kong]
        [--seat E] [--prevalent E] [--flowers N] [--ruleset ema|chinese] [--json]
    python -m tournament.mcr --jsonl [--ruleset ema|chinese]   < hands.jsonl > results.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

from .api import WinContext, score_hand
from .errors import MCRError
from .rulesets import RULESETS

CONTEXT_KEYS = ("self_drawn", "last_tile", "wall_last", "kong", "seat_wind", "prevalent_wind", "flowers")


def _error(code: str, message: str) -> dict:
    return {"ok": False, "code": code, "error": message}


def score_line(line: str, ruleset: str) -> dict:
    """One JSON line in, one result object out (never raises for bad input)."""
    try:
        obj = json.loads(line)
    except (json.JSONDecodeError, RecursionError, ValueError) as e:
        return _error("bad_json", f"not a JSON line: {e}")
    if not isinstance(obj, dict):
        return _error("bad_input", "each line must be a JSON object with a 'hand' key")
    hand = obj.get("hand")
    if not isinstance(hand, str):
        return _error("bad_input", "the 'hand' key must be a text")
    kwargs = {k: obj[k] for k in CONTEXT_KEYS if k in obj and obj[k] is not None}
    try:
        return score_hand(hand, WinContext(**kwargs), ruleset).to_dict()
    except MCRError as e:
        return _error(e.code, str(e))
    except Exception as e:  # a bad line never stops the batch
        return _error("internal_error", f"{type(e).__name__}: {e}")


def run_jsonl(ruleset: str, stdin=None, stdout=None) -> int:
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    write = stdout.write
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode
    for line in stdin:
        if not line.strip():
            continue
        write(dumps(score_line(line, ruleset)) + "\n")
    stdout.flush()
    return 0


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
    args = ap.parse_args(argv)
    if args.jsonl:
        if args.hand is not None:
            ap.error("--jsonl reads hands from stdin; do not give a hand argument")
        return run_jsonl(args.ruleset)
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
        print(json.dumps(r.to_dict(), ensure_ascii=False))
    else:
        print(_breakdown(args.hand, r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
