"""Speed of our MCR fan engine against the reference calculator, on the same generated hands.

    python bench/fan_engine.py [--hands 5000] [--seed 1] [--ruleset chinese] [--rounds 7] [--cpu N]

(a) reference in-process: MahjongFanCalculator in a loop, arguments precomputed;
(b) our engine in-process: tournament.mcr.score_hand per hand, cold (the first pass over the hands,
    caches empty) and warm (the same hands again: the engine's caches then answer most of the work);
(c) our engine through ``python -m tournament.mcr --jsonl``: marginal time per hand
    = (time for N hands - time for 1 hand) / (N - 1); every hand is new to that process, so this is
    the cold figure plus JSON in and out;
(d) the same with ``--jobs 2`` (two worker processes; a 1-hand input is scored without them, so the
    marginal figure carries the workers' start-up).

The machine may be shared, so (a) and (c) are measured in ``--rounds`` interleaved rounds (reference,
CLI on 1 hand, CLI on N hands, back to back) and each round gives its own ratio (c)/(a): a slow spell
slows both sides of one round. Each figure is measured twice: wall-clock time, and CPU time (this
process's for (a), the child's user + system time for (c)), which a busy machine disturbs far less
than the wall clock (time spent waiting for a core is not counted). The medians are the headline and
the spread (min-max over rounds) is printed next to them. ``--cpu N`` pins this process and its
children to core N (``taskset``-like), so both sides run on the same core. (d) spreads over two cores,
so it is measured unpinned, by wall clock only.
Exits 1 when the engine is not importable or its CLI fails.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "mcr"))

import handgen  # noqa: E402
import reference  # noqa: E402
from MahjongGB import MahjongFanCalculator  # noqa: E402


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def time_cli(payload: str, n: int, ruleset: str, extra: tuple[str, ...] = ()) -> tuple[float, float]:
    """(wall seconds, child CPU seconds) of one ``--jsonl`` run over ``payload`` (``n`` lines)."""
    cpu0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "tournament.mcr", "--jsonl", "--ruleset", ruleset, *extra],
                          input=payload, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    cpu = _children_cpu() - cpu0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if len(lines) != n:
        raise RuntimeError(f"CLI exited {proc.returncode} with {len(lines)} lines for {n} hands: "
                           f"{proc.stderr.strip()[-500:]}")
    return wall, cpu


def _spread(values: list[float], fmt: str) -> str:
    return f"median {format(statistics.median(values), fmt)}, min {format(min(values), fmt)}, " \
           f"max {format(max(values), fmt)}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="chinese")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds of (a) and (c)")
    ap.add_argument("--repeat", type=int, default=3, help="runs of warm (b) and of (d); the best is kept")
    ap.add_argument("--cpu", type=int, default=None, help="pin this process and its children to this core")
    ap.add_argument("--no-jobs", action="store_true", help="skip (d)")
    args = ap.parse_args(argv)
    n = args.hands

    try:
        from tournament.mcr import MCRError, WinContext, score_hand
    except ImportError as exc:
        print(f"engine not importable (tournament.mcr: {exc}); nothing to compare")
        return 1

    all_cpus = os.sched_getaffinity(0)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})

    cases = handgen.random_hands(n, args.seed)
    ref_args = [reference.to_reference_args(c) for c in cases]
    contexts = [
        WinContext(self_drawn=c["self_drawn"], last_tile=c["last_tile"], wall_last=c["wall_last"], kong=c["kong"],
                   seat_wind=c["seat_wind"], prevalent_wind=c["prevalent_wind"], flowers=c["flowers"])
        for c in cases
    ]
    hands = [c["hand"] for c in cases]
    payload = "".join(json.dumps({k: c[k] for k in handgen.CONTEXT_KEYS}) + "\n" for c in cases)
    payload1 = payload[:payload.index("\n") + 1]

    def run_reference() -> tuple[float, float]:
        c0, t0 = time.process_time(), time.perf_counter()
        for kw in ref_args:
            MahjongFanCalculator(**kw)
        return time.perf_counter() - t0, time.process_time() - c0

    errors = 0

    def run_engine():
        nonlocal errors
        errors = 0
        for hand, ctx in zip(hands, contexts, strict=True):
            try:
                score_hand(hand, ctx, ruleset=args.ruleset)
            except MCRError:
                errors += 1

    run_reference()  # warm up the extension and the argument objects
    t0 = time.perf_counter()
    run_engine()  # the engine's first use in this process: its caches are empty
    cold_s = time.perf_counter() - t0
    warm = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        run_engine()
        warm.append(time.perf_counter() - t0)

    def per_hand(many: float, one: float) -> float:
        return max(many - one, 0.0) / max(n - 1, 1) * 1e6

    ref_wall, ref_cpu, cli_wall, cli_cpu, ratio_wall, ratio_cpu = [], [], [], [], [], []
    try:
        for _ in range(args.rounds):
            rw, rc = run_reference()
            one_w, one_c = time_cli(payload1, 1, args.ruleset)
            many_w, many_c = time_cli(payload, n, args.ruleset)
            ref_wall.append(rw / n * 1e6)
            ref_cpu.append(rc / n * 1e6)
            cli_wall.append(per_hand(many_w, one_w))
            cli_cpu.append(per_hand(many_c, one_c))
            ratio_wall.append(cli_wall[-1] / ref_wall[-1])
            ratio_cpu.append(cli_cpu[-1] / ref_cpu[-1])
        if not args.no_jobs:
            os.sched_setaffinity(0, all_cpus)
            jobs2 = ("--jobs", "2")
            one_j2 = min(time_cli(payload1, 1, args.ruleset, jobs2)[0] for _ in range(args.repeat))
            many_j2 = min(time_cli(payload, n, args.ruleset, jobs2)[0] for _ in range(args.repeat))
    except (RuntimeError, OSError) as exc:
        print(f"engine CLI failed: {exc}")
        return 1
    ref_med = statistics.median(ref_wall)
    cold_us = cold_s / n * 1e6
    warm_us = min(warm) / n * 1e6

    pinned = f", pinned to core {args.cpu}" if args.cpu is not None else ""
    print(f"{n} hands (seed {args.seed}), ruleset {args.ruleset}; {args.rounds} interleaved rounds{pinned}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if errors:
        print(f"note: engine raised MCRError on {errors} hands")
    print(f"(a) reference in-process       wall: {_spread(ref_wall, '.2f')} us/hand")
    print(f"                               cpu : {_spread(ref_cpu, '.2f')} us/hand")
    print(f"(b) engine in-process, cold    : {cold_us:8.1f} us/hand   ratio to (a) median {cold_us / ref_med:5.1f}x")
    print(f"    engine in-process, warm    : {warm_us:8.1f} us/hand   ratio to (a) median {warm_us / ref_med:5.1f}x")
    print(f"(c) engine --jsonl (marginal)  wall: {_spread(cli_wall, '.1f')} us/hand")
    print(f"                               cpu : {_spread(cli_cpu, '.1f')} us/hand")
    print(f"    ratio (c)/(a) per round    wall: {_spread(ratio_wall, '.2f')}  "
          f"[{' '.join(f'{r:.1f}' for r in ratio_wall)}]")
    print(f"                               cpu : {_spread(ratio_cpu, '.2f')}  "
          f"[{' '.join(f'{r:.1f}' for r in ratio_cpu)}]")
    if not args.no_jobs:
        cli_j2_us = per_hand(many_j2, one_j2)
        print(f"(d) engine --jsonl --jobs 2 (marginal, wall, best of {args.repeat}): {cli_j2_us:8.1f} us/hand   "
              f"ratio to (a) median {cli_j2_us / ref_med:5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
