"""`{buff: PIECE, atk: N, hp: N, lv: N, cell: CELL}` — a change of a piece's stats for the combat (그 전투 한정);
`bonded` reaches the pieces bonded to the declaring card in the effect's cell."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..types import FizzleReason
from .base import BONDED, CHOSEN, SELF, Primitive, cell_text, effect_primitive, is_int, step_rule


@effect_primitive
@dataclass(frozen=True)
class Buff(Primitive):
    piece: str
    atk: int = 0
    hp: int = 0
    lv: int = 0
    cell: str | None = None  # for BONDED: where the bonded pieces are looked for
    duration: str = "combat"

    head: ClassVar[str] = "buff"
    head_aliases: ClassVar[tuple[str, ...]] = ("강화",)
    hover: ClassVar[str] = "강화: 기물 id (그 전투 한정)."
    keys: ClassVar[tuple[str, ...]] = ("atk", "hp", "lv", "cell", "duration")
    example: ClassVar[str] = "{buff: PIECE, atk: 1}"
    example_ko: ClassVar[str] = "{강화: 기물, 공격력: 1}"
    data_schema: ClassVar[dict] = {
        "type": "object", "required": ["buff"], "additionalProperties": False,
        "properties": {"buff": {"$ref": "#/$defs/piece"}, "atk": {"type": "integer"}, "hp": {"type": "integer"},
                       "lv": {"type": "integer"}, "cell": {"$ref": "#/$defs/cell"}, "duration": {"const": "combat"}}}

    @classmethod
    def parse(cls, obj, where, sink):
        piece = obj.get("buff")
        if not isinstance(piece, str):
            sink.add(obj, "buff", f"{where}.buff", "buff-piece")
            return None
        vals = {}
        for k in ("atk", "hp", "lv"):
            v = obj.get(k, 0)
            if not is_int(v):
                sink.add(obj, k, f"{where}.{k}", "buff-stat", stat=k, value=v)
                return None
            vals[k] = v
        if not any(vals.values()):
            sink.add(obj, None, where, "buff-empty")
            return None
        if obj.get("duration", "combat") != "combat":
            sink.add(obj, "duration", f"{where}.duration", "buff-duration")
            return None
        cell = obj.get("cell")
        return cls(piece, cell=cell_text(cell) if cell is not None else None, **vals)

    def describe(self) -> dict:
        out: dict[str, Any] = {"buff": self.piece}
        for k in ("atk", "hp", "lv"):
            if getattr(self, k):
                out[k] = getattr(self, k)
        if self.cell is not None:
            out["cell"] = self.cell
        out["duration"] = self.duration
        return out

    # ---------------------------------------------------------------- combat ----
    def declare(self, c, dc) -> None:
        if self.piece == BONDED:
            dc.add(c.cell_ref(self.cell, dc) if self.cell else dc.combat_cell)
        else:
            c.declared_piece(dc, self.piece)

    def apply(self, c, decl, ctx, at, step) -> None:
        if self.piece != BONDED:
            p = c.piece_at_resolution(self, decl, ctx, at, step)
            if p is not None:
                c.buff(p, self, step, decl.card, step_rule(step))
            return
        cell = (ctx["chosen"] if self.cell == CHOSEN else self.cell) or at
        bonded = c.bonded_cards(decl.d.side)
        if bonded is None:
            c.assume(("no-field-bond",), choice="bond-unknown-without-field", rule="field.position-reference")
            c.fizzle(decl, at, step, FizzleReason.NO_TARGET, self, cell=cell, rule="field.position-reference")
            return
        hits = [p for p in c.in_cell(cell, decl.d.side) if p.card in bonded]
        if not hits:
            c.fizzle(decl, at, step, FizzleReason.NO_TARGET, self, cell=cell, rule="response.rule-targets")
            return
        for p in hits:
            c.buff(p, self, step, decl.card, step_rule(step))

    def reach(self, decl) -> set[str] | None:
        if self.piece != BONDED:
            return set()
        cell = decl.chosen_cell if self.cell in (None, CHOSEN) else self.cell
        return None if cell is None else {cell}  # None: it resolves at the hosting combat's cell

    def apply_sp(self, c, piece, side, cell, remote) -> None:
        """In a (전투) SP: the bonded pieces in the combat's cell, or the SP's own piece (not from afar: a
        remote piece takes no part in this combat)."""
        rule = "combat.remote" if remote else "combat.step3.sp"
        if self.piece == BONDED:
            bonded = c.bonded_cards(side)
            if bonded is None:
                if not remote:
                    c.assume(("no-field-bond",), choice="bond-unknown-without-field", rule="field.position-reference")
                return
            for q in c.in_cell(cell, side):
                if q.card in bonded:
                    c.buff(q, self, 3, piece.card, rule)
        elif self.piece == SELF and not remote:
            c.buff(piece, self, 3, piece.card, rule)
