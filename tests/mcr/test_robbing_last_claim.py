"""Robbing the Kong with Last Tile Claim is refused (issue 20): the robbed tile is added to a kong, not
discarded, and no kong can be made once the wall's last tile is drawn."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.mcr import MCRError, WinContext, classify_claim, score_hand

ROOT = Path(__file__).resolve().parents[2]
HAND = "[123m]456m789s23p5s5s1p"  # wins on 1p, held nowhere else: a kong of 1p can be robbed


@pytest.mark.parametrize("ruleset", ["ema", "chinese"])
def test_refused_naming_both_flags(ruleset):
    for call in (lambda: score_hand(HAND, WinContext(kong=True, wall_last=True), ruleset),
                 lambda: classify_claim(HAND, WinContext(kong=True, wall_last=True), ruleset)):
        with pytest.raises(MCRError) as ei:
            call()
        assert ei.value.code == "bad_context"
        assert "kong" in ei.value.message and "wall_last" in ei.value.message
        assert "Robbing the Kong" in ei.value.message and "Last Tile Claim" in ei.value.message


def test_each_flag_alone_and_the_self_drawn_pair_still_score():
    assert "Robbing the Kong" in {f.name for f in score_hand(HAND, WinContext(kong=True)).fans}
    assert "Last Tile Claim" in {f.name for f in score_hand(HAND, WinContext(wall_last=True)).fans}
    got = {f.name for f in score_hand("[2222m]345m678s99p123s",
                                      WinContext(self_drawn=True, kong=True, wall_last=True)).fans}
    assert {"Out with Replacement Tile", "Last Tile Draw"} <= got


def _cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "tournament.mcr", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_cli_refuses_it_in_both_modes():
    p = _cli(HAND, "--kong", "--wall-last", "--json")
    assert p.returncode == 1
    d = json.loads(p.stdout)
    assert d["ok"] is False and d["code"] == "bad_context" and "wall_last" in d["error"]
    canonical = {"hand": HAND, "self_drawn": False, "last_tile": False, "wall_last": True, "kong": True,
                 "seat_wind": "E", "prevalent_wind": "E", "flowers": 0}
    lines = json.dumps(canonical) + "\n" + json.dumps({"hand": HAND, "kong": True, "wall_last": True}) + "\n"
    out = [json.loads(line) for line in _cli("--jsonl", stdin=lines).stdout.splitlines()]
    assert [o["code"] for o in out] == ["bad_context", "bad_context"]
