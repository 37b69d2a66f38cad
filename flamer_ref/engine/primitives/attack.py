"""`{attack: N, cell: CELL}` — an N ATK attack in a cell, on the target the ordinary rule picks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..types import EventType as E, FizzleReason
from .base import CHOSEN, Primitive, cell_text, effect_primitive, is_int, step_rule

VACATED = "vacated-combat-continues"  # the decision a dated ruling sets (engine/decisions.py)


@effect_primitive
@dataclass(frozen=True)
class Attack(Primitive):
    amount: int
    cell: str | None  # a cell id, CHOSEN, or None (= the item's cell, else the combat's own cell in step 1)

    head: ClassVar[str] = "attack"
    head_aliases: ClassVar[tuple[str, ...]] = ("공격",)
    hover: ClassVar[str] = "공격: N ATK 공격 (셀에서 보통의 대상 규칙으로)."
    head_schema: ClassVar[dict] = {"type": "integer"}
    keys: ClassVar[tuple[str, ...]] = ("cell",)
    example: ClassVar[str] = "{attack: N, cell: CELL}"
    example_ko: ClassVar[str] = "{공격: N, 셀: 셀}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["attack"], "additionalProperties": False,
        "properties": {"attack": {"type": "integer"}, "cell": {"$ref": "#/$defs/cell"}}}

    @classmethod
    def parse(cls, obj, where, sink):
        n = obj.get("attack")
        if not is_int(n):
            sink.add(obj, "attack", f"{where}.attack", "attack-value", value=n)
            return None
        cell = obj.get("cell")
        if cell is not None and cell_text(cell) is None:
            sink.add(obj, "cell", f"{where}.cell", "attack-cell")
            return None
        return cls(n, cell_text(cell) if cell is not None else None)

    def describe(self) -> dict:
        return {"attack": self.amount, "cell": self.cell}

    # ---------------------------------------------------------------- combat ----
    def declare(self, c, dc) -> None:
        """In the response turn, only in an encounter cell (response.attack-cells)."""
        cell = c.cell_ref(self.cell, dc)
        if dc.phase == "response" and cell not in dc.encounter_set:
            raise c.forbid("attack-cell-not-encounter", "response.attack-cells", dc.d,
                           "cell" if dc.d.cell is not None else "effect", cell=cell, encounters=list(dc.encounters))
        if dc.phase == "response" and not c.both_present(cell):
            # an earlier cost emptied one side: still an encounter cell for declaring
            c.assume(("encounter-at-opening", cell), choice="encounter-at-opening", cell=cell,
                     rule="response.attack-cells", interpretation="interp.encounter.at-opening")
        dc.add(cell)

    def apply(self, c, decl, ctx, at, step) -> None:
        """An N ATK hit on the piece the ordinary rule targets (response.rule-targets); ATK 0 or less makes no
        attack; none left to hit, or the combat there ended, and it fizzles."""
        cell = ctx["chosen"] if self.cell == CHOSEN else (self.cell or ctx["chosen"] or at)
        if self.amount <= 0:
            # like a piece with ATK 0 or less: no attack is executed (no damage, no capture)
            c.emit(E.NO_ATTACK, cell=cell, step=step, actor=decl.self_id, side=decl.d.side, source=decl.card,
                   atk=self.amount, why="atk-zero", rule="combat.attack")
            return
        if cell in c.ended:
            c.fizzle(decl, at, step, FizzleReason.COMBAT_ENDED, self, cell=cell, rule="response.resolve.depart",
                     ruling=c.ask(VACATED).cite)
            return
        tgt = c.pick_target(cell, c.opp(decl.d.side), ("effect-target", None))
        if tgt is None:
            vac = cell in c.combat_cells
            c.fizzle(decl, at, step, FizzleReason.NO_TARGET, self, cell=cell,
                     rule="response.resolve.depart" if vac else "response.fizzle",
                     ruling=a.cite if vac and (a := c.ask(VACATED)).applied else None)
            return
        target, level, why = tgt
        actor = c.pieces.get(decl.self_id) if decl.self_id else None
        if actor is not None and not actor.on_board:
            # the declaring piece is gone (e.g. destroyed as the cost): the effect attacks, not the piece
            why = {**why, "actor_where": actor.where}
        c.hit(cell, step, None, decl.self_id, decl.d.side, self.amount, target, level, [],
              rule="response.rule-targets" if step == 2 else step_rule(step), source=decl.card,
              why={**why, "index": decl.d.index, "ability": decl.ability})

    def reach(self, decl) -> set[str] | None:
        cell = decl.chosen_cell if self.cell in (None, CHOSEN) else self.cell
        return None if cell is None else {cell}  # None: it resolves at the hosting combat's cell
