"""Differential report: our MCR engine (through its --jsonl CLI) against the reference calculator.

    python bench/mcr_diff.py [--hands 20000] [--seed 1] [--ruleset chinese] [--show 30]

Generates random legal winning hands (tests/mcr/handgen.py), scores each with pymahjonggb
(tests/mcr/reference.py) and with ``python -m tournament.mcr --jsonl --ruleset R`` (one subprocess,
all hands on stdin), compares fan multisets (without Flower Tiles) and totals, prints the agreement
and the disagreements grouped by (missing fans, extra fans, other) with one example each.
The reference implements Chinese practice, so ``--ruleset ema`` shows the intended differences too.
Always exits 0: it is a report.
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


def run_cli(cases: list[dict], ruleset: str, timeout: float = 1800) -> tuple[list[dict] | None, str, float]:
    """Engine results for ``cases`` through the CLI: (results or None, problem text, seconds)."""
    payload = "".join(json.dumps({k: c[k] for k in handgen.CONTEXT_KEYS}) + "\n" for c in cases)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "tournament.mcr", "--jsonl", "--ruleset", ruleset],
            input=payload, capture_output=True, text=True, cwd=ROOT, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return None, f"engine CLI timed out after {timeout:.0f} s", time.perf_counter() - t0
    elapsed = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if proc.returncode != 0 and len(lines) != len(cases):
        tail = "\n".join(proc.stderr.strip().splitlines()[-15:])
        return None, f"engine CLI exited {proc.returncode}:\n{tail}", elapsed
    if len(lines) != len(cases):
        return None, f"engine CLI wrote {len(lines)} lines for {len(cases)} hands", elapsed
    results = []
    for ln in lines:
        try:
            out = json.loads(ln)
        except json.JSONDecodeError:
            return None, f"engine CLI wrote a line that is not JSON: {ln[:200]!r}", elapsed
        if out.get("ok"):
            out["fans"] = [(f["name"], f["points"], f.get("count", 1)) for f in out.get("fans", [])]
        results.append(out)
    return results, "", elapsed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ruleset", default="chinese")
    ap.add_argument("--show", type=int, default=30, help="disagreement groups to print")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    cases = handgen.random_hands(args.hands, args.seed)
    t1 = time.perf_counter()
    refs = [reference.reference_score(c) for c in cases]
    t2 = time.perf_counter()
    print(f"generated {len(cases)} hands (seed {args.seed}) in {t1 - t0:.2f} s; reference scored them in {t2 - t1:.2f} s")
    print(f"reference: {sum(r is None for r in refs)} not a win, "
          f"{sum(1 for r in refs if r is not None and r['fan_points'] < 8)} under 8 points")

    engines, problem, elapsed = run_cli(cases, args.ruleset)
    if engines is None:
        print(f"\nENGINE NOT USABLE: {problem}")
        print("no comparison made")
        return 0
    print(f"engine CLI (--ruleset {args.ruleset}) scored them in {elapsed:.2f} s")
    errors = sum(1 for e in engines if not e.get("ok"))
    if errors:
        print(f"engine refused {errors} of the hands")
    pct, report = reference.disagreement_report(cases, refs, engines, show=args.show)
    print()
    print(report)
    print(f"\nRESULT: {pct:.3f}% agreement with the reference over {len(cases)} hands (ruleset {args.ruleset})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
