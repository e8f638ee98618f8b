"""Ruleset audit: every hand that ``ema`` and ``chinese`` score differently must be explained by named
switches of ``tournament.mcr.rulesets.SWITCHES``.

For a hand whose results differ, the explaining switches are those whose flip alone (``ema`` with that
one switch set to chinese's value) changes the ``ema`` result. The hand is explained when
- flipping those switches together gives exactly the ``chinese`` result, and
- the rule behind each of them applies to the hand (:data:`APPLIES`: a fact of the tiles and the win
  context, written here from the rule's text and independent of the scorer's code).
A difference that no switch reproduces, or one put down to a switch whose rule cannot apply (a wait
fan changed by "held four" in a hand that held no four before the win: issue 8), is unexplained.

API: ``run(cases) -> Report`` with ``cases`` as made by ``handgen.random_hands``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from tournament.mcr import decompose as dc
from tournament.mcr.calculator import Context, make_context, score_parsed
from tournament.mcr.notation import ParsedHand, parse_hand
from tournament.mcr.rulesets import CHINESE, EMA, SPECIAL_CONCEALED_HANDS, SWITCHES, Ruleset, flip
from tournament.mcr.setkinds import KONG
from tournament.mcr.tiles import GREEN_TILES

Result = tuple[int, tuple[tuple[str, int, int], ...]]
_GATES = (3, 1, 1, 1, 1, 1, 1, 1, 3)


def score(p: ParsedHand, ctx: Context, rs: Ruleset) -> Result:
    """Fan points and the sorted (name, points, count) of the fans; sets are left out."""
    pts, fans, _ = score_parsed(p, ctx, rs)
    return pts, tuple(sorted((n, pt, cnt) for n, pt, cnt, _ in fans))


def _kongs(p: ParsedHand, concealed: bool | None = None) -> int:
    return sum(1 for m in p.melds if m.kind == KONG and (concealed is None or m.concealed == concealed))


def _counts13(p: ParsedHand) -> tuple[int, ...]:
    c = list(p.tallies[0])
    c[p.win_tile] -= 1
    return tuple(c)


def _held_four_wait(p: ParsedHand, ctx: Context, names: set[str]) -> bool:
    # the hand held all four of a kind before the win, and that kind completes the 13 tiles' structure
    full, w = p.tallies[1], p.win_tile
    held = [t for t in range(34) if full[t] - (t == w) == 4]
    return bool(held) and bool(set(held) & set(dc.structural_waits(_counts13(p), len(p.melds))))


def _nine_gates(p: ParsedHand, ctx: Context, names: set[str]) -> bool:
    c = _counts13(p)
    return not p.melds and c.count(0) == 25 and _GATES in (c[0:9], c[9:18], c[18:27])


def _all_in(p: ParsedHand, kinds: Iterable[int]) -> bool:
    allowed = set(kinds)
    return all(n == 0 or t in allowed for t, n in enumerate(p.tallies[1]))


# switch name -> whether its rule can apply to a hand (tiles, context, fan names of either result)
APPLIES: dict[str, Callable[[ParsedHand, Context, set[str]], bool]] = {
    "points": lambda p, ctx, names: _kongs(p, True) >= 2,
    "mixed_kongs": lambda p, ctx, names: _kongs(p, True) >= 1 and _kongs(p, False) >= 1,
    "fully_concealed_special": lambda p, ctx, names: (
        ctx.self_drawn and all(m.concealed for m in p.melds) and bool(names & set(SPECIAL_CONCEALED_HANDS))
    ),
    "all_terminals_double_pung": lambda p, ctx, names: _all_in(p, (0, 8, 9, 17, 18, 26)),
    "all_green_half_flush": lambda p, ctx, names: _all_in(p, GREEN_TILES),
    "held_four_waits": _held_four_wait,
    "nine_gates_terminal_pungs": lambda p, ctx, names: _nine_gates(p, ctx, names),
}
assert set(APPLIES) == {s.name for s in SWITCHES}, "every switch needs its rule in APPLIES"

_ONE = {s.name: flip(EMA, s.name) for s in SWITCHES}


@dataclass
class Report:
    hands: int = 0
    differing: int = 0
    by_switch: Counter = field(default_factory=Counter)  # hands each switch explains (in part)
    by_combination: Counter = field(default_factory=Counter)  # the explaining switches of each hand
    unexplained: list[tuple[str, str]] = field(default_factory=list)  # (hand and context, why)

    def lines(self) -> list[str]:
        out = [f"{self.differing} of {self.hands} hands score differently under ema and chinese"]
        out += [f"  {s.name}: {self.by_switch[s.name]}" for s in SWITCHES]
        out += ["  together: " + ", ".join(f"{'+'.join(k)} {v}" for k, v in self.by_combination.items()
                                           if len(k) > 1) or "  together: none"]
        out.append(f"  unexplained: {len(self.unexplained)}")
        out += [f"    {hand}: {why}" for hand, why in self.unexplained[:20]]
        return out


def _label(case: dict) -> str:
    flags = [k for k in ("self_drawn", "last_tile", "wall_last", "kong") if case[k]]
    return f"{case['hand']} seat {case['seat_wind']} prevalent {case['prevalent_wind']} {' '.join(flags)}".strip()


def audit_case(case: dict, report: Report) -> None:
    p = parse_hand(case["hand"])
    ctx = make_context(p, case["self_drawn"], case["last_tile"], case["wall_last"], case["kong"],
                       case["seat_wind"], case["prevalent_wind"], 0)
    report.hands += 1
    ema, chinese = score(p, ctx, EMA), score(p, ctx, CHINESE)
    if ema == chinese:
        return
    report.differing += 1
    names = {n for n, _, _ in ema[1] + chinese[1]}
    explaining = tuple(s.name for s in SWITCHES if score(p, ctx, _ONE[s.name]) != ema)
    if not explaining:
        report.unexplained.append((_label(case), f"no single switch changes ema {ema} (chinese {chinese})"))
        return
    if score(p, ctx, flip(EMA, *explaining)) != chinese:
        report.unexplained.append((_label(case), f"{'+'.join(explaining)} do not give chinese {chinese}"))
        return
    wrong = [s for s in explaining if not APPLIES[s](p, ctx, names)]
    if wrong:
        report.unexplained.append((_label(case), f"{'+'.join(wrong)} changed the score but cannot apply: "
                                                 f"ema {ema}, chinese {chinese}"))
        return
    report.by_switch.update(explaining)
    report.by_combination[explaining] += 1


def run(cases: Iterable[dict]) -> Report:
    report = Report()
    for case in cases:
        audit_case(case, report)
    return report
