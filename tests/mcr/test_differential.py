"""Differential test: the engine's in-process API against the reference calculator (pymahjonggb).

20,000 generated hands (tests/mcr/handgen.py, fixed seed), ruleset ``chinese`` (the reference implements
Chinese practice). Fans are compared without Flower Tiles, plus fan points and totals.
On failure the assertion message lists the largest disagreement groups with an example each.
"""

import handgen
import pytest
import reference

from tournament.mcr import MCRError, WinContext, score_hand

pytestmark = pytest.mark.slow

N_HANDS = 20_000
SEED = 8101
MIN_AGREEMENT = 99.9


def engine_result(case: dict, ruleset: str = "chinese") -> dict:
    ctx = WinContext(
        self_drawn=case["self_drawn"], last_tile=case["last_tile"], wall_last=case["wall_last"],
        kong=case["kong"], seat_wind=case["seat_wind"], prevalent_wind=case["prevalent_wind"],
        flowers=case["flowers"],
    )
    try:
        res = score_hand(case["hand"], ctx, ruleset=ruleset)
    except MCRError as exc:
        return {"ok": False, "code": getattr(exc, "code", type(exc).__name__), "error": str(exc)}
    return {
        "ok": True,
        "fans": [(f.name, f.points, f.count) for f in res.fans],
        "fan_points": res.fan_points,
        "total": res.total,
    }


def test_engine_agrees_with_reference_chinese():
    cases = handgen.random_hands(N_HANDS, SEED)
    refs = [reference.reference_score(c) for c in cases]
    assert all(r is not None for r in refs), "generator produced a hand the reference rejects"
    engines = [engine_result(c) for c in cases]
    pct, report = reference.disagreement_report(cases, refs, engines, show=15)
    print(report)
    assert pct >= MIN_AGREEMENT, f"agreement {pct:.3f}% < {MIN_AGREEMENT}%\n{report}"


def test_engine_accepts_every_legal_hand():
    """No generated (legal, consistent) hand may be refused by the engine, whatever its points."""
    cases = handgen.random_hands(3000, SEED + 1)
    refused = []
    for case in cases:
        res = engine_result(case)
        if not res["ok"]:
            refused.append((reference.format_case(case), res["code"], res["error"]))
    assert not refused, f"{len(refused)} legal hands refused, e.g. {refused[:5]}"
