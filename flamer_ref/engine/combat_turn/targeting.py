"""Targeting and priority as named rules (combat.targeting, combat.tiebreak): which pieces an attack may
hit (`target_pool`), their order (`rank`: Lv, current HP, ATK, cost, then listing order), and the target
with why it was chosen (`pick_target`). A stat is read only when a comparison needs it; an unknown one
stops the run (`Need`) unless the tied pieces are interchangeable or of one card."""

from __future__ import annotations

from ..types import PieceState
from .state import STATS, Combat, Need, Piece

MOBILE, SETTLED = PieceState.MOBILE, PieceState.SETTLED
TIE_LEVELS = ("lv", "hp", "atk", "cost", "listing")
_TARGET_RULE = {"hp": "combat.tiebreak", "atk": "combat.tiebreak", "cost": "combat.tiebreak",
                "listing": "interp.tiebreak.listing-order"}


def tie_cites(level: int) -> list[str]:
    """The clauses a tie decided at `level` cites (0: no tie)."""
    if level <= 0:
        return []
    out = ["combat.tiebreak", "interp.tiebreak.current-hp"]
    if level >= 4:
        out.append("interp.tiebreak.listing-order")
    return out


def tie_why(level: int, what: tuple[str, int | None]) -> dict:
    """Why a tie at `level` needs a stat: in which choice (`what`: effect-target | attack-order |
    attack-target, and the step) — data for the problem's words (stat-unknown)."""
    return {"need": "tie", "level": level, "what": what[0], "step": what[1]}


def mechanics(p: Piece) -> tuple:
    """What makes a piece act as it does: two pieces with equal mechanics are interchangeable."""
    s = p.spec
    lv = p.field_lv if p.field_lv is not None else s.lv
    # an unknown stat is the same unknown for two pieces of one card, so what was added to or
    # taken from it still tells them apart (HP x+1 is more than HP x whatever x is)
    return (s.side, s.card, s.structure, p.state, ("?", p.b_lv) if lv is None else lv + p.b_lv,
            ("?", p.b_hp - p.damage) if s.hp is None else s.hp + p.b_hp - p.damage,
            ("?", p.b_atk) if s.atk is None else s.atk + p.b_atk, s.cost)


def shared_unknown(g: list[Piece], stat: str) -> list[tuple[int, Piece]] | None:
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


def _listing_order(c: Combat, g: list[Piece], top_only: bool, out: list) -> None:
    """The last comparison: the order of the file (interp.tiebreak.listing-order), said in `assumed`."""
    ordered = sorted(g, key=lambda p: p.spec.order)
    for p in (ordered[:1] if top_only else ordered):
        out.append((p, 4))
    if ("interchangeable", tuple(p.id for p in g)) not in c.assumed_keys:
        c.assume(("listing", tuple(p.id for p in ordered)), choice="tiebreak-listing-order",
                 pieces=[p.id for p in ordered], rule="interp.tiebreak.listing-order")


def _values(c: Combat, g: list[Piece], level: int, what) -> list[tuple[int, Piece]] | None:
    """The compared stat of each tied piece; None when the comparison cannot matter (interchangeable
    pieces: the caller goes to listing order). An unknown stat that matters stops the run."""
    why = tie_why(level, what)
    vals, needs = [], []
    for p in g:
        try:
            vals.append((c.stat(p, STATS[level], why), p))
        except Need as need:
            needs += need.needs
    if not needs:
        return vals
    # An unknown stat is needed only if the choice could matter: pieces that are
    # mechanically identical (same card, state, stats, damage, changes) are interchangeable.
    mech = [mechanics(p) for p in g]  # compared, not hashed (a probed value: engine/probe.py)
    if all(m == mech[0] for m in mech[1:]):
        c.assume(("interchangeable", tuple(p.id for p in g)), choice="tiebreak-interchangeable",
                 pieces=[p.id for p in g], stat=STATS[level], rule="interp.tiebreak.listing-order")
        return None
    # Pieces of one card share its unknown value: their order is the order of what was added
    # to or taken from it (HP x−1 < HP x whatever x is), so the value itself is not needed.
    shared = shared_unknown(g, STATS[level])
    if shared is None:  # else the comparison reads every tied piece's stat: each unknown one
        raise Need(*needs[0], more=tuple(needs[1:]))
    return shared


def rank(c: Combat, group: list[Piece], what: tuple[str, int | None], top_only: bool = False) -> list[tuple[Piece, int]]:
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
            _listing_order(c, g, top_only, out)
            return
        if level == 3 and not top_only and any(p.spec.cost is None for p in g):
            # Attack order: pieces tied down to ATK strike for the same amount, so their
            # order cannot change the outcome — an unknown cost is not needed here.
            rec(g, 4)
            return
        vals = _values(c, g, level, what)
        if vals is None:
            rec(g, 4)
            return
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


def target_pool(c: Combat, cell: str, side: str) -> tuple[str, list[Piece]]:
    """combat.targeting: the side's mobile pieces in the cell, else its settled ones (pool name, pieces)."""
    cands = c.mobile(cell, side)
    if cands:
        return "mobile", cands
    return "settled", [p for p in c.in_cell(cell, side) if p.state is SETTLED]


def pick_target(c: Combat, cell: str, side: str, what: tuple[str, int | None]) -> tuple[Piece, int, dict] | None:
    """combat.targeting: the side's highest-priority mobile piece in the cell, else settled.

    Returns (piece, tie level, why): why says from which pool the target came (``mobile`` |
    ``settled``), among how many candidates, and which comparison picked it (``only`` | ``lv`` |
    ``hp`` | ``atk`` | ``cost`` | ``listing``) with the deciding value and the clause."""
    pool, cands = target_pool(c, cell, side)
    if not cands:
        return None
    target, level = rank(c, cands, what, top_only=True)[0]
    by = "only" if len(cands) == 1 else TIE_LEVELS[level]
    value = None
    if by == "lv":
        value = c.lv_or_none(target)
    elif by == "hp":
        value = c.hp_or_none(target)
    elif by == "atk":
        value = c.atk_or_none(target)
    elif by == "cost":
        value = target.spec.cost
    rule = _TARGET_RULE.get(by, "combat.targeting")
    why = {"target_pool": pool, "target_candidates": len(cands), "target_by": by, "target_value": value,
           "target_lv": c.lv_or_none(target), "target_rule": rule}
    return target, level, why
