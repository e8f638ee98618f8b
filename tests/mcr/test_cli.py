"""The command line, both modes, through a subprocess."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KEYS = {"ok", "fans", "fan_points", "flower_points", "total", "meets_minimum"}


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "tournament.mcr", *args],
        input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60,
    )


def test_readable_breakdown():
    p = run("123456789m123s5p5p")
    assert p.returncode == 0
    assert "Pure Straight" in p.stdout and "16" in p.stdout
    assert "Total: 22" in p.stdout


def test_json_single_hand_with_context():
    p = run("[123m][555p]{EEEE}789sPP", "--json", "--flowers", "2", "--seat", "E", "--prevalent", "S",
            "--self-drawn")
    assert p.returncode == 0
    d = json.loads(p.stdout)
    assert set(d) == KEYS and d["ok"] is True
    names = [f["name"] for f in d["fans"]]
    assert "Seat Wind" in names and "Prevalent Wind" not in names and "Self-Drawn" in names
    assert d["fans"][-1] == {"name": "Flower Tiles", "points": 1, "count": 2}
    assert all(set(f) == {"name", "points", "count"} for f in d["fans"])
    assert d["flower_points"] == 2 and d["total"] == d["fan_points"] + 2
    assert d["fan_points"] == sum(f["points"] * f["count"] for f in d["fans"] if f["name"] != "Flower Tiles")


def test_ruleset_option():
    e = json.loads(run("{1111m}{9999p}456s789s55p", "--json").stdout)
    c = json.loads(run("{1111m}{9999p}456s789s55p", "--json", "--ruleset", "chinese").stdout)
    assert e["fan_points"] - c["fan_points"] == 2  # Two Concealed Kongs 8 vs 6


def test_errors_single_mode():
    p = run("123x", "--json")
    assert p.returncode == 1
    d = json.loads(p.stdout)
    assert d["ok"] is False and d["code"] == "unknown_character" and "position 4" in d["error"]
    p = run("13579m13579s1357p")
    assert p.returncode == 1 and "not_winning" in p.stderr
    p = run("123456789m123s5p5p", "--kong", "--self-drawn", "--json")
    assert json.loads(p.stdout)["code"] == "bad_context"
    assert run("123456789m123s5p5p", "--ruleset", "nope").returncode == 2


def test_jsonl_batch_in_order_with_bad_lines():
    lines = [
        {"hand": "123456789m123s5p5p"},
        "this is not json",
        {"hand": "123456789m123s5p5p", "flags": {"self_drawn": True, "flowers": 1}},
        {"hand": "13579m13579s1357p"},
        {"hand": "11111m456m789m123s"},
        {"hand": "123456789m123s5p5p", "kong": True, "self_drawn": True},
        [1, 2],
        {"hand": "[123m][567s][345p]78pEE9p", "self_drawn": True},
        {"hand": "123456789m123s5p5p", "seat_wind": "Q"},
        {"hand": "{1111m}{9999p}456s789s55p"},
    ]
    payload = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    p = run("--jsonl", stdin=payload)
    assert p.returncode == 0
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == len(lines)
    assert out[0] == {
        "ok": True,
        "fans": [
            {"name": "Pure Straight", "points": 16, "count": 1},
            {"name": "Concealed Hand", "points": 2, "count": 1},
            {"name": "All Chows", "points": 2, "count": 1},
            {"name": "Mixed Double Chow", "points": 1, "count": 1},
            {"name": "Single Wait", "points": 1, "count": 1},
        ],
        "fan_points": 22, "flower_points": 0, "total": 22, "meets_minimum": True,
    }
    assert out[1]["ok"] is False and out[1]["code"] == "bad_json" and set(out[1]) == {"ok", "code", "error"}
    assert out[2]["fans"][-1] == {"name": "Flower Tiles", "points": 1, "count": 1} and out[2]["total"] == 25
    assert out[3] == {"ok": False, "code": "not_winning", "error": out[3]["error"]}
    assert out[4]["code"] == "too_many_of_tile"
    assert out[5]["code"] == "bad_context"
    assert out[6]["code"] == "bad_input"
    assert out[7]["ok"] is True and out[7]["meets_minimum"] is False and out[7]["fan_points"] == 1
    assert out[8]["code"] == "bad_context"
    assert out[9]["ok"] is True and {"name": "Two Concealed Kongs", "points": 8, "count": 1} in out[9]["fans"]


def test_jsonl_ruleset_and_counts():
    payload = json.dumps({"hand": "{1111m}{9999p}456s789s55p"}) + "\n"
    d = json.loads(run("--jsonl", "--ruleset", "chinese", stdin=payload).stdout)
    assert {"name": "Two Concealed Kongs", "points": 6, "count": 1} in d["fans"]
    payload = json.dumps({"hand": "[111m][999m]111p999pEE"}) + "\n"
    d = json.loads(run("--jsonl", stdin=payload).stdout)
    assert {"name": "Double Pung", "points": 2, "count": 2} in d["fans"]


def test_jsonl_blank_lines_get_an_answer_each():
    # output line i answers input line i: blank and whitespace-only lines get a bad_json error
    good = json.dumps({"hand": "123456789m123s5p5p"})
    payload = "\n".join(["", good, "   ", "\t", good, " \t "]) + "\n"
    p = run("--jsonl", stdin=payload)
    assert p.returncode == 0
    out = [json.loads(x) for x in p.stdout.splitlines()]
    assert len(out) == 6
    empty = {"ok": False, "code": "bad_json", "error": "empty line"}
    assert out[0] == out[2] == out[3] == out[5] == empty
    assert out[1]["ok"] is True and out[4] == out[1] and out[1]["fan_points"] == 22


def test_jsonl_unknown_keys_are_refused_by_line_and_the_exit_status():
    """Issue 34: a key the engine does not know was dropped silently (a context under "flags" too, so a self-drawn
    1-point hand with 4 flowers came back as an 8-point Chicken Hand). The flags may come under "flags" now; any
    other key is that line's error, naming it, and the command exits 1 once every line is answered."""
    flagged = {"hand": "[123m][567s][345p]78pEE9p", "flags": {"self_drawn": True, "flowers": 4}}
    lines = [
        flagged,
        {"hand": "[123m][567s][345p]78pEE9p", "self_drawn": True, "flowers": 4},
        {"hand": "123456789m123s5p5p", "extra": "ignored"},
        {"hand": "123456789m123s5p5p", "flags": {"self_drawn": True, "flower": 1}},
        {"hand": "123456789m123s5p5p", "self_drawn": True, "flags": {"self_drawn": True}},
        {"hand": "123456789m123s5p5p", "flags": [1]},
        {"hnad": "123456789m123s5p5p", "seat": "E"},
        {"hand": "123456789m123s5p5p", "flags": None},
    ]
    payload = "\n".join(json.dumps(x) for x in lines) + "\n"
    for jobs in ((), ("--jobs", "2")):
        p = run("--jsonl", *jobs, stdin=payload * (1 if not jobs else 200))  # 1,600 lines: the workers' path
        assert p.returncode == 1, jobs
        out = [json.loads(x) for x in p.stdout.splitlines()][:len(lines)]
        assert out[0] == out[1] and out[0]["total"] == 5 and out[0]["meets_minimum"] is False
        assert {"name": "Self-Drawn", "points": 1, "count": 1} in out[0]["fans"]
        assert out[2]["code"] == "unknown_key" and "'extra'" in out[2]["error"] and set(out[2]) == {"ok", "code", "error"}
        assert out[3]["code"] == "unknown_key" and "'flags.flower'" in out[3]["error"]
        assert out[4]["code"] == "bad_input" and "self_drawn" in out[4]["error"]
        assert out[5]["code"] == "bad_input" and "flags" in out[5]["error"]
        assert out[6]["code"] == "unknown_key" and "'hnad', 'seat'" in out[6]["error"]
        assert out[7]["ok"] is True and out[7]["total"] == 22
    p = run("--jsonl", stdin=json.dumps(flagged) + "\n")
    assert p.returncode == 0
