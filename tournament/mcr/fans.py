"""The fan table as data: id, name, points per ruleset, and what each fan excludes.

Points come from ``data/fans.csv`` (a copy of the shared rules table). Exclusions follow GB
(appendix 1 of the Green Book, "does not combine with ...") completed by the Non-Repeat principle
(a fan never scores together with a fan it inevitably implies). Ruleset differences live in
:mod:`rulesets`.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType


@dataclass(frozen=True, slots=True)
class Fan:
    id: int
    name: str
    points: MappingProxyType  # ruleset -> points (absent when the ruleset lacks the fan)
    excludes: tuple[str, ...]  # base exclusions shared by every ruleset

    def points_in(self, ruleset: str) -> int | None:
        return self.points.get(ruleset)


# Base exclusions: fan -> fans it does not combine with (both rulesets; see rulesets.py for the
# per-ruleset additions and removals).
BASE_EXCLUDES: dict[str, tuple[str, ...]] = {
    "Big Four Winds": ("Big Three Winds", "Little Four Winds", "All Pungs", "Prevalent Wind", "Seat Wind",
                       "Pung of Terminals or Honors"),
    "Big Three Dragons": ("Little Three Dragons", "Two Dragon Pungs", "Dragon Pung"),
    "All Green": (),
    "Nine Gates": ("Full Flush", "Concealed Hand", "Pung of Terminals or Honors", "No Honors"),
    "Four Kongs": ("Three Kongs", "Two Concealed Kongs", "Two Melded Kongs", "Concealed Kong and Melded Kong",
                   "Concealed Kong", "Melded Kong", "All Pungs", "Single Wait"),
    "Seven Shifted Pairs": ("Seven Pairs", "Full Flush", "Concealed Hand", "Single Wait", "No Honors"),
    "Thirteen Orphans": ("All Types", "Concealed Hand", "Single Wait", "All Terminals and Honors"),
    "All Terminals": ("All Terminals and Honors", "All Pungs", "Outside Hand", "Pung of Terminals or Honors",
                      "No Honors"),
    "Little Four Winds": ("Big Three Winds", "Pung of Terminals or Honors"),
    "Little Three Dragons": ("Two Dragon Pungs", "Dragon Pung"),
    "All Honors": ("All Terminals and Honors", "All Pungs", "Outside Hand", "Pung of Terminals or Honors"),
    "Four Concealed Pungs": ("Three Concealed Pungs", "Two Concealed Pungs", "All Pungs", "Concealed Hand"),
    "Pure Terminal Chows": ("Seven Pairs", "Full Flush", "All Chows", "Pure Double Chow", "Two Terminal Chows",
                            "No Honors"),
    "Quadruple Chow": ("Pure Triple Chow", "Pure Shifted Pungs", "Tile Hog", "Pure Double Chow"),
    "Four Pure Shifted Pungs": ("Pure Shifted Pungs", "Pure Triple Chow", "All Pungs"),
    "Four Pure Shifted Chows": ("Pure Shifted Chows", "Short Straight", "Two Terminal Chows"),
    "Three Kongs": ("Two Concealed Kongs", "Two Melded Kongs", "Concealed Kong and Melded Kong",
                    "Concealed Kong", "Melded Kong"),
    "All Terminals and Honors": ("All Pungs", "Outside Hand", "Pung of Terminals or Honors"),
    "Seven Pairs": ("Concealed Hand", "Single Wait"),
    "Greater Honors and Knitted Tiles": ("Lesser Honors and Knitted Tiles", "All Types", "Concealed Hand",
                                         "Single Wait"),
    "All Even Pungs": ("All Pungs", "All Simples", "No Honors"),
    "Full Flush": ("No Honors",),
    "Pure Triple Chow": ("Pure Shifted Pungs", "Pure Double Chow"),
    "Pure Shifted Pungs": ("Pure Triple Chow",),
    "Upper Tiles": ("Upper Four", "No Honors"),
    "Middle Tiles": ("All Simples", "No Honors"),
    "Lower Tiles": ("Lower Four", "No Honors"),
    "Three-Suited Terminal Chows": ("All Chows", "Pure Double Chow", "Mixed Double Chow", "Two Terminal Chows",
                                    "No Honors"),
    "All Five": ("All Simples", "No Honors"),
    "Triple Pung": ("Double Pung",),
    "Three Concealed Pungs": ("Two Concealed Pungs",),
    "Lesser Honors and Knitted Tiles": ("All Types", "Concealed Hand", "Single Wait"),
    "Upper Four": ("No Honors",),
    "Lower Four": ("No Honors",),
    "Reversible Tiles": ("One Voided Suit",),
    "Mixed Triple Chow": ("Mixed Double Chow",),
    "Last Tile Draw": ("Self-Drawn",),
    "Out with Replacement Tile": ("Self-Drawn",),
    "Robbing the Kong": ("Last Tile",),
    "Two Concealed Kongs": ("Concealed Kong", "Two Concealed Pungs"),
    "Melded Hand": ("Single Wait",),
    "Two Dragon Pungs": ("Dragon Pung",),
    "Fully Concealed Hand": ("Concealed Hand", "Self-Drawn"),
    "Two Melded Kongs": ("Melded Kong",),
    "Concealed Kong and Melded Kong": ("Concealed Kong", "Melded Kong"),
    "All Chows": ("No Honors",),
    "All Simples": ("No Honors",),
}


def _load() -> tuple[Fan, ...]:
    text = resources.files(__package__).joinpath("data/fans.csv").read_text(encoding="utf-8")
    fans = []
    for row in csv.DictReader(text.splitlines()):
        pts = {}
        if row["ema_points"]:
            pts["ema"] = int(row["ema_points"])
        if row["chinese_points"]:
            pts["chinese"] = int(row["chinese_points"])
        fans.append(Fan(int(row["id"]), row["name"], MappingProxyType(pts), BASE_EXCLUDES.get(row["name"], ())))
    return tuple(fans)


FANS: tuple[Fan, ...] = _load()
FAN_BY_NAME: MappingProxyType = MappingProxyType({f.name: f for f in FANS})

for _name, _ex in BASE_EXCLUDES.items():  # the table must only name real fans
    assert _name in FAN_BY_NAME, _name
    for _x in _ex:
        assert _x in FAN_BY_NAME, _x
