"""One result shape: the API's ``ScoredHand.to_dict()``, the CLI's ``--json`` line and its ``--jsonl``
lines (written without building the dict) agree on thousands of hands, in both rulesets."""

import json
import subprocess
import sys
from pathlib import Path

import handgen
import pytest

from tests.helpers import RESULT_SHAPE_HANDS
from tournament.mcr import MCRError, WinContext, score_hand
from tournament.mcr.__main__ import answer
from tournament.mcr.result import dumps, result_dict

ROOT = Path(__file__).resolve().parents[2]
def _line(case: dict) -> str:
    return json.dumps({k: case[k] for k in handgen.CONTEXT_KEYS})


def _api(case: dict, ruleset: str) -> dict:
    ctx = WinContext(**{k: case[k] for k in handgen.CONTEXT_KEYS if k != "hand"})
    try:
        return score_hand(case["hand"], ctx, ruleset).to_dict()
    except MCRError as e:  # the CLI's error object
        return {"ok": False, "code": e.code, "error": str(e)}


@pytest.mark.parametrize("ruleset", ["ema", "chinese"])
def test_cli_lines_and_api_agree_in_process(cases, ruleset):
    flowered = 0
    for case in cases:
        want = _api(case, ruleset)
        line = _line(case)
        assert answer(line, ruleset) == dumps(want) + "\n", case
        flowered += want["flower_points"] > 0
    assert flowered > RESULT_SHAPE_HANDS // 4  # the Flower Tiles entry is exercised too


def test_cli_process_and_api_agree(cases):
    payload = "".join(_line(c) + "\n" for c in cases)
    proc = subprocess.run([sys.executable, "-m", "tournament.mcr", "--jsonl", "--ruleset", "ema"],
                          input=payload, capture_output=True, text=True, cwd=ROOT, timeout=300, check=True)
    got = [json.loads(ln) for ln in proc.stdout.splitlines()]
    assert got == [_api(c, "ema") for c in cases]


def test_single_hand_json_is_the_api_dict():
    hand = "[345p][456p]789sEEE5p5p"
    proc = subprocess.run([sys.executable, "-m", "tournament.mcr", hand, "--json", "--flowers", "2"],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=True)
    want = score_hand(hand, WinContext(flowers=2)).to_dict()
    assert json.loads(proc.stdout) == want
    assert want == result_dict(8, [(f.name, f.points, f.count) for f in score_hand(hand).fans], 2)
    assert want["fans"][-1] == {"name": "Flower Tiles", "points": 1, "count": 2} and want["total"] == 10
