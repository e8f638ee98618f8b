"""The one shape of a scored hand as plain data, shared by ``ScoredHand.to_dict`` (the API), the CLI's
``--json`` and ``--jsonl`` lines: :func:`result_dict`, and :func:`result_json`, its JSON text written
directly for batches (the same text the CLI's encoder gives for the dict; tested on thousands of hands).
``fans`` are ``(name, points, count, ...)`` tuples: whatever follows the count (the sets) is left out."""

from __future__ import annotations

import json

from .fans import FAN_BY_NAME

MINIMUM_POINTS = 8  # GB 3.9.1.1: a win needs 8 points, flowers not counted
FLOWER_FAN = "Flower Tiles"

# the encoder of the CLI's output lines; result_json writes exactly its format
dumps = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def result_dict(fan_points: int, fans, flowers: int) -> dict:
    out = [{"name": f[0], "points": f[1], "count": f[2]} for f in fans]
    if flowers:
        out.append({"name": FLOWER_FAN, "points": 1, "count": flowers})
    return {
        "ok": True,
        "fans": out,
        "fan_points": fan_points,
        "flower_points": flowers,
        "total": fan_points + flowers,
        "meets_minimum": fan_points >= MINIMUM_POINTS,
    }


# every fan name as the encoder writes it (the names are fixed, so this is done once)
_NAME_JSON = {n: dumps(n) for n in (*FAN_BY_NAME, FLOWER_FAN)}


class _Fragments(dict):
    """(fan, points, count) -> the fan's encoded object; a few hundred recur, so each is written once."""

    def __missing__(self, key: tuple[str, int, int]) -> str:
        name, points, count = key
        text = self[key] = f'{{"name": {_NAME_JSON[name]}, "points": {points}, "count": {count}}}'
        return text


_FRAGMENT = _Fragments()


def result_json(fan_points: int, fans, flowers: int) -> str:
    """``dumps(result_dict(...)) + "\\n"`` without building the dict (same keys, order, separators)."""
    frag = _FRAGMENT
    parts = []  # a loop, not a list comprehension (a function call of its own): this runs for every line
    for f in fans:
        parts.append(frag[f[0], f[1], f[2]])
    if flowers:
        parts.append(frag[FLOWER_FAN, 1, flowers])
    meets = "true" if fan_points >= MINIMUM_POINTS else "false"
    return (f'{{"ok": true, "fans": [{", ".join(parts)}], "fan_points": {fan_points}, '
            f'"flower_points": {flowers}, "total": {fan_points + flowers}, "meets_minimum": {meets}}}\n')
