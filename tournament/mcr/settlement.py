"""Payments after a hand and false mahjong (GB 3.9.1.3, 3.11.6.6; MERS 2.9)."""

from __future__ import annotations

from .errors import MCRError

BASE_PAYMENT = 8  # "extra points" every non-winner pays (GB 3.9.1.2)


def _seat(name: str, v) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 3:
        raise MCRError("bad_seat", f"{name} must be a seat number 0 to 3, not {v!r}")
    return v


def settle_win(winner: int, discarder: int | None, base: int) -> tuple[int, int, int, int]:
    """Score changes of seats 0..3. Self-drawn (``discarder`` None): each other pays 8 + base.
    Discard: the discarder pays 8 + base, the other two 8 each. The changes sum to zero."""
    winner = _seat("winner", winner)
    if isinstance(base, bool) or not isinstance(base, int) or base < 0:
        raise MCRError("bad_base", f"base must be a non-negative whole number, not {base!r}")
    out = [0, 0, 0, 0]
    if discarder is None:
        for s in range(4):
            if s != winner:
                out[s] = -(BASE_PAYMENT + base)
    else:
        discarder = _seat("discarder", discarder)
        if discarder == winner:
            raise MCRError("bad_seat", "the discarder cannot be the winner")
        for s in range(4):
            if s != winner:
                out[s] = -(BASE_PAYMENT + base) if s == discarder else -BASE_PAYMENT
    out[winner] = -sum(out)
    return tuple(out)  # type: ignore[return-value]


def settle_false_mahjong(
    claimant: int, kind: str, under_minimum_amount: int = 10, not_winning_amount: int = 20
) -> tuple[int, int, int, int]:
    """The claimant pays the amount to each of the three others (``kind``: "under_minimum" for a legal
    hand under 8 points, "not_winning" for no winning hand at all)."""
    claimant = _seat("claimant", claimant)
    if kind == "under_minimum":
        amount = under_minimum_amount
    elif kind == "not_winning":
        amount = not_winning_amount
    else:
        raise MCRError("bad_kind", f"false mahjong kind must be 'under_minimum' or 'not_winning', not {kind!r}")
    if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
        raise MCRError("bad_amount", f"the amount must be a non-negative whole number, not {amount!r}")
    out = [amount] * 4
    out[claimant] = -3 * amount
    return tuple(out)  # type: ignore[return-value]
