"""Speed of our MCR fan engine against the reference calculator, on the same generated hands.

    python bench/fan_engine.py [--hands 5000] [--seed 1] [--ruleset chinese] [--repeat 3]

(a) reference in-process: MahjongFanCalculator in a loop, arguments precomputed;
(b) our engine in-process: tournament.mcr.score_hand per hand, cold (the first pass over the hands,
    caches empty) and warm (the same hands again: the engine's caches then answer most of the work);
(c) our engine through ``python -m tournament.mcr --jsonl``: marginal time per hand
    = (time for N hands - time for 1 hand) / (N - 1); every hand is new to that process, so this is
    the cold figure plus JSON in and out;
(d) the same with ``--jobs 2`` (two worker processes; a 1-hand input is scored without them, so the
    marginal figure carries the workers' start-up).
Figures are microseconds per hand (best of --repeat runs for (a), warm (b) and every CLI timing).
Exits 1 when the engine is not importable or its CLI fails.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "mcr"))

import handgen  # noqa: E402
import reference  # noqa: E402
from MahjongGB import MahjongFanCalculator  # noqa: E402


def time_cli(cases: list[dict], ruleset: str, extra: tuple[str, ...] = ()) -> float:
    payload = "".join(json.dumps({k: c[k] for k in handgen.CONTEXT_KEYS}) + "\n" for c in cases)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tournament.mcr", "--jsonl", "--ruleset", ruleset, *extra],
                          input=payload, capture_output=True, text=True, cwd=ROOT)
    elapsed = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if len(lines) != len(cases):
        raise RuntimeError(f"CLI exited {proc.returncode} with {len(lines)} lines for {len(cases)} hands: "
                           f"{proc.stderr.strip()[-500:]}")
    return elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="chinese")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    n = args.hands

    try:
        from tournament.mcr import MCRError, WinContext, score_hand
    except ImportError as exc:
        print(f"engine not importable (tournament.mcr: {exc}); nothing to compare")
        return 1

    cases = handgen.random_hands(n, args.seed)
    ref_args = [reference.to_reference_args(c) for c in cases]
    contexts = [
        WinContext(self_drawn=c["self_drawn"], last_tile=c["last_tile"], wall_last=c["wall_last"], kong=c["kong"],
                   seat_wind=c["seat_wind"], prevalent_wind=c["prevalent_wind"], flowers=c["flowers"])
        for c in cases
    ]
    hands = [c["hand"] for c in cases]

    def run_reference():
        for kw in ref_args:
            MahjongFanCalculator(**kw)

    errors = 0

    def run_engine():
        nonlocal errors
        errors = 0
        for hand, ctx in zip(hands, contexts, strict=True):
            try:
                score_hand(hand, ctx, ruleset=args.ruleset)
            except MCRError:
                errors += 1

    def best(fn) -> float:
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t0)
        return min(times)

    ref_s = best(run_reference)
    t0 = time.perf_counter()
    run_engine()  # the engine's first use in this process: its caches are empty
    cold_s = time.perf_counter() - t0
    eng_s = best(run_engine)
    try:
        one = min(time_cli(cases[:1], args.ruleset) for _ in range(args.repeat))
        many = min(time_cli(cases, args.ruleset) for _ in range(args.repeat))
        jobs2 = ("--jobs", "2")
        one_j2 = min(time_cli(cases[:1], args.ruleset, jobs2) for _ in range(args.repeat))
        many_j2 = min(time_cli(cases, args.ruleset, jobs2) for _ in range(args.repeat))
    except (RuntimeError, OSError) as exc:
        print(f"engine CLI failed: {exc}")
        return 1
    ref_us = ref_s / n * 1e6
    cold_us = cold_s / n * 1e6
    eng_us = eng_s / n * 1e6
    cli_us = max(many - one, 0.0) / max(n - 1, 1) * 1e6
    cli_j2_us = max(many_j2 - one_j2, 0.0) / max(n - 1, 1) * 1e6

    print(f"{n} hands (seed {args.seed}), ruleset {args.ruleset}; best of {args.repeat} runs unless cold")
    if errors:
        print(f"note: engine raised MCRError on {errors} hands")
    print(f"(a) reference in-process      : {ref_us:10.1f} us/hand")
    print(f"(b) engine in-process, cold   : {cold_us:10.1f} us/hand   ratio ours/reference {cold_us / ref_us:8.1f}x")
    print(f"    engine in-process, warm   : {eng_us:10.1f} us/hand   ratio ours/reference {eng_us / ref_us:8.1f}x")
    print(f"(c) engine --jsonl (marginal) : {cli_us:10.1f} us/hand   ratio ours/reference {cli_us / ref_us:8.1f}x")
    print(f"    CLI startup (1 hand)      : {one * 1e3:10.1f} ms; {n} hands: {many:.2f} s")
    print(f"(d) engine --jsonl --jobs 2 (marginal): {cli_j2_us:10.1f} us/hand   "
          f"ratio ours/reference {cli_j2_us / ref_us:8.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
