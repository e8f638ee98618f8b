"""The rank chart of a player page, drawn server-side as inline SVG (no script, no library).

Rank 1 is at the top; the vertical scale runs to the largest field of the sessions shown, so a
player's line keeps its meaning when substitutes or late arrivals change the field. Horizontal
positions are percentages and vertical ones pixels: the chart takes any width while its text keeps
its size (a scaled viewBox would shrink the labels to nothing on a phone).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext

from tournament.services.results.progress import RankAfter

HEIGHT = 220                    # px
TOP, BOTTOM = 22, 34            # px kept free above and below the plot
LEFT, RIGHT = 5.0, 95.0         # % of the width where the first and last sessions sit


@dataclass(frozen=True)
class ChartPoint:
    x: float          # % of the width
    y: float          # px from the top
    session: int
    label: str        # "3" or "3=" as the standings print it


@dataclass(frozen=True)
class RankChart:
    height: int
    points: list[ChartPoint]
    segments: list[tuple[ChartPoint, ChartPoint]]
    grid: list[tuple[float, int]]    # (y, rank) of the horizontal guides
    field_size: int
    plot_top: int
    plot_bottom: int
    description: str


def _ticks(field: int) -> list[int]:
    """A handful of round ranks between 1 and the field size."""
    if field <= 1:
        return [1]
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000) if field / s <= 6)
    ticks = [1, *range(step, field, step), field]
    if len(ticks) > 2 and ticks[-2] != 1 and field - ticks[-2] < step / 2:
        del ticks[-2]  # too close to the last rank to print both
    return sorted(set(ticks))


def rank_chart(history: list[RankAfter]) -> RankChart | None:
    if not history:
        return None
    field = max(max(h.field_size for h in history), 2)
    plot_h = HEIGHT - TOP - BOTTOM

    def x_of(index: int) -> float:
        return (LEFT + RIGHT) / 2 if len(history) == 1 else LEFT + (RIGHT - LEFT) * index / (len(history) - 1)

    def y_of(rank: int) -> float:
        return round(TOP + plot_h * (rank - 1) / (field - 1), 1)

    points = [ChartPoint(x=round(x_of(i), 2), y=y_of(h.rank), session=h.session, label=h.rank_label)
              for i, h in enumerate(history)]
    steps = ", ".join(gettext("session %(num)d: %(rank)s", num=h.session, rank=h.rank_label) for h in history)
    return RankChart(
        height=HEIGHT, points=points, segments=list(zip(points, points[1:], strict=False)),
        grid=[(y_of(rank), rank) for rank in _ticks(field)], field_size=field,
        plot_top=TOP, plot_bottom=HEIGHT - BOTTOM,
        description=gettext("Rank after each session, out of %(num)d: %(steps)s.", num=history[-1].field_size,
                            steps=steps),
    )
