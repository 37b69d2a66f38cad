"""combat.targeting and combat.tiebreak: a piece's stats as the combat reads them (an unknown one asked for
only when a choice needs it), the priority order (`rank`: Lv, current HP, ATK, cost, listing order) and the
target an attack or an effect picks (`pick_target`).
"""

from __future__ import annotations

from ..probe import PROBE, unknown_key
from .state import SETTLED, STATS, TARGET_RULE, Need, Piece


class Targeting:
    """Stats, priority and targets (combat.targeting, combat.tiebreak) — a room of `Engine`
    (engine/combat.py), on the state of `CombatState`."""

    def stat(self, p: Piece, stat: str, why: dict) -> int:
        if stat == "lv":
            base = p.field_lv if p.field_lv is not None else p.spec.lv
            return (self.unknown(p, "lv", why) if base is None else base) + p.b_lv
        if stat == "hp":
            return (self.unknown(p, "hp", why) if p.spec.hp is None else p.spec.hp) + p.b_hp - p.damage
        if stat == "atk":
            return (self.unknown(p, "atk", why) if p.spec.atk is None else p.spec.atk) + p.b_atk
        return self.unknown(p, "cost", why) if p.spec.cost is None else p.spec.cost

    @staticmethod
    def unknown(p: Piece, stat: str, why: dict) -> int:
        """A stat nobody gave, needed: the runner's probe when it follows that stat (engine/probe.py:
        one value standing for a range), else the need stops the run (stat-unknown)."""
        probe = PROBE.get()
        if probe is not None and probe.matches(unknown_key(p.spec.card, p.id), stat):
            return probe.value()
        raise Need(p, stat, why)

    def hp_or_none(self, p: Piece) -> int | None:
        return None if p.spec.hp is None else p.spec.hp + p.b_hp - p.damage

    def lv_or_none(self, p: Piece) -> int | None:
        base = p.field_lv if p.field_lv is not None else p.spec.lv
        return None if base is None else base + p.b_lv

    def atk_or_none(self, p: Piece) -> int | None:
        return None if p.spec.atk is None else p.spec.atk + p.b_atk

    @staticmethod
    def _why(level: int, what: tuple[str, int | None]) -> dict:
        """Why a tie at `level` needs a stat: in which choice (`what`: effect-target | attack-order |
        attack-target, and the step) — data for the problem's words (stat-unknown)."""
        return {"need": "tie", "level": level, "what": what[0], "step": what[1]}

    def rank(self, group: list[Piece], what: tuple[str, int | None], top_only: bool = False) -> list[tuple[Piece, int]]:
        """Priority order (combat.tiebreak): Lv, current HP, ATK, cost, then listing order.

        Returns (piece, level) pairs; level = index of the comparison that placed
        the piece (0 Lv, 1 HP, 2 ATK, 3 cost, 4 listing order). A stat is read
        only when a comparison needs it; with top_only, only the first place is
        decided."""
        out: list[tuple[Piece, int]] = []

        def rec(g: list[Piece], level: int) -> None:
            if len(g) == 1:
                out.append((g[0], level))
                return
            if level == 4:
                ordered = sorted(g, key=lambda p: p.spec.order)
                for p in (ordered[:1] if top_only else ordered):
                    out.append((p, 4))
                if ("interchangeable", tuple(p.id for p in g)) not in self._assumed_keys:
                    self.assume(("listing", tuple(p.id for p in ordered)), choice="tiebreak-listing-order",
                                pieces=[p.id for p in ordered], rule="interp.tiebreak.listing-order")
                return
            if level == 3 and not top_only and any(p.spec.cost is None for p in g):
                # Attack order: pieces tied down to ATK strike for the same amount, so their
                # order cannot change the outcome — an unknown cost is not needed here.
                rec(g, 4)
                return
            why = self._why(level, what)
            vals, needs = [], []
            for p in g:
                try:
                    vals.append((self.stat(p, STATS[level], why), p))
                except Need as need:
                    needs += need.needs
            if needs:
                # An unknown stat is needed only if the choice could matter: pieces that are
                # mechanically identical (same card, state, stats, damage, changes) are interchangeable.
                mech = [self._mechanics(p) for p in g]  # compared, not hashed (a probed value: engine/probe.py)
                if all(m == mech[0] for m in mech[1:]):
                    self.assume(("interchangeable", tuple(p.id for p in g)), choice="tiebreak-interchangeable",
                                pieces=[p.id for p in g], stat=STATS[level], rule="interp.tiebreak.listing-order")
                    rec(g, 4)
                    return
                # Pieces of one card share its unknown value: their order is the order of what was added
                # to or taken from it (HP x−1 < HP x whatever x is), so the value itself is not needed.
                shared = self._shared_unknown(g, STATS[level])
                if shared is None:  # else the comparison reads every tied piece's stat: each unknown one
                    raise Need(*needs[0], more=tuple(needs[1:]))
                vals = shared
            desc = sorted((v for v, _ in vals), reverse=True)
            for v in [v for i, v in enumerate(desc) if i == 0 or v != desc[i - 1]]:  # distinct, by comparing
                sub = [p for vv, p in vals if vv == v]
                rec(sub, level + 1 if len(sub) > 1 else level)
                if top_only and out:
                    return

        if len(group) == 1:  # nothing to compare
            return [(group[0], 0)]
        if group:
            rec(list(group), 0)
        return out

    @staticmethod
    def _shared_unknown(g: list[Piece], stat: str) -> list[tuple[int, Piece]] | None:
        """When every piece of `g` is of one card whose `stat` is unknown (not given for any of them), the
        pieces' values differ only by what the combat added or took: those offsets, comparable as the
        values are. None otherwise (a known value, another card, a piece named in the file only)."""
        cards = {p.spec.card for p in g}
        if len(cards) != 1 or None in cards:
            return None
        out = []
        for p in g:
            if stat == "lv":
                if p.field_lv is not None or p.spec.lv is not None:
                    return None
                out.append((p.b_lv, p))
            elif stat == "hp":
                if p.spec.hp is not None:
                    return None
                out.append((p.b_hp - p.damage, p))
            elif stat == "atk":
                if p.spec.atk is not None:
                    return None
                out.append((p.b_atk, p))
            else:
                if p.spec.cost is not None:
                    return None
                out.append((0, p))
        return out

    @staticmethod
    def _mechanics(p: Piece) -> tuple:
        s = p.spec
        lv = p.field_lv if p.field_lv is not None else s.lv
        # an unknown stat is the same unknown for two pieces of one card, so what was added to or
        # taken from it still tells them apart (HP x+1 is more than HP x whatever x is)
        return (s.side, s.card, s.structure, p.state, ("?", p.b_lv) if lv is None else lv + p.b_lv,
                ("?", p.b_hp - p.damage) if s.hp is None else s.hp + p.b_hp - p.damage,
                ("?", p.b_atk) if s.atk is None else s.atk + p.b_atk, s.cost)

    def pick_target(self, cell: str, side: str, what: tuple[str, int | None]) -> tuple[Piece, int, dict] | None:
        """combat.targeting: the side's highest-priority mobile piece in the cell, else settled.

        Returns (piece, tie level, why): why says from which pool the target came (``mobile`` |
        ``settled``), among how many candidates, and which comparison picked it (``only`` | ``lv`` |
        ``hp`` | ``atk`` | ``cost`` | ``listing``) with the deciding value and the clause."""
        pool = "mobile"
        cands = self.mobile(cell, side)
        if not cands:
            pool = "settled"
            cands = [p for p in self.in_cell(cell, side) if p.state is SETTLED]
        if not cands:
            return None
        target, level = self.rank(cands, what, top_only=True)[0]
        by = "only" if len(cands) == 1 else ("lv", "hp", "atk", "cost", "listing")[level]
        value = None
        if by == "lv":
            value = self.lv_or_none(target)
        elif by == "hp":
            value = self.hp_or_none(target)
        elif by == "atk":
            value = self.atk_or_none(target)
        elif by == "cost":
            value = target.spec.cost
        rule = TARGET_RULE.get(by, "combat.targeting")
        why = {"target_pool": pool, "target_candidates": len(cands), "target_by": by, "target_value": value,
               "target_lv": self.lv_or_none(target), "target_rule": rule}
        return target, level, why
