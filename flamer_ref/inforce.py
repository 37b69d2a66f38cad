"""Which dated rulings are in force on a day — the one answer every room shares.

A ruling is in force from its `date` on, until a ruling that is itself in force withdraws it
(`withdraws: [id, …]` on the later ruling, rules/rulings.yaml). A withdrawn ruling stays in the data
and in the history; from the withdrawing ruling's date the rules are as they were without it. A
withdrawal can itself be withdrawn (the first ruling is then in force again).

Pure functions over the rulings table (id → record with `date` and optional `withdraws`), below the data
room and the engine alike: the loader checks the table (corpus.py), the engine decides by it
(engine/decisions.py), the lookups, the book and the site show it (lookup.py, book.py, site.py).
`overrides` ({ruling id: in force?}) forces single rulings on or off whatever their date (what
`flamer simulate --compare` uses to tell which ruling made a difference).
"""

from __future__ import annotations

from typing import Mapping


def withdrawers(rulings: Mapping[str, dict]) -> dict[str, list[str]]:
    """ruling id → the ids of the rulings that withdraw it, oldest first (table order is date order)."""
    out: dict[str, list[str]] = {}
    for wid, w in sorted(rulings.items(), key=lambda kv: (kv[1]["date"], kv[0])):
        for rid in w.get("withdraws") or ():
            out.setdefault(rid, []).append(wid)
    return out


class InForce:
    """The rulings in force on `as_of` (with `overrides`), answered per ruling and memoised."""

    def __init__(self, rulings: Mapping[str, dict], as_of: str, overrides: Mapping[str, bool] | None = None,
                 by: Mapping[str, list[str]] | None = None):
        self.rulings = rulings
        self.as_of = as_of
        self.overrides = dict(overrides or {})
        self.by = withdrawers(rulings) if by is None else by
        self._memo: dict[str, bool] = {}

    def __call__(self, rid: str) -> bool:
        return self._on(rid, ())

    def _on(self, rid: str, visiting: tuple) -> bool:
        got = self._memo.get(rid)
        if got is not None:
            return got
        if rid in self.overrides:
            got = bool(self.overrides[rid])
        else:
            r = self.rulings.get(rid)
            if r is None or r["date"] > self.as_of:
                got = False
            else:  # (a cycle of withdrawals is a data error; here it withdraws nothing)
                got = not any(self._on(w, visiting + (rid,)) for w in self.by.get(rid, ()) if w not in visiting)
        if not visiting:
            self._memo[rid] = got
        return got

    def withdrawn_by(self, rid: str) -> str | None:
        """The ruling in force that withdraws `rid` on this day (the oldest such), or None."""
        return next((w for w in self.by.get(rid, ()) if self(w)), None)


def in_force(rulings: Mapping[str, dict], rid: str, as_of: str, overrides: Mapping[str, bool] | None = None) -> bool:
    """Is ruling `rid` in force on `as_of`?"""
    return InForce(rulings, as_of, overrides)(rid)


def withdrawal(rulings: Mapping[str, dict], rid: str, as_of: str | None = None) -> dict | None:
    """{"id", "date"} of the ruling that withdraws `rid`: with `as_of`, the one in force on that day
    (None while the withdrawal is not yet in force); without, the first one in the data (the history)."""
    by = withdrawers(rulings).get(rid, ())
    if as_of is not None:
        on = InForce(rulings, as_of)
        by = [w for w in by if on(w)]
    return {"id": by[0], "date": rulings[by[0]]["date"]} if by else None


def withdrawal_cycle(rulings: Mapping[str, dict]) -> list[str] | None:
    """A cycle of withdrawals (A withdraws B … withdraws A), as the list of its ids, or None."""
    state: dict[str, int] = {}
    for start in sorted(rulings):
        if state.get(start):
            continue
        stack = [(start, iter(rulings[start].get("withdraws") or ()))]
        path = [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next((x for x in it if x in rulings), None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
                continue
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if not state.get(nxt):
                state[nxt] = 1
                path.append(nxt)
                stack.append((nxt, iter(rulings[nxt].get("withdraws") or ())))
    return None
