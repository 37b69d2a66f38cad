"""`{move: PIECE, to: CELL}` — a piece leaves its cell for another (a departure from a combat, or an arrival)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..types import CELL_LIMIT, SIDE_LIMIT, EventType as E, FizzleReason
from .base import Primitive, cell_text, effect_primitive, step_rule


@effect_primitive
@dataclass(frozen=True)
class Move(Primitive):
    piece: str
    to: str

    head: ClassVar[str] = "move"
    head_aliases: ClassVar[tuple[str, ...]] = ("옮기기",)
    hover: ClassVar[str] = "옮기기: 기물 id (도착 셀로)."
    keys: ClassVar[tuple[str, ...]] = ("to",)
    example: ClassVar[str] = "{move: PIECE, to: CELL}"
    example_ko: ClassVar[str] = "{옮기기: 기물, 도착: 셀}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["move", "to"], "additionalProperties": False,
        "properties": {"move": {"$ref": "#/$defs/piece"}, "to": {"$ref": "#/$defs/cell"}}}

    @classmethod
    def parse(cls, obj, where, sink):
        piece, to = obj.get("move"), cell_text(obj.get("to"))
        if not isinstance(piece, str):
            sink.add(obj, "move", f"{where}.move", "move-piece")
            return None
        if to is None:
            sink.add(obj, "to" if "to" in obj else None, f"{where}.to", "move-to")
            return None
        return cls(piece, to)

    def describe(self) -> dict:
        return {"move": self.piece, "to": self.to}

    # ---------------------------------------------------------------- combat ----
    def declare(self, c, dc) -> None:
        p = c.declared_piece(dc, self.piece)
        c.check_move(dc.d, p, self.to)
        dc.add(self.to)

    def apply(self, c, decl, ctx, at, step) -> None:
        """The piece departs (from a combat: response.resolve.depart) and arrives (into this combat from
        step 3: response.resolve.arrive; a cell that now holds both sides: response.resolve.new-encounter)."""
        p = c.piece_at_resolution(self, decl, ctx, at, step)
        if p is None:
            return
        if p.cell == self.to:
            c.fizzle(decl, at, step, FizzleReason.ALREADY, self, piece=p.id, cell=p.cell)
            return
        here = c.in_cell(self.to)
        if sum(1 for q in here if q.side == p.side) >= SIDE_LIMIT or len(here) >= CELL_LIMIT:
            c.fizzle(decl, at, step, FizzleReason.MOVE_BLOCKED, self, piece=p.id, cell=self.to, rule="move.limit")
            return
        src = p.cell
        c.take_off(p)
        c.put(p, self.to)
        # from_combat: src holds a combat this turn (the piece is out of it); joins: see Resolving.joins
        from_combat = src in c.combat_cells
        joins = c.joins(self.to, at)
        rule = step_rule(step)
        c.emit(E.DEPART, cell=src, step=step, piece=p.id, to=self.to, from_combat=from_combat, at=at,
               rule="response.resolve.depart" if from_combat else rule)
        c.emit(E.ARRIVE, cell=self.to, step=step, piece=p.id, **{"from": src}, joins=joins, at=at,
               rule={"combat": "response.resolve.arrive", "new-encounter": "response.resolve.new-encounter"}.get(
                   joins, rule))

    def reach(self, decl) -> set[str] | None:
        return {self.to}
