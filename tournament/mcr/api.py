"""The Python API the web layer codes against (re-exported by the package)."""

from __future__ import annotations

from dataclasses import dataclass, fields

from . import decompose as dc
from .calculator import make_context, score_parsed
from .errors import MCRError
from .notation import ParsedHand, parse, parse_hand
from .result import FLOWER_FAN, MINIMUM_POINTS, result_dict  # noqa: F401 (FLOWER_FAN re-exported)
from .rulesets import get as get_ruleset
from .tiles import code


@dataclass(frozen=True)
class WinContext:
    self_drawn: bool = False
    last_tile: bool = False
    wall_last: bool = False
    kong: bool = False
    seat_wind: str = "E"
    prevalent_wind: str = "E"
    flowers: int = 0


# The one list of the win's flags and values: check_hand's keywords, the hand checker's form and the
# errors that blame one of them are derived from WinContext.
WIN_CONTEXT_FIELDS = tuple(f.name for f in fields(WinContext))
WIN_FLAGS = tuple(f.name for f in fields(WinContext) if f.type == "bool")  # the yes/no ones


@dataclass(frozen=True)
class FanHit:
    name: str
    points: int
    count: int
    sets: tuple[str, ...]


@dataclass(frozen=True)
class ScoredHand:
    fans: tuple[FanHit, ...]
    fan_points: int
    flower_points: int
    total: int
    meets_minimum: bool
    form: str
    ruleset: str

    def to_dict(self) -> dict:
        return result_dict(self.fan_points, [(f.name, f.points, f.count) for f in self.fans], self.flower_points)


def _context(p: ParsedHand, context: WinContext):
    if not isinstance(context, WinContext):
        raise MCRError("bad_context", "context must be a WinContext")
    return make_context(
        p,
        self_drawn=context.self_drawn,
        last_tile=context.last_tile,
        wall_last=context.wall_last,
        kong=context.kong,
        seat_wind=context.seat_wind,
        prevalent_wind=context.prevalent_wind,
        flowers=context.flowers,
    )


def score_hand(hand: str, context: WinContext = WinContext(), ruleset: str = "ema") -> ScoredHand:
    """Score a 14-tile hand. Raises :class:`MCRError` (code ``not_winning`` when the tiles form no
    legal winning hand; other codes for notation, context and ruleset errors)."""
    rs = get_ruleset(ruleset)
    p = parse_hand(hand)
    ctx = _context(p, context)
    fan_points, fans, form = score_parsed(p, ctx, rs)
    hits = tuple(FanHit(n, pts, cnt, sets) for n, pts, cnt, sets in fans)
    return ScoredHand(
        fans=hits,
        fan_points=fan_points,
        flower_points=ctx.flowers,
        total=fan_points + ctx.flowers,
        meets_minimum=fan_points >= MINIMUM_POINTS,
        form=form,
        ruleset=ruleset,
    )


def classify_claim(hand: str, context: WinContext = WinContext(), ruleset: str = "ema") -> str:
    """"valid", "under_minimum" or "not_winning" for a claimed win (notation errors still raise)."""
    try:
        r = score_hand(hand, context, ruleset)
    except MCRError as e:
        if e.code == "not_winning":
            return "not_winning"
        raise
    return "valid" if r.meets_minimum else "under_minimum"


def winning_tiles(hand13: str) -> tuple[str, ...]:
    """Tile codes that would complete a 13-tile hand (declared sets allowed)."""
    p = parse(hand13, tiles=13)
    c = [0] * 34
    for t in p.concealed:
        c[t] += 1
    return tuple(code(t) for t in dc.waits(tuple(c), len(p.melds), tuple(p.counts())))
