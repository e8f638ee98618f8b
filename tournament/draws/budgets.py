"""Search budgets, in iteration counts and scored swaps (about a microsecond each), never wall time: a draw is
a function of its seed and its inputs. A plan of up to 64 players stays well under half a second, 200 players
under two seconds."""

from __future__ import annotations

MIN_TABU_ITERS = 300
TABU_ITER_WORK = 3_000_000  # tabu iterations scale as this / (players x rounds)
PLAN_EVALS = 500_000
LOOKAHEAD_EVALS = 60_000
SESSION_EVALS = 100_000


def tabu_iters(n: int, rounds: int) -> int:
    """Tabu iterations for ``n`` players over ``rounds`` rounds searched."""
    return max(MIN_TABU_ITERS, TABU_ITER_WORK // (n * max(rounds, 1)))


def scaled_evals(n: int, base: int) -> int:
    """A budget of scored swaps for ``n`` players (``base`` is the budget up to 64)."""
    return base * max(64, n) // 64
