"""The two rulesets, ``ema`` (the Green Book, default) and ``chinese`` (today's Chinese practice as the
pymahjonggb / ChineseOfficialMahjongHelper calculator implements it), as data.

``chinese`` is ``ema`` with every named switch of :data:`SWITCHES` flipped, so each difference between
the two has a name; the ruleset audit (tests/mcr/test_ruleset_audit.py) checks that every hand scored
differently is explained by a switch whose rule applies to it. :func:`flip` builds the rulesets in
between (``ema`` with some switches flipped), registered under a name of their own for the caches.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
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

_EMPTY = MappingProxyType({})


@dataclass(frozen=True)
class Ruleset:
    name: str
    # the column of fans.csv the points come from (a fan only the other column has keeps its points
    # there: it is only detected under a switch that brings it in)
    points_column: str = "ema"
    # extra exclusions on top of fans.BASE_EXCLUDES: fan -> fans it also excludes
    add_excludes: MappingProxyType = field(default_factory=lambda: _EMPTY)
    # one melded + one concealed kong: "split" = Two Melded Kongs (4) + Concealed Kong (2) = 6 (GB fan 57);
    # "combined" = the single fan "Concealed Kong and Melded Kong" (5).
    mixed_kongs: str = "split"
    # True: Three Kongs scores no Three Concealed Pungs when a kong is melded. Both rulesets say False: GB 17's
    # "if the Kongs are all concealed" lifts Non-Repeat where the pungs are implied (RULINGS.md, issue 20).
    three_kongs_needs_concealed: bool = False
    # Knitted Straight hands: the winning tile of the straight's kinds is read into the set or pair for
    # Edge/Closed/Single Wait whenever it can (GB 3.9.1.5 (4); RULINGS.md, issue 20); False: never.
    knitted_wait_any_reading: bool = True
    # GB 77-79 "not valid if waiting for more than one tile": ema does not count as a wait a tile the
    # hand held all four of before the win; chinese counts every tile that completes the structure.
    waits_ignore_held_four: bool = True
    # partial exclusions: fan -> ((excluded fan, how many of its count are dropped), ...)
    reduce_counts: MappingProxyType = field(default_factory=lambda: _EMPTY)

    def points(self, name: str) -> int:
        return _POINTS[self.name][name]

    def excludes(self, name: str) -> frozenset[str]:
        return _EXCLUDES[self.name][name]


@dataclass(frozen=True)
class Switch:
    """One named difference between ``ema`` and ``chinese``: the Ruleset fields it sets to chinese's
    value (mapping fields are merged, the others replaced)."""

    name: str
    title: str
    changes: MappingProxyType


def _switch(name: str, title: str, **changes) -> Switch:
    return Switch(name, title, MappingProxyType(changes))


SWITCHES: tuple[Switch, ...] = (
    _switch("points", "Two Concealed Kongs 8 -> 6 points (fans.csv columns)", points_column="chinese"),
    _switch("mixed_kongs", "one melded + one concealed kong: Concealed Kong and Melded Kong (5)",
            mixed_kongs="combined"),
    _switch("fully_concealed_special", "Fully Concealed Hand not with special hands (Self-Drawn instead)",
            add_excludes={name: ("Fully Concealed Hand",) for name in SPECIAL_CONCEALED_HANDS}),
    _switch("all_terminals_double_pung", "All Terminals excludes Double Pung",
            add_excludes={"All Terminals": ("Double Pung",)}),
    _switch("all_green_half_flush", "All Green excludes Half Flush", add_excludes={"All Green": ("Half Flush",)}),
    _switch("held_four_waits", "a tile held four times before the win is still a wait",
            waits_ignore_held_four=False),
    _switch("nine_gates_terminal_pungs", "Nine Gates drops only one Pung of Terminals or Honors",
            reduce_counts={"Nine Gates": (("Pung of Terminals or Honors", 1),)}),
)
SWITCH_BY_NAME = MappingProxyType({s.name: s for s in SWITCHES})

_POINTS: dict[str, dict[str, int]] = {}
_EXCLUDES: dict[str, dict[str, frozenset[str]]] = {}
_REGISTRY: dict[str, Ruleset] = {}


def _register(rs: Ruleset) -> Ruleset:
    """Index a ruleset's points and exclusions under its name (the scorer's caches key on names)."""
    if rs.name in _REGISTRY:
        if _REGISTRY[rs.name] != rs:
            raise ValueError(f"another ruleset is registered as {rs.name!r}")
        return _REGISTRY[rs.name]
    other = next(c for c in RULESETS if c != rs.points_column)
    _POINTS[rs.name] = {
        f.name: f.points.get(rs.points_column, f.points.get(other)) for f in FANS if f.points
    }
    _EXCLUDES[rs.name] = {
        f.name: (frozenset(f.excludes) | frozenset(rs.add_excludes.get(f.name, ())))
        - frozenset(x for x, _ in rs.reduce_counts.get(f.name, ()))
        for f in FANS
    }
    _REGISTRY[rs.name] = rs
    return rs


def flip(base: Ruleset, *switches: str, name: str | None = None) -> Ruleset:
    """``base`` with the named switches set to chinese's value, registered under ``name`` (by default
    the base's name and the switches', e.g. ``ema+held_four_waits``)."""
    fields: dict = {}
    for s in switches:
        for key, value in SWITCH_BY_NAME[s].changes.items():
            if isinstance(value, dict):  # exclusions: union per fan
                merged = dict(fields.get(key, getattr(base, key)))
                for fan, extra in value.items():
                    merged[fan] = tuple(dict.fromkeys((*merged.get(fan, ()), *extra)))
                fields[key] = MappingProxyType(merged)
            else:
                fields[key] = value
    return _register(replace(base, name=name or "+".join((base.name, *switches)), **fields))


EMA = _register(Ruleset("ema"))
CHINESE = flip(EMA, *SWITCH_BY_NAME, name="chinese")
BY_NAME = MappingProxyType({"ema": EMA, "chinese": CHINESE})


def get(name: str) -> Ruleset:
    """A public ruleset by name (``ema`` or ``chinese``)."""
    try:
        return BY_NAME[name]
    except (KeyError, TypeError):
        raise MCRError("unknown_ruleset", f"unknown ruleset {name!r} (use one of: {', '.join(RULESETS)})") from None


def lookup(name: str) -> Ruleset:
    """Any registered ruleset by name, the ones :func:`flip` built too (for the scorer's caches)."""
    return _REGISTRY[name]
