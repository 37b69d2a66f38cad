"""One unknown stat followed through a run, to say for which values the verdict is the same.

A stat the pages leave unknown (미상) and the scenario does not give stops the engine where a
decision reads it (combat._Need). To answer per range instead ("개미의 HP가 3 이하면 …, 4 이상이면
…"), the runner resolves the scenario again with that stat standing for a sample value `x`: a
`Lin`, an int that remembers it is `a·v + b` of the unknown `v`. Every comparison the engine makes
with it is answered for `x` and narrows the probe's interval to the values of `v` for which the
comparison answers the same. Arithmetic the engine does with stats (adding changes and damage,
negating for a sort) keeps the form; a floor division or a remainder is answered for x and narrows the
interval to where its quotient stays; anything else (a product of two unknowns, a true division, a float,
using it as an index) cannot be followed and raises `Untracked` — the runner then names the stat as
before. Hashing pins the interval to `x` alone (a set or a dict may compare by hash).

So when the run ends, every decision it took is the same for every value in [lo, hi]: the run is
the resolution for each of them (only the numbers derived from the value differ). The runner starts
at the stat's least value and steps to hi + 1 until hi is unbounded."""

from __future__ import annotations

import operator
from contextvars import ContextVar
from fractions import Fraction
from functools import partialmethod
from math import ceil, floor


class Untracked(Exception):
    """The run did something with the unknown value that the probe cannot follow."""


class Probe:
    """The unknown stat `stat` of the pieces of `key` (("card", name) or ("piece", id)), standing for `x`;
    [lo, hi] (hi None: unbounded) are the values for which every decision so far answers as for x."""

    def __init__(self, key: tuple[str, str], stat: str, x: int, lo: int, hi: int | None = None):
        self.key, self.stat, self.x, self.lo, self.hi = key, stat, x, lo, hi

    def matches(self, key: tuple[str, str], stat: str) -> bool:
        return key == self.key and stat == self.stat

    def value(self) -> "Lin":
        return Lin(self, 1, 0)

    def pin(self) -> None:
        self.lo = self.hi = self.x

    def keep(self, a: int, b: int, op) -> bool:
        """op(a·v + b, 0) at v = x; narrows [lo, hi] to the values around x where it answers the same."""
        truth = op(a * self.x + b, 0)
        if a == 0:
            return truth
        r = Fraction(-b, a)  # a·v + b is -sgn(a)·… below r, 0 at r, sgn(a)·… above
        sgn = 1 if a > 0 else -1
        zones = [(None, ceil(r) - 1, -sgn)]
        if r.denominator == 1:
            zones.append((int(r), int(r), 0))
        zones.append((floor(r) + 1, None, sgn))
        here = next(i for i, (lo, hi, _) in enumerate(zones) if (lo is None or self.x >= lo) and (hi is None or self.x <= hi))
        first = last = here
        while first > 0 and op(zones[first - 1][2], 0) == truth:
            first -= 1
        while last < len(zones) - 1 and op(zones[last + 1][2], 0) == truth:
            last += 1
        lo, hi = zones[first][0], zones[last][1]
        if lo is not None:
            self.lo = max(self.lo, lo)
        if hi is not None:
            self.hi = hi if self.hi is None else min(self.hi, hi)
        return truth


def unknown_key(card: str | None, piece: str) -> tuple[str, str]:
    """Whose unknown stat: a card's (every piece of it shares the value), or a piece's own (a piece the
    file names without a card). The engine keys the probe by it, the runner the stat-unknown problem."""
    return ("card", card) if card else ("piece", piece)


#: which probe the engine's stat() reads for an unknown stat (None: none; the engine asks as before)
PROBE: ContextVar[Probe | None] = ContextVar("flamer_probe", default=None)


def _untracked(*_args):
    raise Untracked


class Lin(int):
    """a·v + b for the probe's unknown v, with the int value it has at v = x."""


    def __new__(cls, probe: Probe, a: int, b: int):
        self = int.__new__(cls, a * probe.x + b)
        self.probe, self.a, self.b = probe, a, b
        return self

    @staticmethod
    def make(probe: Probe, a: int, b: int):
        return Lin(probe, a, b) if a else b

    def _form(self, other) -> tuple[int, int] | None:
        if isinstance(other, Lin):
            if other.probe is not self.probe:
                raise Untracked
            return other.a, other.b
        if isinstance(other, int):  # bool too
            return 0, int.__int__(other)
        return None

    def _with(self, other, fn):
        """fn(a, b) of the other operand's form; NotImplemented for a type that is not a number here
        (Python then tries the other side), Untracked for a float or a complex."""
        f = self._form(other)
        if f is None:
            return _untracked() if isinstance(other, (float, complex)) else NotImplemented
        return fn(*f)

    # ---- arithmetic that keeps the form
    def __add__(self, other):
        return self._with(other, lambda a, b: Lin.make(self.probe, self.a + a, self.b + b))

    __radd__ = __add__

    def __sub__(self, other):
        return self._with(other, lambda a, b: Lin.make(self.probe, self.a - a, self.b - b))

    def __rsub__(self, other):
        return self._with(other, lambda a, b: Lin.make(self.probe, a - self.a, b - self.b))

    def __neg__(self):
        return Lin.make(self.probe, -self.a, -self.b)

    def __pos__(self):
        return self

    def __mul__(self, other):
        f = self._form(other)
        if f is None or f[0]:
            return _untracked()
        return Lin.make(self.probe, self.a * f[1], self.b * f[1])

    __rmul__ = __mul__

    def _divmod(self, n, d):
        """floor(n / d) and n mod d of two linear forms: the quotient q answered for x is a constant
        wherever q·d <= n < (q+1)·d (d > 0; mirrored for d < 0) — linear conditions in v, kept."""
        fn, fd = self._form(n), self._form(d)
        if fn is None or fd is None:
            return _untracked()
        q = (fn[0] * self.probe.x + fn[1]) // (fd[0] * self.probe.x + fd[1])
        positive = self.probe.keep(fd[0], fd[1], operator.gt)  # its sign stays (d = 0 would have raised)
        ra, rb = fn[0] - q * fd[0], fn[1] - q * fd[1]  # n − q·d
        if positive:
            self.probe.keep(ra, rb, operator.ge)
            self.probe.keep(ra - fd[0], rb - fd[1], operator.lt)
        else:
            self.probe.keep(ra, rb, operator.le)
            self.probe.keep(ra - fd[0], rb - fd[1], operator.gt)
        return q, Lin.make(self.probe, ra, rb)

    def __floordiv__(self, other):
        return self._divmod(self, other)[0]

    def __rfloordiv__(self, other):
        return self._divmod(other, self)[0]

    def __mod__(self, other):
        return self._divmod(self, other)[1]

    def __rmod__(self, other):
        return self._divmod(other, self)[1]

    def __divmod__(self, other):
        return self._divmod(self, other)

    def __rdivmod__(self, other):
        return self._divmod(other, self)

    def __abs__(self):
        return -self if self < 0 else self

    # ---- comparisons: answered for x, the interval narrowed to where they answer the same
    def _cmp(self, other, op):
        return self._with(other, lambda a, b: self.probe.keep(self.a - a, self.b - b, op))

    __lt__ = partialmethod(_cmp, op=operator.lt)
    __le__ = partialmethod(_cmp, op=operator.le)
    __gt__ = partialmethod(_cmp, op=operator.gt)
    __ge__ = partialmethod(_cmp, op=operator.ge)
    __eq__ = partialmethod(_cmp, op=operator.eq)
    __ne__ = partialmethod(_cmp, op=operator.ne)

    def __bool__(self):
        return self.probe.keep(self.a, self.b, operator.ne)

    def __hash__(self):
        self.probe.pin()
        return int.__hash__(self)

    def __int__(self):
        self.probe.pin()
        return int.__int__(self)

    __index__ = __int__

    # ---- anything else cannot be followed
    __truediv__ = __rtruediv__ = __pow__ = __rpow__ = __and__ = __rand__ = __or__ = __ror__ = _untracked
    __xor__ = __rxor__ = __lshift__ = __rlshift__ = __rshift__ = __rrshift__ = __invert__ = _untracked
    __float__ = __round__ = __trunc__ = __floor__ = __ceil__ = __complex__ = _untracked

    def __reduce__(self):
        raise Untracked

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self
