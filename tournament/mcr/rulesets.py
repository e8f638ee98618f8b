"""The two rulesets, ``ema`` (the Green Book, default) and ``chinese`` (today's Chinese practice as the
pymahjonggb / ChineseOfficialMahjongHelper calculator implements it), as data."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

from .errors import MCRError
from .fans import FANS

RULESETS = ("ema", "chinese")

# Special hands after which GB still scores Fully Concealed Hand when self-drawn (seed 003:
# "Voi yhdistää: täysin piilotettu käsi (jos voitto tulee omalla nostolla)"); chinese scores Self-Drawn.
SPECIAL_CONCEALED_HANDS = (
    "Nine Gates",
    "Seven Shifted Pairs",
    "Thirteen Orphans",
    "Four Concealed Pungs",
    "Seven Pairs",
    "Greater Honors and Knitted Tiles",
    "Lesser Honors and Knitted Tiles",
)


@dataclass(frozen=True)
class Ruleset:
    name: str
    # extra exclusions on top of fans.BASE_EXCLUDES
    add_excludes: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    # one melded + one concealed kong: "split" = Two Melded Kongs (4) + Concealed Kong (2) = 6 (GB fan 57);
    # "combined" = the single fan "Concealed Kong and Melded Kong" (5).
    mixed_kongs: str = "split"
    # GB 17: Three Kongs combines with Three Concealed Pungs only when the kongs are all concealed.
    three_kongs_needs_concealed: bool = True
    # Knitted Straight hands: chinese reads a winning tile of the straight's kinds into the set or pair
    # for Edge/Closed/Single Wait whenever it can; ema does not (the tile may complete the straight).
    knitted_wait_any_reading: bool = False
    # GB 77-79 "not valid if waiting for more than one tile": ema does not count as a wait a tile the
    # hand already holds all four of; chinese counts every tile that completes the structure.
    waits_ignore_held_four: bool = True
    # partial exclusions: fan -> ((excluded fan, how many of its count are dropped), ...)
    reduce_counts: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))

    def points(self, name: str) -> int:
        return _POINTS[self.name][name]

    def excludes(self, name: str) -> frozenset[str]:
        return _EXCLUDES[self.name][name]


EMA = Ruleset("ema")
CHINESE = Ruleset(
    "chinese",
    add_excludes=MappingProxyType(
        {
            **{name: ("Fully Concealed Hand",) for name in SPECIAL_CONCEALED_HANDS},
            "All Terminals": ("Double Pung",),
            "All Green": ("Half Flush",),
        }
    ),
    mixed_kongs="combined",
    three_kongs_needs_concealed=False,
    knitted_wait_any_reading=True,
    waits_ignore_held_four=False,
    # Nine Gates: the calculator drops one Pung of Terminals or Honors (the 111 or 999 of the gates)
    # instead of all of them.
    reduce_counts=MappingProxyType({"Nine Gates": (("Pung of Terminals or Honors", 1),)}),
)
BY_NAME = MappingProxyType({"ema": EMA, "chinese": CHINESE})

_POINTS = {r: {f.name: f.points[r] for f in FANS if r in f.points} for r in RULESETS}
_EXCLUDES = {
    r.name: {
        f.name: (frozenset(f.excludes) | frozenset(r.add_excludes.get(f.name, ())))
        - frozenset(x for x, _ in r.reduce_counts.get(f.name, ()))
        for f in FANS
    }
    for r in BY_NAME.values()
}


def get(name: str) -> Ruleset:
    try:
        return BY_NAME[name]
    except (KeyError, TypeError):
        raise MCRError("unknown_ruleset", f"unknown ruleset {name!r} (use one of: {', '.join(RULESETS)})") from None
