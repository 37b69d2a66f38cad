"""What a declaration's effect names, read at declaration (response.declare.timing: choices are fixed when
declared) and at resolution: the placeholders `target`, `self`, `chosen` and the cells they stand for, and
whether a piece may be moved to a cell (response.move-impossible, move.structures)."""

from __future__ import annotations

from ..pieces import Declaration
from ..primitives.base import CHOSEN, SELF, TARGET
from ..types import CELL_LIMIT, SIDE_LIMIT
from .state import Combat, Piece

STRUCT_IMMOVABLE = "structures-immovable-by-effects"  # the decision a dated ruling sets (engine/decisions.py)


def cell_ref(c: Combat, ref, ctx: dict, d: Declaration, combat_cell: str | None) -> str:
    """The cell an effect's `cell` names at declaration: the player's chosen cell, the cell written, or
    (none written) the item's `cell:`, else — in step 1 — the combat's own cell."""
    if ref == CHOSEN:
        return ctx["chosen"]
    if ref is None:
        # an effect without its own cell applies where the item says (`cell:`), else
        # (step 1) the combat's own cell
        if ctx["chosen"] is not None:
            return ctx["chosen"]
        if combat_cell is None:
            raise c.error(d, "effect", "attack-effect-cell")
        return combat_cell
    return ref


def piece_ref(c: Combat, ref, ctx: dict, d: Declaration) -> str:
    """The piece an effect names at declaration (`target`, `self` or a piece id of the file)."""
    if ref == TARGET:
        return ctx["target"]
    if ref == SELF:
        if ctx["self"] is None:
            raise c.error(d, "effect", "self-outside-sp")
        return ctx["self"]
    if ref not in c.pieces:
        raise c.error(d, "effect", "effect-unknown-piece", piece=ref)
    return ref


def resolved_piece(ref, ctx: dict):
    """The piece an effect names at resolution (the choices fixed at declaration)."""
    if ref == TARGET:
        return ctx["target"]
    if ref == SELF:
        return ctx["self"]
    return ref


def resolved_cell(ref, ctx: dict, at: str) -> str:
    """The cell an effect applies to at resolution: chosen, written, else the item's cell, else where it
    resolves (the hosting combat's cell)."""
    return ctx["chosen"] if ref == CHOSEN else (ref or ctx["chosen"] or at)


def check_move(c: Combat, d: Declaration, p: Piece, to: str) -> None:
    """A move effect declared on `p`: refused when a structure may not be moved by effects
    (structures-immovable-by-effects) or when the destination is full (response.move-impossible)."""
    if p.spec.structure:
        a = c.ask(STRUCT_IMMOVABLE)
        if a.applied:
            raise c.forbid("structure-cannot-move", "move.structures", d, "effect", ruling=a.cite, piece=p.id)
        if not a.known:
            c.rule_gap(a, ruling=a.cite, piece=p.id, rule="move.structures")
    if p.cell == to:
        return
    here = c.in_cell(to)
    mine = sum(1 for q in here if q.side == p.side)
    if mine >= SIDE_LIMIT or len(here) >= CELL_LIMIT:
        raise c.forbid("move-destination-full", "response.move-impossible", d, "effect", piece=p.id, to=to,
                       side=p.side, mine=mine, total=len(here), side_limit=SIDE_LIMIT, cell_limit=CELL_LIMIT)
