"""Zero-repeat seating designs built algebraically (no stored data).

Resolvable transversal designs TD(4, m)
---------------------------------------
Let R be a finite commutative ring of order m in which four elements c0..c3 have
pairwise differences that are units.  A product of finite fields GF(q1) x ... x GF(qk),
every qi >= 4, qualifies (take ci = (i, i, ..., i) with 0, 1, 2, 3 read as four distinct
elements of each field); by unique factorisation this covers every m whose prime-power
factors are all at least 4 (4, 5, 7, 8, 9, 11, 13, 16, 20, 25, 28, 32, ...).

Players are (g, x) for g in 0..3 ("groups") and x in R, index g*m + x, so N = 4m.
Round i (i in R) has the m tables B(i, j) = {(g, ci*i + j) : g = 0..3}, j in R:

* a round is a partition: for fixed i and g, x = cg*i + j runs over R as j does;
* two players of different groups, (g, x) and (h, y), share B(i, j) iff
  (cg - ch) * i = x - y, which has exactly one solution i since cg - ch is a unit;
* two players of one group never share a table.

So the m rounds are zero-repeat, every cross-group pair meeting exactly once.  When m is
a multiple of 4, further rounds seat each group apart: any zero-repeat design on m
points applied to the four groups at once (recursively; at least the round "consecutive
blocks of four").  With m = 4: 4 + 1 = 5 rounds on 16 players (the affine plane AG(2,4));
m = 16: 16 + 5 = 21 rounds on 64 players (the lines of AG(3,4), which is what the
recursion gives for any power of 4: 4^k players, (4^k - 1)/3 rounds).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable


def _factor(m: int) -> list[tuple[int, int]]:
    out = []
    p = 2
    while p * p <= m:
        if m % p == 0:
            k = 0
            while m % p == 0:
                m //= p
                k += 1
            out.append((p, k))
        p += 1
    if m > 1:
        out.append((m, 1))
    return out


@functools.cache
def _field(p: int, k: int) -> tuple[list[list[int]], list[list[int]]]:
    """(add, mul) tables of GF(p^k); an element is an int whose base-p digits are the
    coefficients of a polynomial over GF(p), reduced modulo a monic irreducible
    polynomial of degree k (the first one found, so the tables are deterministic)."""
    q = p ** k

    def digits(a: int) -> list[int]:
        return [(a // p ** e) % p for e in range(k)]

    def number(ds: list[int]) -> int:
        return sum(d * p ** e for e, d in enumerate(ds))

    add = [[number([(x + y) % p for x, y in zip(digits(a), digits(b), strict=True)]) for b in range(q)]
           for a in range(q)]
    if k == 1:
        return add, [[a * b % p for b in range(q)] for a in range(q)]

    def rem(a: list[int], f: list[int]) -> list[int]:
        """a mod f over GF(p), f monic (lists of coefficients, lowest first)."""
        a = list(a)
        d = len(f) - 1
        for top in range(len(a) - 1, d - 1, -1):
            c = a[top]
            if c:
                for e in range(d + 1):
                    a[top - d + e] = (a[top - d + e] - c * f[e]) % p
        return a[:d]

    def monic(deg: int) -> list[list[int]]:
        return [[(code // p ** e) % p for e in range(deg)] + [1] for code in range(p ** deg)]

    for low in (f[:k] for f in monic(k)):
        f = low + [1]
        if any(not any(rem(f, g)) for deg in range(1, k // 2 + 1) for g in monic(deg)):
            continue  # reducible
        # a * x^e for every a and e < k, then a * b = sum of b_e * (a * x^e)
        shifted = []
        for a in range(q):
            row = []
            v = digits(a)
            for _ in range(k):
                row.append(number(v))
                top = v[-1]
                v = [0] + v[:-1]
                v = [(v[e] - top * low[e]) % p for e in range(k)]
            shifted.append(row)
        scal = [[number([(c * d) % p for d in digits(x)]) for x in range(q)] for c in range(p)]
        mul = []
        for a in range(q):
            row = []
            for b in range(q):
                acc = 0
                for e, c in enumerate(digits(b)):
                    if c:
                        acc = add[acc][scal[c][shifted[a][e]]]
                row.append(acc)
            mul.append(row)
        return add, mul
    raise AssertionError(f"no irreducible polynomial of degree {k} over GF({p})")  # pragma: no cover


def td_ring_order_ok(m: int) -> bool:
    """Whether the ring construction exists for groups of size m."""
    return m >= 4 and all(p ** k >= 4 for p, k in _factor(m))


@functools.lru_cache(maxsize=64)
def _td_rounds(m: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    comps = [_field(p, k) + (p ** k,) for p, k in _factor(m)]

    def split(a: int) -> list[int]:
        out = []
        for _, _, q in comps:
            out.append(a % q)
            a //= q
        return out

    def join(xs: list[int]) -> int:
        a, base = 0, 1
        for x, (_, _, q) in zip(xs, comps, strict=True):
            a += x * base
            base *= q
        return a

    parts = [split(a) for a in range(m)]
    # cg * i for each group g and ring element i: componentwise, with cg = (g, ..., g)
    times = [[join([mul[g][x] for x, (_, mul, _) in zip(parts[i], comps, strict=True)]) for i in range(m)]
             for g in range(4)]

    def plus(a: int, b: int) -> int:
        return join([add[x][y] for x, y, (add, _, _) in zip(parts[a], parts[b], comps, strict=True)])

    rounds = []
    for i in range(m):
        rounds.append(tuple(tuple(g * m + plus(times[g][i], j) for g in range(4)) for j in range(m)))
    return tuple(rounds)


@functools.lru_cache(maxsize=64)
def constructed_rounds(n: int, max_n: int = 1024, inner: Callable[[int], Iterable[Iterable[Iterable[int]]]] | None = None,
                       ) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The most zero-repeat rounds this module builds for ``n`` players (possibly none). ``inner`` gives the
    designs on m = n/4 points that seat each group apart: `designs.design_rounds` (stored or constructed,
    whichever has more rounds) hands itself in; by default this module's own (it imports no stored data)."""
    if n % 4 or n > max_n:
        return ()
    if n == 4:
        return (((0, 1, 2, 3),),)
    m = n // 4
    if not td_ring_order_ok(m):
        return ()
    rounds = list(_td_rounds(m))
    if m % 4 == 0:
        inner_rounds = list((inner or constructed_rounds)(m)) or [[list(range(b, b + 4)) for b in range(0, m, 4)]]
        for rnd in inner_rounds:
            rounds.append(tuple(tuple(g * m + p for p in t) for g in range(4) for t in rnd))
    return tuple(rounds)
